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
 * overrides and isolates (U+202A–U+202E, U+2066–U+2069). The one definition; the second pattern
 * is the same set less CR and LF.
 */
const UNSAFE_REST = '\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
const UNSAFE = new RegExp(`[\\u0000-\\u001f${UNSAFE_REST}]`, 'g');
const UNSAFE_BUT_LINE_BREAKS = new RegExp(`[\\u0000-\\u0009\\u000b\\u000c\\u000e-\\u001f${UNSAFE_REST}]`, 'g');

const hex = (char: string, width: number) => char.charCodeAt(0).toString(16).padStart(width, '0');
/** `\x1b` for C0, DEL and C1; `\u2028` for the rest. */
const visible = (char: string) => (char.charCodeAt(0) <= 0x9f ? `\\x${hex(char, 2)}` : `\\u${hex(char, 4)}`);
/** `\u001b` for every one: an escape that is valid inside a JSON string. */
const jsonVisible = (char: string) => `\\u${hex(char, 4)}`;

/**
 * Options of {@link escapeUnsafeText}.
 *
 * @example
 * ```ts
 * const options: EscapeUnsafeTextOptions = { lineBreaks: 'keep', form: 'json' };
 * ```
 */
export interface EscapeUnsafeTextOptions {
  /**
   * `'keep'` leaves CR and LF as they are: for text whose lines a later step escapes its own
   * way (a GitHub annotation), or JSON, which never holds a raw one inside a string.
   * @default 'escape'
   */
  lineBreaks?: 'escape' | 'keep';
  /**
   * `'json'` writes every escape as `\uXXXX`, valid inside a JSON string (for the output of
   * `JSON.stringify`, which escapes C0 itself but leaves DEL, C1, separators and bidi controls raw).
   * @default 'text': `\x1b` for C0, DEL and C1, `\u202e` for the rest
   */
  form?: 'text' | 'json';
}

/**
 * The text with every unsafe character (controls, line separators, bidi controls) shown as a
 * visible escape (`\x1b`, `\u202e`): for a terminal line, or a message quoting a server's words.
 *
 * @example
 * ```ts
 * import { escapeUnsafeText } from 'rcp-errors';
 * escapeUnsafeText('OK\x1b[2J'); // 'OK\\x1b[2J'
 * escapeUnsafeText('{"a":"\u202e"}', { form: 'json' }); // '{"a":"\\u202e"}'
 * ```
 */
export function escapeUnsafeText(text: string, options: EscapeUnsafeTextOptions = {}): string {
  const pattern = options.lineBreaks === 'keep' ? UNSAFE_BUT_LINE_BREAKS : UNSAFE;
  pattern.lastIndex = 0;
  return text.replace(pattern, options.form === 'json' ? jsonVisible : visible);
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
  return text.replace(UNSAFE, ' ');
}
