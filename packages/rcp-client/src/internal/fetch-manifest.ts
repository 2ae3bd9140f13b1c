import { RcpError, isRcpError } from 'rcp-errors';
import { decodeResponse } from './decode-response';
import type { Sender } from './send';
import { isJsonMediaType } from './media-type';


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

/**
 * GETs the manifest (Accept: application/json, at most `maxManifestBytes`) and parses it as
 * JSON. Any failure on the wire is `RCP_DISCOVERY_FAILED` with the transport error as `cause`,
 * except an abort by the caller, which stays `RCP_ABORTED`. The Content-Type is not required to
 * be JSON (static hosts often serve `.json` as text/plain), but the body must be.
 */
export async function fetchManifestJson(
  send: Sender,
  url: URL,
  options: { maxManifestBytes: number; signal?: AbortSignal; isRedirectAllowed: (target: URL) => boolean },
): Promise<unknown> {
  let decoded: { data: unknown; contentType: string };
  try {
    const result = await send(
      { method: 'GET', url: url.href, headers: { accept: 'application/json' } },
      {
        accept: 'application/json',
        maxResponseBytes: options.maxManifestBytes,
        isRedirectAllowed: options.isRedirectAllowed,
        ...(options.signal !== undefined && { signal: options.signal }),
      },
    );
    decoded = decodeResponse(result);
  } catch (error) {
    if (isRcpError(error, 'RCP_ABORTED')) throw error;
    const reason = isRcpError(error) ? error.message : 'the request failed';
    throw discoveryFailed(`Could not fetch the manifest at ${shown(url)}: ${reason}`, error);
  }
  if (isJsonMediaType(decoded.contentType)) return decoded.data;
  if (typeof decoded.data === 'string') {
    try {
      return JSON.parse(decoded.data) as unknown;
    } catch (error) {
      throw discoveryFailed(
        `The manifest at ${shown(url)} is not JSON (content type ${decoded.contentType || 'missing'})`,
        error,
      );
    }
  }
  throw discoveryFailed(`The manifest at ${shown(url)} is not JSON (content type ${decoded.contentType || 'missing'})`);
}
