/**
 * The RFC 9110 token rule (§5.6.2), written once for every package: header names, auth
 * schemes and the names in an auth challenge are tokens.
 */

const TOKEN_SYMBOLS = "!#$%&'*+-.^_`|~";

/**
 * The RFC 9110 token rule as a regular expression source, `^` and `$` included (for JSON Schema
 * `pattern`s and the manifest's schema file); built from the same symbols as {@link isTokenChar}.
 *
 * @example
 * ```ts
 * new RegExp(HTTP_TOKEN_SOURCE).test('X-Request-Id'); // true
 * ```
 */
export const HTTP_TOKEN_SOURCE = `^[${TOKEN_SYMBOLS.replace(/[\\\]^-]/g, '\\$&')}0-9A-Za-z]+$`;

/**
 * What a value that is not an RFC 9110 token is told, after its path: one wording for every check.
 *
 * @example
 * ```ts
 * `/auth/name ${HTTP_TOKEN_PROBLEM}`; // "/auth/name must be an HTTP token (RFC 9110): letters, digits and !#$%&'*+-.^_`|~ only"
 * ```
 */
export const HTTP_TOKEN_PROBLEM = `must be an HTTP token (RFC 9110): letters, digits and ${TOKEN_SYMBOLS} only`;

/**
 * Whether a UTF-16 code unit is an RFC 9110 `tchar`: a letter, a digit or one of ``!#$%&'*+-.^_`|~``.
 *
 * @example
 * ```ts
 * isTokenChar('-'.charCodeAt(0)); // true
 * isTokenChar(':'.charCodeAt(0)); // false
 * ```
 */
export function isTokenChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    (code < 0x80 && TOKEN_SYMBOLS.includes(String.fromCharCode(code)))
  );
}

/**
 * Whether `text` is an RFC 9110 token (one or more `tchar`), e.g. a header name.
 *
 * @example
 * ```ts
 * isHttpToken('X-Request-Id'); // true
 * isHttpToken('X Request'); // false
 * ```
 */
export function isHttpToken(text: string): boolean {
  if (typeof text !== 'string' || text.length === 0) return false;
  for (let index = 0; index < text.length; index++) if (!isTokenChar(text.charCodeAt(index))) return false;
  return true;
}
