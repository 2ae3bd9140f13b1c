import { RcpError } from 'rcp-errors';
import { safeParseManifest, type RcpManifest } from 'rcp-manifest';
import type { RcpClientOptions } from './client-options';
import type { RcpClientTool } from './client-tool';
import { buildRequest } from './internal/build-request';
import { compileTool } from './internal/compile-tool';
import { decodeResponse } from './internal/decode-response';
import { fetchManifestJson, parseManifestUrl } from './internal/fetch-manifest';
import { resolveClientOptions } from './internal/resolve-options';
import { createSender, type SendCallOptions } from './internal/send';
import { compiledToolOf } from './internal/tool-registry';
import { createTrustPolicy } from './internal/trust';
import { isJsonMediaType } from './internal/media-type';

/**
 * A discovery warning: a manifest warning from `rcp-manifest` (an unknown field, an unused
 * param...) or a tool that is listed but cannot be executed as configured (it would send a
 * secret to an untrusted origin, or `allowOrigin` refuses its origin). `path` is a JSON Pointer
 * into the manifest.
 *
 * @example
 * ```ts
 * const { warnings } = await client.discover(url);
 * for (const warning of warnings) console.warn(`${warning.path}: ${warning.message}`);
 * ```
 */
export interface RcpDiscoveryWarning {
  readonly path: string;
  readonly message: string;
  /** The tool concerned, for tool warnings. */
  readonly tool?: string;
}

/**
 * What `client.discover()` returns: the validated manifest and its compiled tools.
 *
 * @example
 * ```ts
 * const { manifestUrl, manifest, tools, warnings } = await client.discover('https://example.com/rcp/manifest');
 * ```
 */
export interface RcpDiscovery {
  /** The manifest URL as requested (fragment removed). */
  readonly manifestUrl: string;
  /** The validated, deep-frozen manifest. */
  readonly manifest: RcpManifest;
  /** One frozen tool per manifest tool, in manifest order. */
  readonly tools: readonly RcpClientTool[];
  readonly warnings: readonly RcpDiscoveryWarning[];
}

/**
 * Options of `client.discover()`.
 *
 * @example
 * ```ts
 * await client.discover(url, { signal: AbortSignal.timeout(5_000) });
 * ```
 */
export interface RcpDiscoverOptions {
  /** Aborts the manifest fetch (`RCP_ABORTED`). */
  signal?: AbortSignal;
}

/**
 * Options of `client.execute()`.
 *
 * @example
 * ```ts
 * await client.execute(tool, args, ctx, { signal: controller.signal });
 * ```
 */
export interface RcpExecuteOptions {
  /** Aborts the call (`RCP_ABORTED`), including retries. */
  signal?: AbortSignal;
}

/**
 * The request `prepare` would have sent: method, absolute URL, headers (the credential
 * replaced by `[redacted]`), and the JSON body (not serialised) when the tool has one.
 * The client's `headers` option and `Accept: application/json, *\/*;q=0.8` (unless the tool
 * sets its own) are added at send time.
 *
 * @example
 * ```ts
 * const request: RcpPreparedRequest = await client.prepare(tool, { query: 'algebra' });
 * // { method: 'GET', url: 'https://api.example.com/courses/search?q=algebra', headers: {} }
 * ```
 */
export interface RcpPreparedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/**
 * The outcome of a successful tool call (2xx).
 *
 * @example
 * ```ts
 * const { status, data, contentType } = await client.execute(tool, { query: 'algebra' });
 * ```
 */
export interface RcpExecuteResult {
  /** The HTTP status (2xx). */
  status: number;
  /** Parsed JSON (after `responseMappings`), or the text of a non-JSON response. */
  data: unknown;
  /** The response's Content-Type header as sent, e.g. `application/json; charset=utf-8` (`''` when absent). */
  contentType: string;
}

/**
 * An RCP client: discovers manifests and executes their tools. Created by {@link createRcpClient}.
 *
 * @example
 * ```ts
 * const client = createRcpClient({ resolvers: { learnerId: (ctx) => ctx.currentUserId } });
 * const { tools } = await client.discover('https://example.com/rcp/manifest');
 * const result = await client.execute(tools[0]!, { query: 'algebra' }, { currentUserId: 'u-1' });
 * ```
 */
