import type { RcpManifest } from 'rcp-manifest';

/** A strong validator of the manifest text: the first 128 bits of its SHA-256, base64url. */
async function entityTag(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let binary = '';
  for (const byte of digest.subarray(0, 16)) binary += String.fromCharCode(byte);
  return `"${btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')}"`;
}

/** Whether an `If-None-Match` list names the tag (weak comparison, RFC 9110 §13.1.2). */
function noneMatch(header: string, tag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((entry) => entry.trim().replace(/^W\//, '') === tag);
}

/**
 * The manifest's responder: `200` with the JSON text, `ETag`, `Last-Modified` and
 * `Cache-Control`; `304` when `If-None-Match` names the tag or (without `If-None-Match`)
 * `If-Modified-Since` is not before `Last-Modified`; `405` for a method other than GET / HEAD.
 */
export function serveManifest(manifest: RcpManifest, options: { cacheControl: string; lastModified: Date }): (request: Request) => Promise<Response> {
  const text = JSON.stringify(manifest);
  const seconds = Math.floor(options.lastModified.getTime() / 1000);
  const lastModified = new Date(seconds * 1000).toUTCString();
  let tag: Promise<string> | undefined;
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response(null, { status: 405, headers: { allow: 'GET, HEAD' } });
    }
    const etag = await (tag ??= entityTag(text));
    const validators = { etag, 'last-modified': lastModified, 'cache-control': options.cacheControl };
    const ifNoneMatch = request.headers.get('if-none-match');
    const ifModifiedSince = request.headers.get('if-modified-since');
    const since = ifModifiedSince === null ? Number.NaN : Date.parse(ifModifiedSince);
    const notModified = ifNoneMatch !== null ? noneMatch(ifNoneMatch, etag) : !Number.isNaN(since) && since >= seconds * 1000;
    if (notModified) return new Response(null, { status: 304, headers: validators });
    return new Response(request.method === 'HEAD' ? null : text, {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8', ...validators },
    });
  };
}
