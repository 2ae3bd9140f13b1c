/**
 * Discovery: a manifest fetched (`discover`, with rediscovery by the HTTP caching rules) or
 * handed over (`load`), then validated, judged (trust, `allowOrigin`, the private-network
 * boundary) and compiled, tool by tool, once. What it returns is all `execute` needs.
 */
import { RcpError } from 'rcp-errors';
import { safeParseManifest } from 'rcp-manifest';
import type { RcpClientTool } from '../../client-tool';
import type { RcpDiscoverOptions, RcpDiscovery, RcpDiscoveryWarning, RcpLoadOptions } from '../../client-types';
import { findEntry, type RcpToolSetEntry } from '../../tool-set';
import type { AddressClass } from '../trust/address-class';
import { bindingRules } from './check-binding';
import { compileTool } from './compile-tool';
import { createWarningReporter } from '../options/report-warnings';
import { fetchManifestJson, parseManifestUrl } from './fetch-manifest';
import { createNetworkBoundary } from '../trust/network-boundary';
import { checkModelFilledParams, checkRequireResolved, type ResolvedClientOptions } from '../options/resolve-options';
import type { Sender } from '../send/send';
import type { Transport } from '../send/transport-types';
import { createTrustPolicy, loadSiteLookup, type TrustPolicy } from '../trust/trust';

/** What discovery needs from the client that owns it. */
export interface DiscoveryContext {
  readonly options: ResolvedClientOptions;
  readonly send: Sender;
  /** The client's identity: its compiled tools are refused by any other client. */
  readonly owner: object;
  /**
   * The transport that checks each connection's address for a manifest of this class (one per
   * class, for the client's lifetime), or undefined when the operator's `fetch` moves the bytes.
   */
  guardedTransport(manifestClass: AddressClass, check: (host: string, address: string) => string | undefined): Transport | undefined;
}

/** The client's `discover` and `load`. */
export function createDiscovery(client: DiscoveryContext) {
  const resolved = client.options;
  const { send, owner } = client;
  /** The discoveries this client made: only they may be reused as `previous`. */
  const previousOf = new WeakSet<RcpDiscovery>();
  /** Each distinct warning goes to the operator's `onWarning` once for this client. */
  const reportWarnings = createWarningReporter(resolved.onWarning);

  /** The trust policy of one manifest, and its `allowOrigin` check failing closed. */
  function trustFor(url: URL, trustedOrigins: readonly string[] | undefined) {
    const trustOptions = {
      manifestUrl: url.href,
      // Per manifest: a discover call's own list replaces the client's for this manifest.
      trustedOrigins: trustedOrigins ?? resolved.trustedOrigins,
      ...(resolved.allowOrigin !== undefined && { allowOrigin: resolved.allowOrigin }),
    };
    const policy = createTrustPolicy(trustOptions);
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
    return { trustOptions, policy, isAllowed };
  }

  async function discover(manifestUrl: string | URL, discoverOptions: RcpDiscoverOptions = {}): Promise<RcpDiscovery> {
    const url = parseManifestUrl(manifestUrl);
    const trust = trustFor(url, discoverOptions.trustedOrigins);
    // Rediscovery: the caller's previous discovery of the same URL is reused while fresh, and
    // revalidated (If-None-Match / If-Modified-Since) after.
    const previous = discoverOptions.previous;
    const reusable = previous !== undefined && previous.manifestUrl === url.href && previousOf.has(previous) ? previous : undefined;
    if (reusable !== undefined && reusable.cache.freshUntil > Date.now()) return reusable;
    const fetched = await fetchManifestJson(send, url, {
      maxManifestBytes: resolved.maxManifestBytes,
      isRedirectAllowed: trust.isAllowed,
      ...(discoverOptions.signal !== undefined && { signal: discoverOptions.signal }),
      ...(reusable !== undefined && { previous: reusable.cache }),
    });
    if ('notModified' in fetched) {
      const revalidated: RcpDiscovery = Object.freeze({ ...reusable!, cache: Object.freeze(fetched.cache) });
      previousOf.add(revalidated);
      return revalidated;
    }
    return compileDiscovery(url, fetched.json, fetched.cache, discoverOptions, trust, undefined);
  }

  async function load(manifest: unknown, loadOptions: RcpLoadOptions): Promise<RcpDiscovery> {
    if (typeof loadOptions !== 'object' || loadOptions === null) {
      throw new RcpError('RCP_INVALID_OPTIONS', 'client.load() needs options: { manifestUrl }');
    }
    const url = parseManifestUrl(loadOptions.manifestUrl);
    const { sourceClass } = loadOptions;
    if (sourceClass !== undefined && sourceClass !== 'public' && sourceClass !== 'private' && sourceClass !== 'local') {
      throw new RcpError('RCP_INVALID_OPTIONS', 'Option "sourceClass" must be "public", "private" or "local"');
    }
    const trust = trustFor(url, loadOptions.trustedOrigins);
    let json = manifest;
    if (typeof manifest === 'string') {
      try {
        json = JSON.parse(manifest) as unknown;
      } catch (error) {
        // The parser's message quotes the text around the error: the cause keeps only the position.
        const position = /position (\d+)/.exec(String((error as Error).message))?.[1];
        throw new RcpError('RCP_INVALID_MANIFEST', 'The manifest text is not JSON', {
          cause: new SyntaxError(position === undefined ? 'Invalid JSON' : `Invalid JSON at position ${position}`),
        });
      }
    }
    return compileDiscovery(url, json, { freshUntil: 0 }, loadOptions, trust, sourceClass);
  }

  /** Validation, the trust and boundary decisions, and every tool compiled: a discovery. */
  async function compileDiscovery(
    url: URL,
    json: unknown,
    cache: RcpDiscovery['cache'],
    discoverOptions: Pick<RcpDiscoverOptions, 'requireResolved' | 'modelFilledParams'>,
    trust: ReturnType<typeof trustFor>,
    sourceClass: AddressClass | undefined,
  ): Promise<RcpDiscovery> {
    const { trustOptions, isAllowed } = trust;
    let { policy } = trust;
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
      ...(sourceClass !== undefined && { manifestClass: sourceClass }),
    });
    // With the platform's transport, every connection of this manifest's tools is checked again
    // at connect time, on the address the host name resolved to (on Node; elsewhere nothing can).
    // One guarded transport (and its connection pool) per class of manifest host, for the
    // client's lifetime: the rule depends on nothing else of the manifest.
    const guarded = client.guardedTransport(boundary.manifestClass, (host, address) => boundary.addressRefusal(host, address));
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
      isRedirectAllowed: isAllowed,
      sharedAuth: new Map(),
      ...(guarded !== undefined && { transport: guarded }),
      bindings: bindingRules({
        resolverNames: Object.keys(resolved.resolvers),
        requireResolved: checkRequireResolved(discoverOptions.requireResolved, resolved.requireResolved),
        modelFilledParams: checkModelFilledParams(discoverOptions.modelFilledParams, resolved.modelFilledParams),
      }),
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
      cache: Object.freeze(cache),
      tool: (name: string) => findEntry(entriesOf(frozenTools), name).tool,
    });
    previousOf.add(discovery);
    reportWarnings(discovery.manifestUrl, discovery.warnings);
    return discovery;
  }

  return { discover, load };
}

/** Each tool under its own name. */
export function entriesOf(tools: readonly RcpClientTool[]): readonly RcpToolSetEntry[] {
  return tools.map((tool) => ({ name: tool.name, tool }));
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
