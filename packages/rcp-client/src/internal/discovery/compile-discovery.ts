import { prepareManifest, safeParseManifest, type RcpManifest } from 'rcp-manifest';
import type { RcpDiscoverOptions, RcpDiscovery, RcpDiscoveryWarning } from '../../client-types';
import { findEntry } from '../../tool-set';
import { checkModelFilledParams, checkRequireResolved } from '../options/resolve-options';
import type { AddressClass } from '../trust/address-class';
import type { ManifestTrust } from '../trust/manifest-trust';
import { createNetworkBoundary } from '../trust/network-boundary';
import { createTrustPolicy, loadSiteLookup, type TrustPolicy } from '../trust/trust';
import { bindingRules } from './check-binding';
import { compileTool, type ToolCompilationContext } from './compile-tool';
import type { DiscoveryContext } from './discovery';
import { entriesOf } from './entries';

/** The discover or load options that shape compilation. */
export type CompileOptions = Pick<RcpDiscoverOptions, 'requireResolved' | 'modelFilledParams'>;

/** Validation, the trust and boundary decisions, and every tool compiled, once: a discovery. */
export async function compileDiscovery(
  client: DiscoveryContext,
  url: URL,
  json: unknown,
  cache: RcpDiscovery['cache'],
  compileOptions: CompileOptions,
  trust: ManifestTrust,
  sourceClass: AddressClass | undefined,
): Promise<RcpDiscovery> {
  // What validation needs beyond rcp-manifest itself (the JSONPath filter engine, for a filter
  // selector) is loaded first and handed on: in browsers and bundles there is no synchronous load.
  const prepared = await prepareManifest(json);
  const parsed = safeParseManifest(json, { maxTools: client.options.maxManifestTools, ...prepared });
  if (!parsed.ok) throw parsed.error;
  const { manifest, warnings: manifestWarnings } = parsed;
  const context = { ...(await toolContext(client, url, manifest, compileOptions, trust, sourceClass)), prepared };
  const warnings: RcpDiscoveryWarning[] = manifestWarnings.map((warning) =>
    Object.freeze({ path: warning.path, message: warning.message, cause: 'manifest' as const }),
  );
  const tools = manifest.tools.map((source, index) => {
    const compiled = compileTool(source, index, context);
    for (const { path, message, cause } of compiled.warnings) warnings.push(Object.freeze({ path, message, tool: source.name, cause }));
    return compiled.tool;
  });
  const frozenTools = Object.freeze(tools);
  return Object.freeze({
    manifestUrl: url.href,
    manifest,
    tools: frozenTools,
    warnings: Object.freeze(warnings),
    cache: Object.freeze(cache),
    tool: (name: string) => findEntry(entriesOf(frozenTools), name).tool,
  });
}

/** What every tool of one manifest is compiled with: its trust, boundary and binding rules, decided once per origin. */
async function toolContext(
  client: DiscoveryContext,
  url: URL,
  manifest: RcpManifest,
  compileOptions: CompileOptions,
  trust: ManifestTrust,
  sourceClass: AddressClass | undefined,
): Promise<ToolCompilationContext> {
  const resolved = client.options;
  const { trustOptions, isAllowed } = trust;
  let { policy } = trust;
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
  const decide = (origin: string) => {
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
  };
  return {
    owner: client.owner,
    manifestUrl: url.href,
    manifestOrigin: url.origin,
    serverAuth: manifest.auth ?? { type: 'none' as const },
    ...(manifest.groups !== undefined && {
      groups: new Map(manifest.groups.map((group) => [group.name, Object.freeze({ name: group.name, description: group.description ?? '' })])),
    }),
    options: resolved,
    decide,
    isAllowed,
    isRedirectAllowed: isAllowed,
    sharedAuth: new Map(),
    urlPrefixes: new Map(),
    ...(guarded !== undefined && { transport: guarded }),
    bindings: bindingRules({
      resolverNames: Object.keys(resolved.resolvers),
      requireResolved: checkRequireResolved(compileOptions.requireResolved, resolved.requireResolved),
      modelFilledParams: checkModelFilledParams(compileOptions.modelFilledParams, resolved.modelFilledParams),
    }),
  };
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
