/**
 * Headers that carry a credential (lowercase): Authorization, Proxy-Authorization and Cookie. The
 * one list: the client's `headers` option refuses them (they would go to every origin; the
 * `credentials` option sends a credential only where it is trusted).
 */
const SECRET_HEADER_NAMES: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'cookie']);

/** Whether the header `name` (lowercase) carries a credential (see {@link SECRET_HEADER_NAMES}). */
export function isSecretHeaderName(name: string): boolean {
  return SECRET_HEADER_NAMES.has(name);
}