export interface RcpClient<Context = any> {
  /**
   * Fetches, validates and compiles a manifest. Fetch failures (network, non-2xx, not JSON,
   * too large, timeout) throw `RCP_DISCOVERY_FAILED` with the cause; `rcp-manifest`'s errors
   * (`RCP_UNSUPPORTED_VERSION`, `RCP_INVALID_MANIFEST`, `RCP_MANIFEST_LIMIT`) pass through.
   *
   * @example
   * ```ts
   * const { manifest, tools, warnings } = await client.discover('https://example.com/rcp/manifest');
   * ```
   */
  discover(manifestUrl: string | URL, options?: RcpDiscoverOptions): Promise<RcpDiscovery>;
  /**
   * Runs every step of `execute` before the request is sent (arguments, resolvers,
   * credential, rendering, origin checks) and returns the request, the credential redacted.
   *
   * @example
   * ```ts
   * const request = await client.prepare(tool, { query: 'algebra' }, ctx);
   * console.log(request.url, request.headers); // { Authorization: 'Bearer [redacted]' }
   * ```
   */
  prepare(tool: RcpClientTool, args: unknown, ctx?: Context): Promise<RcpPreparedRequest>;
  /**
   * Calls a tool: validates `args`, fills resolver-bound params, adds the credential,
   * renders the request, checks its origin — all before any HTTP request — then sends it,
   * reads the response and applies the tool's `responseMappings`.
   *
   * @example
   * ```ts
   * const { status, data } = await client.execute(tool, { query: 'algebra' }, ctx);
   * ```
   */
  execute(tool: RcpClientTool, args: unknown, ctx?: Context, options?: RcpExecuteOptions): Promise<RcpExecuteResult>;
}

const REDACTED = '[redacted]';
/** Sent with every tool call unless the tool sets its own Accept header. */
const ACCEPT = 'application/json, */*;q=0.8';

function aborted(signal: AbortSignal): RcpError<'RCP_ABORTED'> {
  return new RcpError('RCP_ABORTED', 'The request was aborted', { cause: signal.reason });
}

/**
 * Creates an RCP client. Options are checked here (`RCP_INVALID_OPTIONS`); the client is a
 * frozen object whose methods may be passed around unbound.
 *
 * @example
 * ```ts
 * import { createRcpClient, describeManifest } from 'rcp-client';
 *
 * const client = createRcpClient({
 *   resolvers: { learnerId: (ctx) => ctx.currentUserId },
 *   credentials: () => process.env.LEARN_TOKEN,
 *   trustedOrigins: ['https://api.example.com'],
 * });
 * const { manifest, tools } = await client.discover('https://example.com/rcp/manifest');
 * console.log(describeManifest(manifest, tools));
 * const { data } = await client.execute(tools[0]!, { query: 'algebra' }, { currentUserId: 'u-1' });
 * ```
 */
