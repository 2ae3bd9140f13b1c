import type { JsonPathQuery } from 'jsonpath-rfc9535/parser';

/*
 * The RFC 9535 grammar (§2.1–§2.5) without filter selectors, read by hand so that loading
 * rcp-manifest does not load the JSONPath library (issue 26: ~40 files, ~90 ms of cold start).
 * It yields the same AST as the library's parser (`jsonpath-rfc9535/parser`) — proved by
 * `path-syntax.property.test.ts` against the library — so the checks and the evaluator in
 * `json-path.ts` read either. A query with a filter selector (`[?…]`) is left to the library.
 */

type Segment = JsonPathQuery['segments'][number];
type SegmentNode = Segment['node'];
type BracketedSelection = Extract<SegmentNode, { type: 'BracketedSelection' }>;
type Selector = BracketedSelection['selectors'][number];

/** What {@link parseFilterFreeQuery} read: the segments, a filter to hand on, or why the text is invalid. */
export type FilterFreeParse =
  | { readonly kind: 'query'; readonly segments: Segment[] }
  | { readonly kind: 'filter' }
  | { readonly kind: 'invalid'; readonly message: string };

class Invalid extends Error {}
class FilterSelectorFound extends Error {}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** name-first (RFC 9535 §2.5.1.1): ALPHA / "_" / %x80-D7FF / %xE000-10FFFF, for one code point. */
function isNameFirst(codePoint: number): boolean {
  return (
    (codePoint >= 0x41 && codePoint <= 0x5a) ||
    (codePoint >= 0x61 && codePoint <= 0x7a) ||
    codePoint === 0x5f ||
    (codePoint >= 0x80 && codePoint <= 0xd7ff) ||
    (codePoint >= 0xe000 && codePoint <= 0x10ffff)
  );
}

/** A lone surrogate is no character: a code point in D800–DFFF is refused wherever it occurs. */
function isSurrogate(codePoint: number): boolean {
  return codePoint >= 0xd800 && codePoint <= 0xdfff;
}

const ESCAPES: Readonly<Record<string, string>> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', '/': '/', '\\': '\\' };

/** A reader over one query text: each method consumes one grammar rule at `position`. */
class QueryReader {
  position = 0;
  constructor(readonly text: string) {}

  fail(expected: string): never {
    const found = this.position < this.text.length ? `"${this.text[this.position]}"` : 'end of input';
    throw new Invalid(`expected ${expected} at position ${this.position}, found ${found}`);
  }

  code(): number {
    return this.position < this.text.length ? this.text.charCodeAt(this.position) : -1;
  }

  skipBlank(): void {
    while (isBlank(this.code())) this.position++;
  }

  segments(): Segment[] {
    if (this.code() !== 0x24) this.fail('"$"');
    this.position++;
    const segments: Segment[] = [];
    for (;;) {
      const start = this.position;
      this.skipBlank();
      if (this.position === this.text.length) {
        if (this.position !== start) {
          this.position = start;
          this.fail('a segment after blank space');
        }
        return segments;
      }
      segments.push(this.segment());
    }
  }

  segment(): Segment {
    const code = this.code();
    if (code === 0x5b) return { type: 'ChildSegment', node: this.bracketed() };
    if (code !== 0x2e) this.fail('"[" or "."');
    this.position++;
    if (this.code() === 0x2e) {
      this.position++;
      const node = this.code() === 0x5b ? this.bracketed() : this.dotted();
      return { type: 'DescendantSegment', node };
    }
    return { type: 'ChildSegment', node: this.dotted() };
  }

  /** After "." or "..": a wildcard or a member-name-shorthand. */
  dotted(): SegmentNode {
    if (this.code() === 0x2a) {
      this.position++;
      return { type: 'WildcardSelector' };
    }
    const start = this.position;
    let codePoint = this.text.codePointAt(this.position) ?? -1;
    if (!isNameFirst(codePoint)) this.fail('a member name, "*" or "["');
    while (isNameFirst(codePoint) || isDigit(codePoint)) {
      this.position += codePoint > 0xffff ? 2 : 1;
      codePoint = this.text.codePointAt(this.position) ?? -1;
    }
    return { type: 'MemberNameShorthand', value: this.text.slice(start, this.position) };
  }

  bracketed(): BracketedSelection {
    this.position++; // "["
    const selectors: Selector[] = [];
    for (;;) {
      this.skipBlank();
      selectors.push(this.selector());
      this.skipBlank();
      const code = this.code();
      this.position++;
      if (code === 0x5d) return { type: 'BracketedSelection', selectors };
      if (code !== 0x2c) {
        this.position--;
        this.fail('"," or "]"');
      }
    }
  }

  selector(): Selector {
    const code = this.code();
    if (code === 0x27 || code === 0x22) return { type: 'NameSelector', value: this.stringLiteral(code) };
    if (code === 0x2a) {
      this.position++;
      return { type: 'WildcardSelector' };
    }
    if (code === 0x3f) throw new FilterSelectorFound();
    return this.indexOrSlice();
  }

