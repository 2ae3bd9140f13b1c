import { blankUnsafeText } from 'rcp-errors';

/**
 * A document's description as text a model reads: HTML turned into plain text, Markdown kept.
 *
 * *Decision:* HTML is read by a tokenizer that follows the HTML tokenizer's states (tag open, tag
 * name, attribute values in quotes, comments, bogus comments, raw text in `script` / `style`),
 * never by a regular expression over tags, so nesting (`<scr<script>ipt>`), a `>` inside a quoted
 * attribute, an unclosed comment or a tag cut off at the end of the text cannot leave markup
 * behind: what a browser would not show as text is dropped. Entities are decoded in text; a `<`
 * in the result that could open a tag (`&lt;p&gt;`, `<&#112;>`) stays written `&lt;`, so no
 * decoded entity becomes markup. A Markdown code span (`` `List<Pet>` ``) is literal text, as
 * CommonMark reads it, and kept as written; a Markdown autolink (`<https://…>`) keeps its URL.
 */

/** Elements whose start and end are a paragraph break in text. */
const BLOCK = new Set([
  'p',
  'div',
  'ul',
  'ol',
  'dl',
  'dt',
  'dd',
  'table',
  'tr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'pre',
  'blockquote',
  'section',
  'article',
  'header',
  'footer',
  'hr',
]);
/** Elements whose content is raw text up to their end tag, dropped with them. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'template']);
/** Inline code elements, written as a Markdown code span. */
const CODE = new Set(['code', 'tt', 'kbd', 'samp']);

/** The named entities descriptions use; any other `&name;` stays as written. */
const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  bull: '•',
  middot: '·',
  copy: '©',
  reg: '®',
  trade: '™',
  times: '×',
  divide: '÷',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  deg: '°',
  plusmn: '±',
  le: '≤',
  ge: '≥',
  ne: '≠',
  rarr: '→',
  larr: '←',
};

const isAlpha = (char: string | undefined): boolean => char !== undefined && ((char >= 'a' && char <= 'z') || (char >= 'A' && char <= 'Z'));
const isSpace = (char: string | undefined): boolean => char === ' ' || char === '\t' || char === '\n' || char === '\f' || char === '\r';

/** What reading HTML out of a text found. */
interface Converted {
  readonly text: string;
  /** A tag, comment or entity was read (the text had markup). */
  readonly hadMarkup: boolean;
}

/** The index just past the next `>` at or after `from` (the end of the text when there is none). */
function pastNext(source: string, from: number, close: string): number {
  const at = source.indexOf(close, from);
  return at === -1 ? source.length : at + close.length;
}

/** A tag starting at `start` (`<` then a letter, or `</` then a letter): its lower-case name, whether it ends one, and the index past it (or the end of the text: a tag cut off is dropped). */
function readTag(source: string, start: number): { name: string; end: boolean; next: number } {
  const end = source[start + 1] === '/';
  let index = start + (end ? 2 : 1);
  let name = '';
  while (index < source.length && !isSpace(source[index]) && source[index] !== '/' && source[index] !== '>') name += source[index++]!.toLowerCase();
  // Attributes: a quote opens a value only after `=`; inside it `>` is text.
  while (index < source.length && source[index] !== '>') {
    if (source[index] === '=') {
      index++;
      while (isSpace(source[index])) index++;
      const quote = source[index];
      if (quote === '"' || quote === "'") {
        const close = source.indexOf(quote, index + 1);
        index = close === -1 ? source.length : close + 1;
        continue;
      }
    }
    index++;
  }
  return { name, end, next: Math.min(index + 1, source.length) };
}

