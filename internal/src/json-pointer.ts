/**
 * Escapes one JSON Pointer reference token per RFC 6901: `~` → `~0`, `/` → `~1`; an array index is
 * written as its number. The one escaping rule for every pointer the packages build.
 *
 * @example
 * ```ts
 * import { escapePointerToken } from 'rcp-template';
 * escapePointerToken('a/b~c'); // 'a~1b~0c'
 * escapePointerToken(2);       // '2'
 * ```
 */
export function escapePointerToken(token: string | number): string {
  if (typeof token === 'number') return String(token);
  // Most tokens (field names) need no escaping: no regular expression runs for them.
  if (!token.includes('~') && !token.includes('/')) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The inverse of {@link escapePointerToken}: `~1` → `/`, then `~0` → `~` (RFC 6901 §4, in that order).
 *
 * @example
 * ```ts
 * import { unescapePointerToken } from 'rcp-template';
 * unescapePointerToken('a~1b~0c'); // 'a/b~c'
 * ```
 */
export function unescapePointerToken(token: string): string {
  if (!token.includes('~')) return token;
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}
