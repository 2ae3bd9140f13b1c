/**
 * The RFC 9110 field-value rule (§5.5), written once for every package: a header value is made of
 * visible ASCII, obs-text (U+0080–U+00FF), space and horizontal tab, and neither starts nor ends
 * with a space or a tab (`field-value = *field-content`; `field-content = field-vchar
 * [ 1*( SP / HTAB / field-vchar ) field-vchar ]`). CR, LF, NUL, the other controls and DEL are
 * never allowed, so no value can split a header.
 */

/**
 * Whether a UTF-16 code unit may appear in a header value: VCHAR, obs-text, SP or HTAB.
 *
 * @example
 * ```ts
 * import { isHeaderValueChar } from 'rcp-template';
 * isHeaderValueChar('\t'.charCodeAt(0)); // true
 * isHeaderValueChar('\n'.charCodeAt(0)); // false
 * ```
 */
export function isHeaderValueChar(code: number): boolean {
  return code === 0x09 || (code >= 0x20 && code !== 0x7f && code <= 0xff);
}

function isSpaceOrTab(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/**
 * Whether `text` is a whole RFC 9110 field value: only {@link isHeaderValueChar} characters, with
 * no space or tab at either end (those would be trimmed by the HTTP client, so the value sent would
 * not be the value checked). The empty string is a field value.
 *
 * @example
 * ```ts
 * import { isHeaderValue } from 'rcp-template';
 * isHeaderValue('a\tb');   // true
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
