/**
 * Percent-encoding helpers. The hot-path encoder ({@link encodeUnreserved}) keeps only RFC 3986
 * unreserved characters; the literal normalisers run once, at compile time.
 */

/** 1 for RFC 3986 unreserved ASCII characters: `A-Z a-z 0-9 - . _ ~`. */
const UNRESERVED = new Uint8Array(128);
for (let c = 0x30; c <= 0x39; c++) UNRESERVED[c] = 1;
for (let c = 0x41; c <= 0x5a; c++) UNRESERVED[c] = 1;
for (let c = 0x61; c <= 0x7a; c++) UNRESERVED[c] = 1;
UNRESERVED[0x2d] = 1; // -
UNRESERVED[0x2e] = 1; // .
UNRESERVED[0x5f] = 1; // _
UNRESERVED[0x7e] = 1; // ~

/**
 * Encodes `value` so that only unreserved characters stay; every other character becomes its
 * UTF-8 bytes as uppercase `%XX`. Returns `undefined` when `value` is not well-formed Unicode
 * (a lone surrogate), which cannot be encoded as UTF-8.
 */
export function encodeUnreserved(value: string): string | undefined {
  const length = value.length;
  let index = 0;
  while (index < length) {
    const c = value.charCodeAt(index);
    if (c >= 128 || UNRESERVED[c] === 0) break;
    index++;
  }
  if (index === length) return value;
  // encodeURIComponent leaves five characters that are not unreserved: ! ' ( ) *
  let leftovers = false;
  while (index < length) {
    const c = value.charCodeAt(index);
    if (c < 128 && LEFT_BY_ENCODE_URI_COMPONENT[c] === 1) {
      leftovers = true;
      break;
    }
    index++;
  }
  let encoded: string;
  try {
    encoded = encodeURIComponent(value);
  } catch {
    return undefined;
  }
  return leftovers ? encodeLeftovers(encoded) : encoded;
}

/** 1 for the characters `encodeURIComponent` does not encode although they are not unreserved. */
const LEFT_BY_ENCODE_URI_COMPONENT = new Uint8Array(128);
LEFT_BY_ENCODE_URI_COMPONENT[0x21] = 1; // !
LEFT_BY_ENCODE_URI_COMPONENT[0x27] = 1; // '
LEFT_BY_ENCODE_URI_COMPONENT[0x28] = 1; // (
LEFT_BY_ENCODE_URI_COMPONENT[0x29] = 1; // )
LEFT_BY_ENCODE_URI_COMPONENT[0x2a] = 1; // *

function encodeLeftovers(encoded: string): string {
  let out = '';
  let start = 0;
  const length = encoded.length;
  for (let cursor = 0; cursor < length; cursor++) {
    const c = encoded.charCodeAt(cursor);
    if (c >= 128 || LEFT_BY_ENCODE_URI_COMPONENT[c] === 0) continue;
    out += `${encoded.slice(start, cursor)}%${c.toString(16).toUpperCase()}`;
    start = cursor + 1;
  }
  return out + encoded.slice(start);
}

/** Characters kept as written in literal URL text, besides unreserved and `%XX`. */
const PATH_LITERAL_EXTRA = "!$&'()*+,;=:@";
const QUERY_LITERAL_EXTRA = "!$&'()*+,;=:@/?";

/** 1 for ASCII characters kept as written: unreserved plus the position's extra delimiters. */
function keptTable(extra: string): Uint8Array {
  const table = UNRESERVED.slice();
  for (let index = 0; index < extra.length; index++) table[extra.charCodeAt(index)] = 1;
  return table;
}

const PATH_KEPT = keptTable(PATH_LITERAL_EXTRA);
const QUERY_KEPT = keptTable(QUERY_LITERAL_EXTRA);

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function isUpperHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46);
}

/**
 * Normalises literal URL text written by the template author: unreserved characters, the
 * position's allowed delimiters and valid `%XX` escapes stay; anything else is percent-encoded.
 * Returns the offset (relative to `text`) of a lone surrogate instead when there is one.
 */
function normalizeLiteral(text: string, kept: Uint8Array): string | number {
  // Most literal text is already normal: return it without building a copy.
  let index = 0;
  const length = text.length;
  while (index < length) {
    const c = text.charCodeAt(index);
    if (c < 128 && kept[c] === 1) index++;
    else if (c === 0x25 && isUpperHex(text.charCodeAt(index + 1)) && isUpperHex(text.charCodeAt(index + 2))) index += 3;
    else break;
  }
  if (index === length) return text;
  let out = text.slice(0, index);
  for (; index < length; index++) {
    const c = text.charCodeAt(index);
    if (c < 128 && kept[c] === 1) {
      out += text[index];
    } else if (c === 0x25 && isHex(text.charCodeAt(index + 1)) && isHex(text.charCodeAt(index + 2))) {
      out += text.slice(index, index + 3).toUpperCase();
      index += 2;
    } else {
      const codePoint = text.codePointAt(index) as number;
      const width = codePoint > 0xffff ? 2 : 1;
      try {
        out += encodeURIComponent(text.slice(index, index + width));
      } catch {
        return index;
      }
      index += width - 1;
    }
  }
  return out;
}

/** Normalises literal text of one path segment (no `/` inside). */
export function normalizePathLiteral(text: string): string | number {
  return normalizeLiteral(text, PATH_KEPT);
}

/** Normalises literal text of a query key or value written in the URL (no `&` inside). */
export function normalizeQueryLiteral(text: string): string | number {
  return normalizeLiteral(text, QUERY_KEPT);
}

/**
 * True when an encoded path segment is one URL parsers treat as a dot segment or that
 * disappears: empty, `.`, `..`, or their `%2e` spellings (WHATWG URL treats `%2e` as `.`).
 */
export function isDotOrEmptySegment(segment: string): boolean {
  const length = segment.length;
  if (length === 0) return true;
  if (length > 6) return false;
  const first = segment.charCodeAt(0);
  if (first !== 0x2e /* . */ && first !== 0x25 /* % */) return false;
  if (segment === '.' || segment === '..') return true;
  const lower = segment.toLowerCase();
  return lower === '%2e' || lower === '.%2e' || lower === '%2e.' || lower === '%2e%2e';
}
