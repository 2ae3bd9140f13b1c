/**
 * The header-value rule, written once for every package: RCP §7.3 (M7.3c) over RFC 9110's
 * field-value (§5.5). RFC 9110 allows visible ASCII, obs-text (U+0080–U+00FF), and space or tab
 * inside; RCP is stricter and refuses TAB with every other control (conformance case
 * `header-refused-tab`). Like RFC 9110, a value neither starts nor ends with a space. CR, LF,
 * NUL and DEL are never allowed, so no value can split a header.
 */

/**
 * Whether a UTF-16 code unit may appear in a header value: VCHAR, obs-text or SP (no TAB: RCP M7.3c).
 *
 * @example
 * ```ts
 * import { isHeaderValueChar } from 'rcp-template';
 * isHeaderValueChar(' '.charCodeAt(0));  // true
 * isHeaderValueChar('\t'.charCodeAt(0)); // false
 * ```
 */
export function isHeaderValueChar(code: number): boolean {
  return code >= 0x20 && code !== 0x7f && code <= 0xff;
}

function isSpaceOrTab(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/**
 * Whether `text` is a whole header value: only {@link isHeaderValueChar} characters, with
 * no space at either end (those would be trimmed by the HTTP client, so the value sent would
 * not be the value checked). The empty string is a field value.
 *
 * @example
 * ```ts
 * import { isHeaderValue } from 'rcp-template';
 * isHeaderValue('a b');    // true
 * isHeaderValue('a\tb');   // false
 * isHeaderValue(' a');     // false
 * isHeaderValue('a\r\nX'); // false
 * ```
 */
export function isHeaderValue(text: string): boolean {
  if (typeof text !== 'string') return false;
  const length = text.length;
  if (length === 0) return true;
  if (isSpaceOrTab(text.charCodeAt(0)) || isSpaceOrTab(text.charCodeAt(length - 1))) return false;
  for (let index = 0; index < length; index++) if (!isHeaderValueChar(text.charCodeAt(index))) return false;
  return true;
}
