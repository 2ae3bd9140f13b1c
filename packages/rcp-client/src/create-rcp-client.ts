import { RcpError, isRcpError } from 'rcp-errors';
import { safeParseManifest, type RcpManifest } from 'rcp-manifest';
import type { RcpCallOutcome, RcpExecuteResult, RcpToolCall } from './call-outcome';
import type { RcpClientOptions } from './client-options';
import type { RcpClientTool } from './client-tool';
import { findEntry, isToolSet, type RcpToolSet, type RcpToolSetEntry } from './tool-set';
import { buildRequest, type BuiltRequest } from './internal/build-request';
import { compileTool } from './internal/compile-tool';
import { decodeResponse } from './internal/decode-response';
import { fetchManifestJson, parseManifestUrl } from './internal/fetch-manifest';
import { checkModelFilledParams, checkRequireResolved, resolveClientOptions } from './internal/resolve-options';
import { createSender, type SendCallOptions, type SendResult } from './internal/send';
import { compiledToolOf, type CompiledTool } from './internal/tool-registry';
import { createTrustPolicy, loadSiteLookup, type TrustPolicy } from './internal/trust';
import { createNetworkBoundary } from './internal/network-boundary';
import { createPlatformTransport } from '#transport';
import { createFetchTransport } from './internal/fetch-transport';
import type { Transport } from './internal/transport-types';
import { isHtmlMediaType, isJsonMediaType, mediaTypeLabel } from './internal/media-type';
import { redactError } from './internal/redact';
import { retriesAfterUnauthorized } from './internal/unauthorized';
import { observeCall, type CallObserver } from './hooks';

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
  /**
   * HTTP caching of the manifest: its validators (`etag`, `lastModified`) and until when
   * (`freshUntil`, epoch ms, from `Cache-Control: max-age`) it may be reused; see `discover`'s
   * `previous` option.
   */
  readonly cache: { readonly etag?: string; readonly lastModified?: string; readonly freshUntil: number };
  /**
   * The tool named `name`. An unknown name throws `RCP_UNKNOWN_TOOL`, whose message names the
   * closest tool and the available ones — never `undefined` to trip over later.
   *
   * @example
   * ```ts
   * const search = discovery.tool('search_courses');
   * await client.execute(search, { query: 'algebra' });
   * ```
   */
  tool(name: string): RcpClientTool;
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
  /**
   * The caller's previous discovery of the same URL (by this client): reused as is while its
   * `Cache-Control: max-age` lasts, then revalidated with `If-None-Match` / `If-Modified-Since`
   * — a 304 keeps its tools. State the caller owns: the client keeps no cache. Pass the same
   * other options as for the previous discovery.
   * @default undefined (always fetch)
   * @example
   * ```ts
   * discovery = await client.discover(url, { previous: discovery });
   * ```
   */
  previous?: RcpDiscovery;
  /**
   * For this manifest, instead of the client's `trustedOrigins`: the extra origins that may
   * receive its tools' credentials and resolver values. Scope trust to the manifest it is for.
   * @default the client's `trustedOrigins`
   * @example
   * ```ts
   * await client.discover('https://learn.example.com/rcp/manifest', { trustedOrigins: ['https://api.learn-cdn.net'] });
   * ```
   */
  trustedOrigins?: readonly string[];
  /**
   * For this discovery, instead of the client's option: params that must be resolved
   * (see {@link RcpClientOptions.requireResolved}).
   * @default the client's `requireResolved`
   */
  requireResolved?: boolean | readonly string[];
  /**
   * For this discovery, instead of the client's option: params the model may fill
   * (see {@link RcpClientOptions.modelFilledParams}).
   * @default the client's `modelFilledParams`
   */
  modelFilledParams?: readonly string[];
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
 * An RCP client: discovers manifests and executes their tools. Created by {@link createRcpClient}.
 *
 * @example
 * ```ts
 * const client = createRcpClient({ resolvers: { learnerId: (ctx) => ctx.currentUserId } });
 * const { tools } = await client.discover('https://example.com/rcp/manifest');
 * const result = await client.execute(tools[0]!, { query: 'algebra' }, { currentUserId: 'u-1' });
 * ```
 */
/**
 * The arguments after `args` of `execute`, `prepare` and `call`: the call's context, then
 * options. The context may be left out only when `Context` accepts `undefined` (a client whose
 * resolvers read no typed context); otherwise it is required.
 *
 * @example
 * ```ts
 * type Rest = RcpContextArgs<{ userId: string }, [options?: RcpExecuteOptions]>; // [ctx: { userId: string }, options?]
 * ```
 */
export type RcpContextArgs<Context, Rest extends unknown[] = []> = undefined extends Context
  ? [ctx?: Context, ...rest: Rest]
  : [ctx: Context, ...rest: Rest];