export function createRcpClient<Context = any>(options?: RcpClientOptions<Context>): RcpClient<Context> {
  const resolved = resolveClientOptions(options as RcpClientOptions | undefined);
  const send = createSender({
    timeout: resolved.timeout,
    retry: resolved.retry,
    maxResponseBytes: resolved.maxResponseBytes,
    ...(resolved.fetch !== undefined && { fetch: resolved.fetch }),
    headers: { ...resolved.headers },
  });
  const owner = Object.freeze({});

  async function discover(manifestUrl: string | URL, discoverOptions: RcpDiscoverOptions = {}): Promise<RcpDiscovery> {
    const url = parseManifestUrl(manifestUrl);
    const policy = createTrustPolicy({
      manifestUrl: url.href,
      trustedOrigins: resolved.trustedOrigins,
      ...(resolved.allowOrigin !== undefined && { allowOrigin: resolved.allowOrigin }),
    });
    /** The operator's `allowOrigin`, failing closed: a throw is a refusal with the error as cause. */
    const isAllowed = (target: string | URL): boolean => {
      try {
        return policy.isAllowed(target);
      } catch (error) {
        throw new RcpError('RCP_ORIGIN_NOT_ALLOWED', `The client's "allowOrigin" policy threw`, { cause: error });
      }
    };
    if (!isAllowed(url)) {
      throw new RcpError('RCP_ORIGIN_NOT_ALLOWED', `The client's "allowOrigin" policy refuses the manifest origin ${url.origin}`);
    }
    const isRedirectAllowed = (target: URL): boolean => isAllowed(target);
    const json = await fetchManifestJson(send, url, {
      maxManifestBytes: resolved.maxManifestBytes,
      isRedirectAllowed,
      ...(discoverOptions.signal !== undefined && { signal: discoverOptions.signal }),
    });
    const parsed = safeParseManifest(json, { maxTools: resolved.maxManifestTools });
    if (!parsed.ok) throw parsed.error;
    const { manifest, warnings: manifestWarnings } = parsed;

    const decisions = new Map<string, { trusted: boolean; allowed: boolean }>();
    const context = {
      owner,
      manifestUrl: url.href,
      manifestOrigin: url.origin,
      serverAuth: manifest.auth ?? { type: 'none' as const },
      options: resolved,
      decide: (origin: string) => {
        let decision = decisions.get(origin);
        if (decision === undefined) {
          let allowed = true;
          if (resolved.allowOrigin !== undefined) {
            try {
              allowed = isAllowed(origin);
            } catch {
              allowed = false; // a throwing policy refuses: executing reports its error
            }
          }
          decision = { trusted: policy.isTrusted(origin), allowed };
          decisions.set(origin, decision);
        }
        return decision;
      },
      isAllowed,
      isRedirectAllowed,
      sharedAuth: new Map(),
    };
    const warnings: RcpDiscoveryWarning[] = manifestWarnings.map((warning) =>
      Object.freeze({ path: warning.path, message: warning.message }),
    );
    const tools = manifest.tools.map((source, index) => {
      const { tool, warning } = compileTool(source, context);
      if (warning !== undefined) warnings.push(Object.freeze({ path: `/tools/${index}`, message: warning, tool: tool.name }));
      return tool;
    });
    return Object.freeze({
      manifestUrl: url.href,
      manifest,
      tools: Object.freeze(tools),
      warnings: Object.freeze(warnings),
    });
  }

  async function prepare(tool: RcpClientTool, args: unknown, ctx?: Context): Promise<RcpPreparedRequest> {
    const compiled = compiledToolOf(tool, owner);
    const built = await buildRequest(compiled, tool, args, ctx);
    const headers = { ...built.request.headers };
    if (built.credential !== undefined) headers[compiled.auth!.auth.name] = compiled.auth!.prefix + REDACTED;
    const prepared: RcpPreparedRequest = { method: built.request.method, url: built.request.url, headers };
    if (built.body !== undefined) prepared.body = built.body;
    return prepared;
  }

  async function execute(
    tool: RcpClientTool,
    args: unknown,
    ctx?: Context,
    executeOptions?: RcpExecuteOptions,
  ): Promise<RcpExecuteResult> {
    const compiled = compiledToolOf(tool, owner);
    const signal = executeOptions?.signal;
    if (signal?.aborted) throw aborted(signal);
    // Synchronous resolvers and credentials cost no await: `buildRequest` then returns the request itself.
    const building = buildRequest(compiled, tool, args, ctx);
    const built = building instanceof Promise ? await building : building;
    if (signal?.aborted) throw aborted(signal);
    const call: SendCallOptions = { isRedirectAllowed: compiled.isRedirectAllowed, accept: ACCEPT };
    if (signal !== undefined) call.signal = signal;
    if (built.secrets !== undefined) call.secrets = built.secrets;
    const result = await send(built.request, call);
    const decoded = decodeResponse(result);
    let data = decoded.data;
    if (compiled.mappings !== undefined) {
      if (!isJsonMediaType(decoded.contentType)) {
        throw new RcpError(
          'RCP_INVALID_RESPONSE',
          `Tool "${tool.name}" has responseMappings but the response is not JSON (${decoded.contentType.slice(0, 100) || 'no content type'})`,
        );
      }
      data = compiled.mappings.apply(data);
    }
    return { status: result.status, data, contentType: decoded.contentType };
  }

  return Object.freeze({ discover, prepare, execute });
}
