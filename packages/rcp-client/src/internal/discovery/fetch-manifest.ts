import { RcpError, isRcpError } from 'rcp-errors';
import { decodeResponse } from '../respond/decode-response';
import type { Sender } from '../send/send';
import type { ResponseHeaders } from '../send/transport-types';
import { isJsonMediaType } from '../respond/media-type';

function discoveryFailed(message: string, cause?: unknown): RcpError<'RCP_DISCOVERY_FAILED'> {
  return new RcpError('RCP_DISCOVERY_FAILED', message, cause === undefined ? {} : { cause });
}

/** What a message may show of a manifest URL: never its query, which may carry a key. */
function shown(url: URL): string {
  return url.origin + url.pathname;
}

/**
 * Parses the URL given to `discover`: absolute http(s), no userinfo; the fragment is dropped.
 * Anything else is `RCP_DISCOVERY_FAILED` (nothing is fetched).
 */
export function parseManifestUrl(input: unknown): URL {
  let url: URL;
  try {
    if (typeof input !== 'string' && !(input instanceof URL)) throw new TypeError('not a string or URL');
    url = new URL(String(input));
  } catch (error) {
    throw discoveryFailed('The manifest URL must be an absolute http(s) URL', error);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw discoveryFailed(`The manifest URL must use http or https, not ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw discoveryFailed('The manifest URL must not contain a user name or password');
  }
  url.hash = '';
  return url;
}

/** The validators and freshness of a fetched manifest (HTTP caching, RFC 9111). */
export interface ManifestCacheInfo {
  /** The `ETag`, sent back as `If-None-Match`. */
  readonly etag?: string;
  /** The `Last-Modified`, sent back as `If-Modified-Since`. */
  readonly lastModified?: string;
  /** Until when (epoch ms) the manifest may be reused without asking (`Cache-Control: max-age`); 0 when not at all. */
  readonly freshUntil: number;
}

/** A fetched manifest, or word that the previous one still stands (304). */
export type FetchedManifest = { readonly json: unknown; readonly cache: ManifestCacheInfo } | { readonly notModified: true; readonly cache: ManifestCacheInfo };

/**
 * How long a response stays fresh, in seconds, by RFC 9111 §4.2: its `max-age` (the directive a
 * private cache reads; `s-maxage` is for shared caches) less its current age (§4.2.3: the `Age`
 * header, what a CDN already held it for). `no-cache`, `no-store`, no `max-age`, or an age past
 * it: 0. `Expires` is not read: a manifest server that wants reuse says `max-age`.
 */
function freshnessSeconds(headers: ResponseHeaders): number {
  const cacheControl = headers.get('cache-control');
  if (cacheControl === null || /(^|,)\s*(no-cache|no-store)\s*(=|,|$)/i.test(cacheControl)) return 0;
  const match = /(?:^|,)\s*max-age\s*=\s*"?(\d{1,9})"?\s*(?:,|$)/i.exec(cacheControl);
  if (match === null) return 0;
  const age = /^\s*(\d{1,9})\s*$/.exec(headers.get('age') ?? '');
  return Math.max(0, Number(match[1]) - (age === null ? 0 : Number(age[1])));
}

function cacheInfo(headers: ResponseHeaders, previous: ManifestCacheInfo | undefined): ManifestCacheInfo {
  const etag = headers.get('etag') ?? previous?.etag;
  const lastModified = headers.get('last-modified') ?? previous?.lastModified;
  return {
    ...(etag !== undefined && etag !== null && { etag }),
    ...(lastModified !== undefined && lastModified !== null && { lastModified }),
    freshUntil: Date.now() + freshnessSeconds(headers) * 1_000,
  };
}

/**
 * GETs the manifest (Accept: application/json, at most `maxManifestBytes`) and parses it as
 * JSON. With `previous` validators it asks conditionally (`If-None-Match`, `If-Modified-Since`)
 * and a 304 says the previous manifest stands. Any failure on the wire is
 * `RCP_DISCOVERY_FAILED` with the transport error as `cause`, except an abort by the caller,
 * which stays `RCP_ABORTED`. The Content-Type is not required to be JSON (static hosts often
 * serve `.json` as text/plain), but the body must be.
 */
export async function fetchManifestJson(
  send: Sender,
  url: URL,
  options: { maxManifestBytes: number; signal?: AbortSignal; isRedirectAllowed: (target: URL) => boolean; previous?: ManifestCacheInfo },
): Promise<FetchedManifest> {
  let decoded: { data: unknown; contentType: string };
  let cache: ManifestCacheInfo;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.previous?.etag !== undefined) headers['if-none-match'] = options.previous.etag;
  if (options.previous?.lastModified !== undefined) headers['if-modified-since'] = options.previous.lastModified;
  // A 304 answers a conditional request only (RFC 9110 §15.4.5): to a request without a
  // validator it is an error, never word that some earlier manifest still stands.
  const conditional = 'if-none-match' in headers || 'if-modified-since' in headers;
  try {
    const result = await send(
      { method: 'GET', url: url.href, headers },
      {
        accept: 'application/json',
        maxResponseBytes: options.maxManifestBytes,
        isRedirectAllowed: options.isRedirectAllowed,
        ...(options.signal !== undefined && { signal: options.signal }),
        ...(conditional && { notModified: true }),
      },
    );
    cache = cacheInfo(result.headers, options.previous);
    if (result.status === 304) return { notModified: true, cache };
    decoded = decodeResponse(result);
  } catch (error) {
    if (isRcpError(error, 'RCP_ABORTED')) throw error;
    const reason = isRcpError(error) ? error.message : 'the request failed';
    throw discoveryFailed(`Could not fetch the manifest at ${shown(url)}: ${reason}`, error);
  }
  if (isJsonMediaType(decoded.contentType)) return { json: decoded.data, cache };
  if (typeof decoded.data === 'string') {
    try {
      return { json: JSON.parse(decoded.data) as unknown, cache };
    } catch (error) {
      throw discoveryFailed(`The manifest at ${shown(url)} is not JSON (content type ${decoded.contentType || 'missing'})`, error);
    }
  }
  throw discoveryFailed(`The manifest at ${shown(url)} is not JSON (content type ${decoded.contentType || 'missing'})`);
}