  /** index-selector / slice-selector: `[start S] ":" S [end S] [":" [S step]]`. */
  indexOrSlice(): Selector {
    const start = this.optionalInteger();
    const afterStart = this.position;
    this.skipBlank();
    if (this.code() !== 0x3a) {
      if (start === null) this.fail('a selector');
      this.position = afterStart;
      return { type: 'IndexSelector', value: start };
    }
    this.position++;
    this.skipBlank();
    const end = this.optionalInteger();
    this.skipBlank();
    let step: number | null = null;
    if (this.code() === 0x3a) {
      this.position++;
      this.skipBlank();
      step = this.optionalInteger();
    }
    return { type: 'SliceSelector', start, end, step };
  }

  /** int = "0" / ["-"] DIGIT1 *DIGIT, within the I-JSON range; null when no int starts here. */
  optionalInteger(): number | null {
    const start = this.position;
    if (this.code() === 0x2d) this.position++;
    const digitsStart = this.position;
    if (!isDigit(this.code())) {
      if (this.position !== start) this.fail('a digit');
      return null;
    }
    if (this.code() === 0x30) {
      this.position++;
      if (this.position - start > 1) {
        this.position = digitsStart;
        this.fail('a digit from 1 to 9 ("-0" is not an integer)');
      }
      if (isDigit(this.code())) this.fail('no leading zero');
      return 0;
    }
    while (isDigit(this.code())) this.position++;
    const value = Number(this.text.slice(start, this.position));
    if (value < -MAX_SAFE || value > MAX_SAFE) throw new Invalid('integers must be within -(2^53-1) and 2^53-1 (I-JSON)');
    return value;
  }

  /** string-literal (§2.3.1.1), its quote being `quote`: the decoded name. */
  stringLiteral(quote: number): string {
    this.position++;
    let value = '';
    for (;;) {
      const codePoint = this.text.codePointAt(this.position);
      if (codePoint === undefined) this.fail('the closing quote');
      if (codePoint === quote) {
        this.position++;
        return value;
      }
      if (codePoint === 0x5c) {
        value += this.escape(quote);
        continue;
      }
      if (codePoint < 0x20 || isSurrogate(codePoint)) this.fail('a character (control characters and lone surrogates are escaped)');
      value += String.fromCodePoint(codePoint);
      this.position += codePoint > 0xffff ? 2 : 1;
    }
  }

  escape(quote: number): string {
    this.position++; // "\"
    const char = this.text[this.position];
    if (char !== undefined && char.charCodeAt(0) === quote) {
      this.position++;
      return char;
    }
    if (char === 'u') return this.unicodeEscape();
    const decoded = char === undefined ? undefined : ESCAPES[char];
    if (decoded === undefined) this.fail('an escape (b, f, n, r, t, /, \\, u or the quote)');
    this.position++;
    return decoded;
  }

  /** `\uXXXX`, a high surrogate only with its `\uXXXX` low surrogate. */
  unicodeEscape(): string {
    const high = this.hex4();
    if (high >= 0xdc00 && high <= 0xdfff) this.fail('no lone low surrogate');
    if (high < 0xd800 || high > 0xdbff) return String.fromCharCode(high);
    if (this.text[this.position] !== '\\' || this.text[this.position + 1] !== 'u') this.fail('the low surrogate (\\uDC00–\\uDFFF)');
    this.position++;
    const low = this.hex4();
    if (low < 0xdc00 || low > 0xdfff) this.fail('a low surrogate (\\uDC00–\\uDFFF)');
    return String.fromCharCode(high, low);
  }

  /** "u" and four hex digits (either case, as ABNF reads them). */
  hex4(): number {
    this.position++; // "u"
    const digits = this.text.slice(this.position, this.position + 4);
    if (!/^[0-9A-Fa-f]{4}$/.test(digits)) this.fail('four hex digits');
    this.position += 4;
    return Number.parseInt(digits, 16);
  }
}

/**
 * Parses an RFC 9535 query (`$…`) that has no filter selector into the library parser's AST
 * segments. A query that reaches a filter selector is `{ kind: 'filter' }` (the library parses
 * it); an invalid one is `{ kind: 'invalid', message }`.
 *
 * @example
 * ```ts
 * parseFilterFreeQuery("$.a['b'][0:2]"); // { kind: 'query', segments: [...] }
 * parseFilterFreeQuery('$[?@.a]'); // { kind: 'filter' }
 * ```
 */
export function parseFilterFreeQuery(text: string): FilterFreeParse {
  try {
    return { kind: 'query', segments: new QueryReader(text).segments() };
  } catch (error) {
    if (error instanceof FilterSelectorFound) return { kind: 'filter' };
    if (error instanceof Invalid) return { kind: 'invalid', message: error.message };
    throw error;
  }
}
