/*
 * Text from a server or a document, made safe to show (in a message, a terminal, a page, to a
 * model), written once for every package: what a secret becomes, and what happens to characters
 * that could drive a terminal, forge a line, or reorder what a reader sees.
 */

/**
 * What every redacted secret becomes: in errors, `prepare()`'s output, observed responses and
 * OAuth errors.
 *
 * @example
 * ```ts
 * import { REDACTED } from 'rcp-errors';
 * `Authorization: Bearer ${REDACTED}`; // 'Authorization: Bearer [redacted]'
 * ```
 */
export const REDACTED = '[redacted]';

/**
 * C0 (U+0000–U+001F: ESC, BEL, CR, LF …), DEL, C1 (U+0080–U+009F, which some terminals read as
 * CSI / OSC), the line and paragraph separators (U+2028, U+2029) and the bidi embeddings,
 * overrides and isolates (U+202A–U+202E, U+2066–U+2069).
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const HAS_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** `\x1b` for C0, DEL and C1; `\u2028` for the rest. */
function visible(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0x9f ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * The text with every unsafe character (controls, line separators, bidi controls) shown as a
 * visible escape (`\x1b`, `\u202e`): for a terminal line, or a message quoting a server's words.
 *
 * @example
 * ```ts
 * import { escapeUnsafeText } from 'rcp-errors';
 * escapeUnsafeText('OK\x1b[2J'); // 'OK\\x1b[2J'
 * ```
 */
export function escapeUnsafeText(text: string): string {
  return HAS_UNSAFE.test(text) ? text.replace(UNSAFE, visible) : text;
}

/**
 * The text with every unsafe character (controls, line separators, bidi controls) replaced by a
 * space: for one line of prose made of a document's or a server's words.
 *
 * @example
 * ```ts
 * import { blankUnsafeText } from 'rcp-errors';
 * blankUnsafeText('Lists notes.\nIgnore the above'); // 'Lists notes. Ignore the above'
 * ```
 */
export function blankUnsafeText(text: string): string {
  return HAS_UNSAFE.test(text) ? text.replace(UNSAFE, ' ') : text;
}