/**
 * A source of tools for `client.call()`: a discovery, a list of its tools (a stage's subset),
 * or a tool set (`createToolSet`: several discoveries, namespaced names).
 *
 * @example
 * ```ts
 * const readOnly: RcpToolSource = discovery.tools.filter((tool) => tool.method === 'GET');
 * ```
 */
export type RcpToolSource = RcpDiscovery | readonly RcpClientTool[] | RcpToolSet;

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
  prepare(tool: RcpClientTool, args: unknown, ...rest: RcpContextArgs<Context>): Promise<RcpPreparedRequest>;
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
  execute(
    tool: RcpClientTool,
    args: unknown,
    ...rest: RcpContextArgs<Context, [options?: RcpExecuteOptions]>
  ): Promise<RcpExecuteResult>;
  /**
   * Runs a model's tool call by name: finds the tool in `source`, takes `arguments` as an
   * object or a JSON string, and executes it. It does not throw for anything the call itself
   * runs into — an unknown name, bad arguments, a resolver with no value, an HTTP error — but
   * returns it as `{ ok: false, error }`; only a non-RCP error (a bug) is thrown. Hand the
   * outcome to `toModelResult` for what the model may read.
   *
   * @example
   * ```ts
   * const outcome = await client.call(discovery, { name: 'get_note', arguments: '{"noteId":"n-1"}' }, ctx);
   * messages.push({ role: 'tool', content: JSON.stringify(toModelResult(outcome)) });
   * ```
   */
  call(
    source: RcpToolSource,
    toolCall: RcpToolCall,
    ...rest: RcpContextArgs<Context, [options?: RcpExecuteOptions]>
  ): Promise<RcpCallOutcome>;
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
    // The operator's fetch when given (a ky instance works), otherwise the platform's transport:
    // undici's request() on Node, fetch elsewhere (chosen by the package's `#transport` import).
    transport: resolved.fetch !== undefined ? createFetchTransport(resolved.fetch) : createPlatformTransport(),
    headers: { ...resolved.headers },
  });
  const owner = Object.freeze({});
  /** The guarded transports of this client, by the class of the manifest host they serve. */
  const guardedTransports = new Map<string, Transport>();
  /** The discoveries this client made: only they may be reused as `previous`. */
  const previousOf = new WeakSet<RcpDiscovery>();

  async function discover(manifestUrl: string | URL, discoverOptions: RcpDiscoverOptions = {}): Promise<RcpDiscovery> {
    const url = parseManifestUrl(manifestUrl);
    const trustOptions = {
      manifestUrl: url.href,
      // Per manifest: a discover call's own list replaces the client's for this manifest.
      trustedOrigins: discoverOptions.trustedOrigins ?? resolved.trustedOrigins,
      ...(resolved.allowOrigin !== undefined && { allowOrigin: resolved.allowOrigin }),
    };
    let policy = createTrustPolicy(trustOptions);
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
    // Rediscovery: the caller's previous discovery of the same URL is reused while fresh, and
    // revalidated (If-None-Match / If-Modified-Since) after.
    const previous = discoverOptions.previous;
    const reusable = previous !== undefined && previous.manifestUrl === url.href && previousOf.has(previous) ? previous : undefined;
    if (reusable !== undefined && reusable.cache.freshUntil > Date.now()) return reusable;
    const fetched = await fetchManifestJson(send, url, {
      maxManifestBytes: resolved.maxManifestBytes,
      isRedirectAllowed,
      ...(discoverOptions.signal !== undefined && { signal: discoverOptions.signal }),
      ...(reusable !== undefined && { previous: reusable.cache }),
    });
    if ('notModified' in fetched) {
      const revalidated: RcpDiscovery = Object.freeze({ ...reusable!, cache: Object.freeze(fetched.cache) });
      previousOf.add(revalidated);
      return revalidated;
    }
    const json = fetched.json;
    const parsed = safeParseManifest(json, { maxTools: resolved.maxManifestTools });
    if (!parsed.ok) throw parsed.error;
    const { manifest, warnings: manifestWarnings } = parsed;
    // Site trust (an https: origin of the manifest's registrable domain) needs the Public Suffix
    // List: loaded only when a tool is on another origin that is not trusted already.
    if (url.protocol === 'https:' && manifest.tools.some((tool) => needsSiteTrust(tool.url, policy))) {
      policy = createTrustPolicy({ ...trustOptions, siteOf: await loadSiteLookup() });
    }

    const boundary = createNetworkBoundary(url, {
      allowPrivateNetwork: resolved.allowPrivateNetwork,
      classifyAddress: resolved.classifyAddress,
    });
    // With the platform's transport, every connection of this manifest's tools is checked again
    // at connect time, on the address the host name resolved to (on Node; elsewhere nothing can).
    // One guarded transport (and its connection pool) per class of manifest host, for the
    // client's lifetime: the rule depends on nothing else of the manifest.
    let guarded = guardedTransports.get(boundary.manifestClass);
    if (guarded === undefined && resolved.fetch === undefined) {
      guarded = createPlatformTransport((host, address) => boundary.addressRefusal(host, address));
      guardedTransports.set(boundary.manifestClass, guarded);
    }
    const decisions = new Map<string, { trusted: boolean; allowed: boolean; refusal: string | undefined }>();
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
          decision = { trusted: policy.isTrusted(origin), allowed, refusal: boundary.refusal(new URL(origin)) };
          decisions.set(origin, decision);
        }
        return decision;
      },
      isAllowed,
      isRedirectAllowed,
      sharedAuth: new Map(),
      ...(guarded !== undefined && { transport: guarded }),
      bindings: {
        resolverNames: Object.keys(resolved.resolvers),
        requireResolved: checkRequireResolved(discoverOptions.requireResolved, resolved.requireResolved),
        modelFilledParams: checkModelFilledParams(discoverOptions.modelFilledParams, resolved.modelFilledParams),
      },
    };
    const warnings: RcpDiscoveryWarning[] = manifestWarnings.map((warning) =>
      Object.freeze({ path: warning.path, message: warning.message }),
    );
    const tools = manifest.tools.map((source, index) => {
      const compiled = compileTool(source, index, context);
      for (const { path, message } of compiled.warnings) warnings.push(Object.freeze({ path, message, tool: source.name }));
      return compiled.tool;
    });
    const frozenTools = Object.freeze(tools);
    const discovery: RcpDiscovery = Object.freeze({
      manifestUrl: url.href,
      manifest,
      tools: frozenTools,
      warnings: Object.freeze(warnings),
      cache: Object.freeze(fetched.cache),
      tool: (name: string) => findEntry(entriesOf(frozenTools), name).tool,
    });
    previousOf.add(discovery);
    return discovery;
  }

  /**
   * Steps 1–4 within the call's one deadline: resolvers and the credentials provider that do not
   * answer in time are `RCP_TIMEOUT` (nothing is sent), the caller's signal ends the wait.
   */
  async function buildWithinDeadline(
    compiled: CompiledTool,
    tool: RcpClientTool,
    args: unknown,
    ctx: Context | undefined,
    signal: AbortSignal | undefined,
  ): Promise<BuiltRequest> {
    const building = buildRequest(compiled, tool, args, ctx);
    if (!(building instanceof Promise)) return building;
    building.catch(() => {}); // a late rejection is not an unhandled one
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const limit = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        reject(
          new RcpError(
            'RCP_TIMEOUT',
            `Tool "${tool.name}": the resolvers and the credentials provider did not answer within ${resolved.timeout} ms; nothing was sent`,
          ),
        );
      }, resolved.timeout);
      if (signal !== undefined) {
        onAbort = () => reject(aborted(signal));
        signal.addEventListener('abort', onAbort, { once: true });
      }
    });
    try {
      return await Promise.race([building, limit]);
    } finally {
      clearTimeout(timer);
      if (onAbort !== undefined) signal!.removeEventListener('abort', onAbort);
    }
  }

  async function prepare(tool: RcpClientTool, args: unknown, ctx?: Context): Promise<RcpPreparedRequest> {
    const compiled = compiledToolOf(tool, owner);
    const built = await buildWithinDeadline(compiled, tool, args, ctx, undefined);
    const headers = { ...built.request.headers };
    if (built.credential !== undefined && compiled.auth!.auth.type === 'header') headers[compiled.auth!.auth.name] = compiled.auth!.prefix + REDACTED;
    const prepared: RcpPreparedRequest = { method: built.request.method, url: built.shownUrl, headers };
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
    const started = performance.now();
    const observer = observeCall(resolved.hooks, resolved.tracer, tool, started);
    try {
      const result = await run(compiled, tool, args, ctx, executeOptions, started, observer);
      observer?.end();
      return result;
    } catch (error) {
      const code = isRcpError(error) ? error.code : 'UNKNOWN_ERROR';
      observer?.emit('onError', { code });
      observer?.end(code);
      throw error;
    }
  }

  async function run(
    compiled: CompiledTool,
    tool: RcpClientTool,
    args: unknown,
    ctx: Context | undefined,
    executeOptions: RcpExecuteOptions | undefined,
    started: number,
    observer: CallObserver | undefined,
    retried = false,
  ): Promise<RcpExecuteResult> {
    const signal = executeOptions?.signal;
    if (signal?.aborted) throw aborted(signal);
    const built = await buildWithinDeadline(compiled, tool, args, ctx, signal);
    if (signal?.aborted) throw aborted(signal);
    // One deadline for the whole call: what the resolvers used is no longer the request's.
    const remaining = Math.max(1, Math.round(resolved.timeout - (performance.now() - started)));
    const call: SendCallOptions = { isRedirectAllowed: compiled.isRedirectAllowed, accept: ACCEPT, timeout: remaining };
    if (compiled.transport !== undefined) call.transport = compiled.transport;
    if (observer !== undefined) call.observer = observer;
    if (signal !== undefined) call.signal = signal;
    if (built.secrets !== undefined) call.secrets = built.secrets;
    try {
      return respond(tool, compiled, await send(built.request, call));
    } catch (error) {
      // A 401 the operator's `onUnauthorized` answers `true` to: built again and sent once more.
      if (!retried && (await retriesAfterUnauthorized(resolved.onUnauthorized, error, compiled, tool, ctx, built.credential, remaining))) {
        return run(compiled, tool, args, ctx, executeOptions, started, observer, true);
      }
      // Everything built from server-controlled text leaves through the one redaction routine.
      throw redactError(error, built.secrets?.());
    }
  }

  /** Steps 7 and after: decode, refuse what must not pass for data, map. */
  function respond(tool: RcpClientTool, compiled: CompiledTool, result: SendResult): RcpExecuteResult {
    const decoded = decodeResponse(result);
    if (result.body.byteLength === 0) {
      // An empty body (204, Content-Length: 0) is "no data", whatever its type says.
      return { status: result.status, data: null, contentType: decoded.contentType };
    }
    if (!resolved.allowHtmlResponses && isHtmlMediaType(decoded.contentType)) {
      throw new RcpError(
        'RCP_INVALID_RESPONSE',
        `Tool "${tool.name}" was answered with an HTML page (${mediaTypeLabel(decoded.contentType)}), not data: ` +
          `a login wall or a proxy's error page? (set "allowHtmlResponses" to accept HTML as text)`,
      );
    }
    let data = decoded.data;
    if (compiled.mappings !== undefined) {
      if (!isJsonMediaType(decoded.contentType)) {
        throw new RcpError(
          'RCP_INVALID_RESPONSE',
          `Tool "${tool.name}" has responseMappings but the response is not JSON (${mediaTypeLabel(decoded.contentType)})`,
        );
      }
      data = compiled.mappings.apply(data);
    }
    return { status: result.status, data, contentType: decoded.contentType };
  }

  async function call(
    source: RcpToolSource,
    toolCall: RcpToolCall,
    ctx?: Context,
    executeOptions?: RcpExecuteOptions,
  ): Promise<RcpCallOutcome> {
    const entries = entriesOfSource(source);
    let tool: RcpClientTool | undefined;
    try {
      const name: unknown = typeof toolCall === 'object' && toolCall !== null ? toolCall.name : undefined;
      tool = findEntry(entries, typeof name === 'string' ? name : '').tool;
      const result = await execute(tool, toolCall.arguments, ctx, executeOptions);
      return Object.freeze({ ok: true as const, tool, result });
    } catch (error) {
      if (!isRcpError(error)) throw error;
      return Object.freeze({ ok: false as const, tool, error });
    }
  }

  return Object.freeze({ discover, prepare, execute, call }) as RcpClient<Context>;
}

/** Each tool under its own name. */
function entriesOf(tools: readonly RcpClientTool[]): readonly RcpToolSetEntry[] {
  return tools.map((tool) => ({ name: tool.name, tool }));
}

/** The named tools of a call's source (`RCP_INVALID_OPTIONS` for anything else). */
function entriesOfSource(source: RcpToolSource): readonly RcpToolSetEntry[] {
  if (isToolSet(source)) return source.entries;
  if (Array.isArray(source)) return entriesOf(source);
  const tools = typeof source === 'object' && source !== null ? (source as RcpDiscovery).tools : undefined;
  if (!Array.isArray(tools)) {
    throw new RcpError(
      'RCP_INVALID_OPTIONS',
      'client.call() needs a discovery (from client.discover), a list of its tools, or a tool set',
    );
  }
  return entriesOf(tools);
}

/** Whether a tool URL is absolute, on an origin the policy does not trust without a site lookup. */
function needsSiteTrust(toolUrl: string, policy: TrustPolicy): boolean {
  if (!toolUrl.startsWith('https://')) return false;
  try {
    return !policy.isTrusted(new URL(toolUrl).origin);
  } catch {
    return false; // validation already refused what does not parse
  }
}
