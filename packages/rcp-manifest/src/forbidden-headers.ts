/**
 * Header names a manifest may never set, lowercase: Host, Content-Length, Transfer-Encoding,
 * Connection and Cookie (RCP 0.1), plus the other connection-level (hop-by-hop) headers of
 * RFC 9110 §7.6.1 and Expect, which Node's fetch refuses or which only the HTTP client may set,
 * and Proxy-Authorization: a credential for a proxy between the client and the tool, which
 * neither a manifest's auth nor a model-filled value may ever set. The one list: the manifest
 * check, the client's `headers` option and the OpenAPI importer use it. Frozen.
 *
 * @example
 * ```ts
 * import { FORBIDDEN_HEADER_NAMES } from 'rcp-manifest';
 * FORBIDDEN_HEADER_NAMES.includes('transfer-encoding'); // true
 * ```
 */
export const FORBIDDEN_HEADER_NAMES: readonly string[] = Object.freeze([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'cookie',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'proxy-authorization',
]);

const FORBIDDEN: ReadonlySet<string> = new Set(FORBIDDEN_HEADER_NAMES);

/**
 * Whether a manifest may never set the header `name` (any case): see {@link FORBIDDEN_HEADER_NAMES}.
 *
 * @example
 * ```ts
 * import { isForbiddenHeaderName } from 'rcp-manifest';
 * isForbiddenHeaderName('Content-Length'); // true
 * isForbiddenHeaderName('X-Api-Key');      // false
 * ```
 */
export function isForbiddenHeaderName(name: string): boolean {
  return FORBIDDEN.has(name.toLowerCase());
}
