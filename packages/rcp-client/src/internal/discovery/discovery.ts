/**
 * Discovery: a manifest fetched (`discover`, with rediscovery by the HTTP caching rules) or
 * handed over (`load`), then validated, judged (trust, `allowOrigin`, the private-network
 * boundary: `trust/`) and compiled, tool by tool, once (`compile-discovery.ts`,
 * `compile-tool.ts`). What it returns is all `execute` needs: each tool carries its compiled
 * internals (`tool-registry.ts`).
 */
import { RcpError } from 'rcp-errors';
import type { RcpDiscoverOptions, RcpDiscovery, RcpLoadOptions } from '../../client-types';
import type { ResolvedClientOptions } from '../options/resolve-options';
import { createWarningReporter } from '../options/report-warnings';
import type { Sender } from '../send/send';
import type { Transport } from '../send/transport-types';
import type { AddressClass } from '../trust/address-class';
import { manifestTrust } from '../trust/manifest-trust';
import { compileDiscovery, type CompileOptions } from './compile-discovery';
import { fetchManifestJson, parseManifestUrl } from './fetch-manifest';

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
  /** The discoveries this client made: only they may be reused as `previous`. */
  const previousOf = new WeakSet<RcpDiscovery>();
  /** Each distinct warning goes to the operator's `onWarning` once for this client. */
  const reportWarnings = createWarningReporter(resolved.onWarning);

  /** A discovery of this client: remembered (it may be reused as `previous`), its warnings reported. */
  async function made(compiling: Promise<RcpDiscovery>): Promise<RcpDiscovery> {
    const discovery = await compiling;
    previousOf.add(discovery);
    reportWarnings(discovery.manifestUrl, discovery.warnings);
    return discovery;
  }

  async function discover(manifestUrl: string | URL, discoverOptions: RcpDiscoverOptions = {}): Promise<RcpDiscovery> {
    const url = parseManifestUrl(manifestUrl);
    const trust = manifestTrust(resolved, url, discoverOptions.trustedOrigins);
    // Rediscovery: the caller's previous discovery of the same URL is reused while fresh, and
    // revalidated (If-None-Match / If-Modified-Since) after.
    const previous = discoverOptions.previous;
    const reusable = previous !== undefined && previous.manifestUrl === url.href && previousOf.has(previous) ? previous : undefined;
    if (reusable !== undefined && reusable.cache.freshUntil > Date.now()) return reusable;
    const fetched = await fetchManifestJson(client.send, url, {
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
    return made(compileDiscovery(client, url, fetched.json, fetched.cache, discoverOptions, trust, undefined));
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
    const trust = manifestTrust(resolved, url, loadOptions.trustedOrigins);
    const json = typeof manifest === 'string' ? parseManifestText(manifest) : manifest;
    const compileOptions: CompileOptions = loadOptions;
    return made(compileDiscovery(client, url, json, { freshUntil: 0 }, compileOptions, trust, sourceClass));
  }

  return { discover, load };
}

/** A manifest handed over as text: its JSON, or `RCP_INVALID_MANIFEST` (the cause keeps only the error's position). */
function parseManifestText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    // The parser's message quotes the text around the error: the cause keeps only the position.
    const position = /position (\d+)/.exec(String((error as Error).message))?.[1];
    throw new RcpError('RCP_INVALID_MANIFEST', 'The manifest text is not JSON', {
      cause: new SyntaxError(position === undefined ? 'Invalid JSON' : `Invalid JSON at position ${position}`),
    });
  }
}
