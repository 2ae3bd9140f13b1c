/**
 * The `{{token}}` name grammar (RCP 0.1), written once for every package: a name starts with a
 * letter or `_` and goes on with letters, digits and `_` — `^[A-Za-z_][A-Za-z0-9_]*$`.
 * rcp-manifest's param names, the template scanners and the OpenAPI importer's name cleaning use it.
 */

/**
 * The grammar as regular-expression source, without anchors (for JSON Schema `pattern` strings).
 *
 * @example
 * ```ts
 * import { TOKEN_NAME_SOURCE } from 'rcp-template';
 * new RegExp(`^${TOKEN_NAME_SOURCE}$`).test('user_id'); // true
 * ```
 */
export const TOKEN_NAME_SOURCE = '[A-Za-z_][A-Za-z0-9_]*';

/**
 * Whether a UTF-16 code unit may start a token name: `A-Z`, `a-z` or `_`.
 *
 * @example
 * ```ts
 * import { isTokenNameStart } from 'rcp-template';
 * isTokenNameStart('_'.charCodeAt(0)); // true
 * isTokenNameStart('1'.charCodeAt(0)); // false
 * ```
 */
export function isTokenNameStart(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f;
}

/**
 * Whether a UTF-16 code unit may follow the first one in a token name: `A-Z`, `a-z`, `0-9` or `_`.
 *
 * @example
 * ```ts
 * import { isTokenNameChar } from 'rcp-template';
 * isTokenNameChar('9'.charCodeAt(0)); // true
 * isTokenNameChar('-'.charCodeAt(0)); // false
 * ```
 */
export function isTokenNameChar(code: number): boolean {
  return isTokenNameStart(code) || (code >= 0x30 && code <= 0x39);
}

/**
 * Whether `text` is a `{{token}}` name (`^[A-Za-z_][A-Za-z0-9_]*$`).
 *
 * @example
 * ```ts
 * import { isTokenName } from 'rcp-template';
 * isTokenName('postId'); // true
 * isTokenName('post-id'); // false
 * ```
 */
export function isTokenName(text: string): boolean {
  if (typeof text !== 'string' || text.length === 0 || !isTokenNameStart(text.charCodeAt(0))) return false;
  for (let index = 1; index < text.length; index++) if (!isTokenNameChar(text.charCodeAt(index))) return false;
  return true;
}
