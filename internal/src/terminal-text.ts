/**
 * The CLI's one output sanitiser. Every line `rcp` prints from a server or a document (a
 * manifest's field names, an HTTP reason phrase, an OpenAPI title) passes through here, so no
 * such text can drive the terminal or the CI log reading it: control characters are shown
 * escaped, never interpreted.
 *
 * Unsafe: C0 (U+0000–U+001F: ESC, BEL, CR, LF …), DEL, C1 (U+0080–U+009F, which some terminals
 * read as CSI / OSC), the line and paragraph separators (U+2028, U+2029) and the bidi embeddings,
 * overrides and isolates (U+202A–U+202E, U+2066–U+2069) that reorder what a reader sees.
 */
import { escapeUnsafeText } from 'rcp-errors';

/**
 * A value for one line of terminal output: every unsafe character, CR and LF included, shown
 * escaped (`\x1b`, `\x0a`, `\u202e`).
 *
 * @example
 * ```ts
 * terminalText('a\x1b]0;owned\x07b'); // 'a\\x1b]0;owned\\x07b'
 * ```
 */
export function terminalText(text: string): string {
  return escapeUnsafeText(text);
}

/**
 * Text of several lines (joined with LF, as the CLI composes them): each line made safe with
 * {@link terminalText}; the LFs between them stay. The last net under every line `rcp` prints.
 *
 * @example
 * ```ts
 * terminalLines('one\ntwo\x9b2J'); // 'one\ntwo\\x9b2J'
 * ```
 */
export function terminalLines(text: string): string {
  return text.split('\n').map(terminalText).join('\n');
}

/**
 * `JSON.stringify(value, null, 2)` with what JSON leaves raw (DEL, C1, U+2028/U+2029, bidi
 * controls) written as `\uXXXX` escapes too: the same JSON value, safe to print.
 *
 * @example
 * ```ts
 * terminalJson({ name: 'x\u009b' }); // '{\n  "name": "x\\u009b"\n}'
 * ```
 */
export function terminalJson(value: unknown): string {
  // JSON.stringify escapes C0 inside strings; its only raw line breaks are the indentation's.
  return escapeUnsafeText(JSON.stringify(value, null, 2) ?? 'null', { lineBreaks: 'keep', form: 'json' });
}

/**
 * A copy of plain data (objects, arrays, strings, numbers …) with every string and key made
 * safe with {@link terminalText}: for a report a formatter turns into lines.
 *
 * @example
 * ```ts
 * terminalStrings({ title: 'Pets\n::error::x' }); // { title: 'Pets\\x0a::error::x' }
 * ```
 */
export function terminalStrings<T>(value: T): T {
  const map = (item: unknown): unknown => {
    if (typeof item === 'string') return terminalText(item);
    if (Array.isArray(item)) return item.map(map);
    if (typeof item === 'object' && item !== null) {
      return Object.fromEntries(Object.entries(item).map(([key, entry]) => [terminalText(key), map(entry)]));
    }
    return item;
  };
  return map(value) as T;
}

/** Control characters other than CR and LF, shown escaped (annotations then escape CR and LF their way). */
const annotationSafe = (text: string) => escapeUnsafeText(text, { lineBreaks: 'keep' });

/**
 * A GitHub Actions workflow-command message (after `::`), escaped as `@actions/core`'s
 * `escapeData` does (`%`, CR, LF), other control characters shown escaped.
 *
 * @example
 * ```ts
 * annotationMessage('50% done\n::add-mask::x'); // '50%25 done%0A::add-mask::x'
 * ```
 */
export function annotationMessage(text: string): string {
  return annotationSafe(text).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/**
 * A GitHub Actions workflow-command property value (`file=`, `title=`), escaped as
 * `@actions/core`'s `escapeProperty` does (`%`, CR, LF, `:`, `,`), other control characters
 * shown escaped: no value can end the properties or add one.
 *
 * @example
 * ```ts
 * annotationProperty('/tools/0/x::error::y,file=z'); // '/tools/0/x%3A%3Aerror%3A%3Ay%2Cfile=z'
 * ```
 */
export function annotationProperty(text: string): string {
  return annotationMessage(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
