/**
 * Trust and boundary, decided at discovery for each manifest: which origins may receive the
 * credential and resolver values (`trust.ts`: the manifest's origin, `trustedOrigins`, its site
 * over https), the operator's `allowOrigin` failing closed (`manifest-trust.ts`), and the
 * private-network boundary (`network-boundary.ts`, `address-class.ts`), checked again at connect
 * time on Node.
 */
import { RcpError } from 'rcp-errors';

/** What the trust policy is built from: the manifest's URL and the operator's options. */
export interface TrustPolicyOptions {
  /** Absolute http(s) URL the manifest was fetched from. */
  manifestUrl: string;
  /** Extra exact origins that may receive secrets (normalised here; see {@link normalizeOrigins}). */
  trustedOrigins?: readonly string[];
  /** The operator's policy for every outgoing request (SSRF guard). */
  allowOrigin?: (url: URL) => boolean;
  /**
   * The registrable domain (site) of a host name, from the Public Suffix List
   * ({@link loadSiteLookup}). Without it no other origin is trusted by site: only the manifest's
   * own origin and `trustedOrigins` (failing closed).
   */
  siteOf?: SiteLookup;
}

/** A host name's registrable domain, or undefined (an IP address, a public suffix itself). */
export type SiteLookup = (hostname: string) => string | undefined;

/** Decisions about where a request may go. Built once per discovered manifest. */
export interface TrustPolicy {
  /**
   * True when credentials and resolver values may be sent to `url`: its origin is the
   * manifest's origin, one of `trustedOrigins`, or — for an `https:` manifest only — an
   * `https:` origin of the same registrable domain (site) as the manifest.
   */
  isTrusted(url: string | URL): boolean;
  /**
   * True when any request may go to `url`: http(s) only, and the operator's `allowOrigin`
   * (when given) accepts it. An exception thrown by `allowOrigin` propagates.
   */
  isAllowed(url: string | URL): boolean;
}

/** Decisions are cached per origin; the cache is cleared when it grows past this many entries. */
const MAX_CACHED_ORIGINS = 1_000;

function parseUrl(url: string | URL): URL | undefined {
  if (url instanceof URL) return url;
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

function isHttp(url: URL): boolean {
  return url.protocol === 'https:' || url.protocol === 'http:';
}

function invalidOrigin(option: string, index: number, entry: unknown, reason: string, cause?: unknown): RcpError<'RCP_INVALID_OPTIONS'> {
  // Never quote user info (a password in the URL): `https://u:pw@host` is shown as `https://host`.
  const safe = typeof entry === 'string' ? entry.replace(/^([^:/?#]*:\/\/)[^/?#]*@/, '$1') : entry;
  const shown = typeof safe === 'string' ? JSON.stringify(safe.length > 100 ? `${safe.slice(0, 100)}…` : safe) : typeof entry;
  return new RcpError(
    'RCP_INVALID_OPTIONS',
    `${option}[${index}] (${shown}) ${reason}; expected an origin such as "https://api.example.com"`,
    cause === undefined ? {} : { cause },
  );
}

/**
 * Validates and normalises a list of origins (`https://api.example.com`, optionally with a
 * port and a single trailing `/`). Each must be an absolute http(s) URL with nothing after the
 * authority: no path, query, fragment or user info. Returns each entry's serialised origin
 * (lower-cased host, default port dropped, IDN in punycode), without duplicates.
 * Throws `RCP_INVALID_OPTIONS` naming the first bad entry.
 */
export function normalizeOrigins(origins: readonly string[], option = 'trustedOrigins'): string[] {
  const out = new Set<string>();
  origins.forEach((entry: unknown, index) => {
    if (typeof entry !== 'string') throw invalidOrigin(option, index, entry, 'is not a string');
    let url: URL;
    try {
      url = new URL(entry);
    } catch (error) {
      throw invalidOrigin(option, index, entry, 'is not an absolute URL', error);
    }
    if (!isHttp(url)) throw invalidOrigin(option, index, entry, 'must use http or https');
    if (url.username !== '' || url.password !== '') throw invalidOrigin(option, index, entry, 'must not contain user info');
    if (url.hostname.includes('*')) throw invalidOrigin(option, index, entry, 'must name one host (wildcards are not supported)');
    if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || /[?#]/.test(entry)) {
      throw invalidOrigin(option, index, entry, 'must be an origin only (no path, query or fragment)');
    }
    out.add(url.origin);
  });
  return [...out];
}

/**
 * Builds the trust policy for one manifest. A manifest never widens trust: only the
 * manifest's own origin, its registrable domain and the operator's `trustedOrigins` count.
 * Throws `RCP_INVALID_OPTIONS` when `manifestUrl` is not an absolute http(s) URL or an entry of
 * `trustedOrigins` is not an origin.
 */
export function createTrustPolicy(options: TrustPolicyOptions): TrustPolicy {
  const manifest = parseUrl(options.manifestUrl);
  if (manifest === undefined || !isHttp(manifest)) {
    throw new RcpError('RCP_INVALID_OPTIONS', 'The manifest URL must be an absolute http(s) URL');
  }
  const manifestOrigin = manifest.origin;
  const manifestScheme = manifest.protocol;
  const siteOf = options.siteOf;
  const manifestSite = siteOf?.(manifest.hostname);
  const trustedOrigins = new Set(normalizeOrigins(options.trustedOrigins ?? []));
  const allowOrigin = options.allowOrigin;
  const cache = new Map<string, boolean>();

  function decide(url: URL): boolean {
    const origin = url.origin;
    if (origin === manifestOrigin || trustedOrigins.has(origin)) return true;
    // Cleartext: a manifest fetched over http: extends trust to nothing beyond its own origin
    // (anyone on the path could have written it, and secrets would cross hosts unencrypted).
    if (manifestSite === undefined || manifestScheme === 'http:') return false;
    if (url.protocol !== 'https:') return false;
    return siteOf!(url.hostname) === manifestSite;
  }

  return {
    isTrusted(input) {
      const url = parseUrl(input);
      if (url === undefined || !isHttp(url)) return false;
      const origin = url.origin;
      let trusted = cache.get(origin);
      if (trusted === undefined) {
        trusted = decide(url);
        if (cache.size >= MAX_CACHED_ORIGINS) cache.clear();
        cache.set(origin, trusted);
      }
      return trusted;
    },
    isAllowed(input) {
      const url = parseUrl(input);
      if (url === undefined || !isHttp(url)) return false;
      if (allowOrigin === undefined) return true;
      // A copy: the operator's callback cannot change the URL the caller goes on to use.
      return allowOrigin(new URL(url.href)) === true;
    },
  };
}

/**
 * Loads the Public Suffix List (tldts, about 130 KB minified) — only when a manifest has a tool on
 * another origin that is not in `trustedOrigins`, so a bundle carries it as a lazy chunk.
 * Private suffixes count: `a.github.io` and `b.github.io` are different sites.
 *
 * @example
 * ```ts
 * const siteOf = await loadSiteLookup();
 * siteOf('api.example.co.uk'); // 'example.co.uk'
 * ```
 */
export async function loadSiteLookup(): Promise<SiteLookup> {
  const { getDomain } = await import('tldts');
  return (hostname) => getDomain(hostname, { allowPrivateDomains: true }) ?? undefined;
}