/** A decoded entity at `start` (`&amp;`, `&#38;`, `&#x26;`), or undefined when it is not one (the `&` is text). */
function readEntity(source: string, start: number): { text: string; next: number } | undefined {
  const semicolon = source.indexOf(';', start + 1);
  if (semicolon === -1 || semicolon - start > 12) return undefined;
  const body = source.slice(start + 1, semicolon);
  let code: number | undefined;
  if (/^#[0-9]{1,7}$/.test(body)) code = Number.parseInt(body.slice(1), 10);
  else if (/^#[xX][0-9a-fA-F]{1,6}$/.test(body)) code = Number.parseInt(body.slice(2), 16);
  else if (Object.hasOwn(ENTITIES, body)) return { text: ENTITIES[body]!, next: semicolon + 1 };
  else return undefined;
  const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
  return { text: valid ? String.fromCodePoint(code) : '\ufffd', next: semicolon + 1 };
}

/** A Markdown autolink's URL or e-mail address (`<https://example.com/x>`, `<a@example.com>`) at `start`, or undefined. */
function readAutolink(source: string, start: number): { text: string; next: number } | undefined {
  const close = source.indexOf('>', start + 1);
  if (close === -1) return undefined;
  const inner = source.slice(start + 1, close);
  if (/^[a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>"'`]*$/.test(inner) || /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9.-]+$/.test(inner)) {
    return { text: inner, next: close + 1 };
  }
  return undefined;
}

/** A Markdown code span starting at `start` (a run of backticks closed by a run as long): kept as written, or undefined when it is not closed. */
function readCodeSpan(source: string, start: number): { text: string; next: number } | undefined {
  let run = 0;
  while (source[start + run] === '`') run++;
  const fence = '`'.repeat(run);
  let from = start + run;
  for (;;) {
    const at = source.indexOf(fence, from);
    if (at === -1) return undefined;
    if (source[at + run] !== '`' && source[at - 1] !== '`') return { text: source.slice(start, at + run), next: at + run };
    from = at + 1;
    while (source[from] === '`') from++;
  }
}

/** Text an element's start or end stands for (a paragraph break, a list item, a code span), or nothing. */
function tagText(name: string, end: boolean): string {
  if (BLOCK.has(name)) return '\n\n';
  if (name === 'br') return '\n';
  if (name === 'li') return end ? '' : '\n- ';
  if (name === 'td' || name === 'th') return ' ';
  if (CODE.has(name)) return '`';
  return '';
}

/** The text with its HTML read as a browser would show it (see the file's comment). */
export function htmlToText(source: string): Converted {
  // A text with block markup is HTML: its line breaks are spaces, as a browser shows them.
  const html = /<(p|br|li|div|ul|ol|h[1-6]|table|tr|pre|blockquote)[\s/>]/i.test(source);
  let out = '';
  let hadMarkup = false;
  let index = 0;
  while (index < source.length) {
    const char = source[index]!;
    const next = source[index + 1];
    if (char === '`') {
      const span = readCodeSpan(source, index);
      if (span !== undefined) {
        out += span.text;
        index = span.next;
        continue;
      }
      // An unclosed run of backticks is text.
      do out += source[index++];
      while (source[index] === '`');
      continue;
    }
    if (char === '&') {
      const entity = readEntity(source, index);
      if (entity !== undefined) {
        hadMarkup = true;
        out += entity.text;
        index = entity.next;
        continue;
      }
    } else if (char === '<') {
      const link = isAlpha(next) ? readAutolink(source, index) : undefined;
      if (link !== undefined) {
        out += link.text;
        index = link.next;
        continue;
      }
      if (isAlpha(next) || (next === '/' && isAlpha(source[index + 2]))) {
        hadMarkup = true;
        const tag = readTag(source, index);
        out += tagText(tag.name, tag.end);
        index = tag.next;
        if (!tag.end && RAW_TEXT.has(tag.name)) index = skipRawText(source, index, tag.name);
        continue;
      }
      if (source.startsWith('<!--', index)) {
        hadMarkup = true;
        // `<!-->` and `<!--->` are empty comments; any other ends at `-->`, or at the end of the text.
        index = source.startsWith('>', index + 4) ? index + 5 : source.startsWith('->', index + 4) ? index + 6 : pastNext(source, index + 4, '-->');
        continue;
      }
      if (next === '!' || next === '?' || next === '/') {
        // `<!DOCTYPE …>`, `<![CDATA[…]>`, `<?…>`, `</ …>`: bogus comments up to the next `>`.
        hadMarkup = true;
        index = pastNext(source, index + 2, '>');
        continue;
      }
    } else if (html && isSpace(char)) {
      out += ' ';
      index++;
      continue;
    }
    out += char;
    index++;
  }
  return { text: withoutTagOpeners(out), hadMarkup };
}

/** The index past the end tag of a raw text element (`</script …>`), or the end of the text. */
function skipRawText(source: string, from: number, name: string): number {
  const lower = source.toLowerCase();
  let at = lower.indexOf(`</${name}`, from);
  while (at !== -1) {
    const after = source[at + 2 + name.length];
    if (after === undefined || isSpace(after) || after === '/' || after === '>') return readTag(source, at).next;
    at = lower.indexOf(`</${name}`, at + 1);
  }
  return source.length;
}

/**
 * `<` that could open a tag (before a letter, `/`, `!` or `?`) written `&lt;`, outside code
 * spans: a decoded entity never becomes markup.
 */
function withoutTagOpeners(text: string): string {
  let out = '';
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '`') {
      const span = readCodeSpan(text, index);
      if (span !== undefined) {
        out += span.text;
        index = span.next;
        continue;
      }
    }
    const next = text[index + 1];
    out += char === '<' && (isAlpha(next) || next === '/' || next === '!' || next === '?') ? '&lt;' : char;
    index++;
  }
  return out;
}

/**
 * What {@link plainText} made of a description.
 */
export interface PlainText {
  readonly text: string;
  /** HTML was read out of it (tags, comments or entities). */
  readonly hadMarkup: boolean;
  /** It was longer than the limit and was cut at a word. */
  readonly cut: boolean;
}

/**
 * A document's description as plain text for a model: HTML read out ({@link htmlToText}),
 * Markdown kept, every unsafe character (controls, line separators, bidi controls) a space —
 * line breaks stay — spaces and blank lines collapsed, trimmed, and cut at a word to `max`
 * characters with `…`.
 */
export function plainText(source: string, max: number): PlainText {
  const { text: converted, hadMarkup } = htmlToText(source.replace(/\r\n?/g, '\n'));
  let text = converted
    .split('\n')
    .map((line) => blankUnsafeText(line).replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/(?<=\S)[ \t]{2,}/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const cut = text.length > max;
  if (cut) text = cutAt(text, max);
  return { text, hadMarkup, cut };
}

/**
 * The text cut to at most `max` characters: at the last space past half of it, else where it
 * falls (never inside a surrogate pair), with `…` at the end.
 */
export function cutAt(text: string, max: number): string {
  if (text.length <= max) return text;
  let head = text.slice(0, max - 1);
  if (/[\ud800-\udbff]$/.test(head)) head = head.slice(0, -1);
  const space = head.search(/\s\S*$/);
  return `${(space > max / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

/** Longest tool description, in characters (summary, description and a `Deprecated: ` prefix together). */
export const MAX_TOOL_DESCRIPTION = 1_024;
/** Longest description of a param or of a property nested in one, in characters. */
export const MAX_PARAM_DESCRIPTION = 512;

/** The report notes of descriptions (each said once for the document, with the tools). */
export const HTML_NOTE = 'HTML in descriptions was read as plain text (tags dropped, entities decoded; Markdown kept)';
export const TOOL_CUT_NOTE = `a tool description was cut to ${MAX_TOOL_DESCRIPTION.toLocaleString('en-US')} characters`;
export const PARAM_CUT_NOTE = `param descriptions were cut to ${MAX_PARAM_DESCRIPTION} characters`;

/**
 * A param's or a nested property's description as plain text, cut to
 * {@link MAX_PARAM_DESCRIPTION}; `note` hears what was done (once per kind and tool is enough:
 * the import groups them). Undefined for anything but a string with text in it.
 */
export function paramDescription(source: unknown, note: (message: string) => void): string | undefined {
  if (typeof source !== 'string') return undefined;
  const { text, hadMarkup, cut } = plainText(source, MAX_PARAM_DESCRIPTION);
  if (hadMarkup) note(HTML_NOTE);
  if (cut) note(PARAM_CUT_NOTE);
  return text === '' ? undefined : text;
}
