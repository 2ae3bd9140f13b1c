import { bracketFields } from '../encode-form';
import { encodeUnreserved, isDotOrEmptySegment, normalizePathLiteral } from './percent-encode';
import { normalizeLiteral, parseIn, structureError } from './parse-in';
import { applyQueryStyles, compileQueryParams, compileTemplateQuery, pushUnique, type QueryEntry, type QueryStyle } from './compile-query';
import { firstToken, isValidTemplate, splitTemplate, type TemplatePieces } from './scan-template';
import { locatePath } from './url-origin';
import { missingError, readValue, scalarText, valueError, type TemplateValues } from './values';

/** One path segment that contains at least one token. */
type PathSegment = TemplatePieces;

/** The URL of a request, compiled once. */
export interface CompiledUrl {
  /** The URL template as written. */
  template: string;
  origin: string | undefined;
  /** `statics[0] segment[0] statics[1] ... statics[n]` is the URL before the query. */
  statics: string[];
  segments: PathSegment[];
  /** Query entries; empty when the whole query is constant (then folded into the last static). */
  query: QueryEntry[];
  /** Tokens used in the path, in order of first use (frozen). */
  pathTokens: readonly string[];
}

/**
 * Compiles the URL template and the `queryParams` map. All syntax checks happen here. The
 * tokens used (path, then query) are appended to `tokens`, each once.
 *
 * Tokens never contain `/`, `?`, `&`, `=` or `@`, so the template is split on those characters
 * as written: the path is what comes before the first `?`, its segments are separated by `/`,
 * query entries by `&`, and an entry's key from its value by the first `=`.
 */
export function compileUrl(
  url: unknown,
  queryParams: unknown,
  baseUrl: string | undefined,
  tokens: string[],
  queryStyles?: Readonly<Record<string, QueryStyle>>,
): CompiledUrl {
  assertUrlSyntax(url);
  const { origin, pathStart } = locatePath(url, baseUrl);
  const queryMark = url.indexOf('?', pathStart);
  const pathTokens: string[] = [];
  const path = compilePath(url, pathStart, queryMark === -1 ? url.length : queryMark, origin ?? '', tokens, pathTokens);

  const query: QueryEntry[] = [];
  if (queryMark !== -1) compileTemplateQuery(url, queryMark + 1, query, tokens);
  if (queryParams !== undefined) compileQueryParams(queryParams, query, tokens);
  if (queryStyles !== undefined) applyQueryStyles(query, queryStyles);
  // Adjacent constant entries were merged as they were added; fold a wholly constant query
  // into the last static.
  let last = path.last;
  if (query.length === 1 && query[0]?.constant !== undefined) {
    last += `?${query[0].constant}`;
    query.length = 0;
  }
  path.statics.push(last);

  const compiled: CompiledUrl = {
    template: url,
    origin,
    statics: path.statics,
    segments: path.segments,
    query,
    pathTokens: Object.freeze(pathTokens),
  };
  assertKeepsOrigin(compiled, url);
  return compiled;
}

function isForbiddenUrlChar(c: number): boolean {
  return c <= 0x20 || c === 0x7f || c === 0x5c /* \ */ || c === 0x23 /* # */;
}

function describeForbidden(c: number): string {
  if (c === 0x23) return 'a fragment ("#") is not allowed: fragments are never sent';
  if (c === 0x5c) return 'a backslash is not allowed in a URL template (URL parsers read it as "/")';
  if (c === 0x20) return 'a space is not allowed in a URL template (write %20)';
  return 'control characters are not allowed in a URL template';
}

/** Throws `RCP_TEMPLATE_SYNTAX` unless `url` is a string free of forbidden characters with valid tokens. */
function assertUrlSyntax(url: unknown): asserts url is string {
  if (typeof url !== 'string') {
    throw structureError('url', String(url), 0, 'the URL template must be a string');
  }
  for (let index = 0; index < url.length; index++) {
    const c = url.charCodeAt(index);
    if (isForbiddenUrlChar(c)) throw structureError('url', url, index, describeForbidden(c));
  }
  if (!isValidTemplate(url)) parseIn(url, 'url'); // throws the syntax error
}

/** The compiled path: `statics` and `segments` interleaved, `last` the text after the last segment. */
interface CompiledPath {
  statics: string[];
  segments: PathSegment[];
  last: string;
}

/**
 * Compiles the path between `pathStart` and `pathEnd` (when not empty it starts with `/`):
 * segments between literal `/`, constant ones folded into the statics (starting with `prefix`,
 * the origin). The tokens used are appended to `tokens` and `pathTokens`, each once.
 */
function compilePath(url: string, pathStart: number, pathEnd: number, prefix: string, tokens: string[], pathTokens: string[]): CompiledPath {
  const normalize = (piece: string, offset: number): string => normalizeLiteral(normalizePathLiteral, piece, offset, url);
  const statics: string[] = [];
  const segments: PathSegment[] = [];
  let current = prefix;
  if (pathEnd === pathStart) return { statics, segments, last: `${current}/` };
  let segmentStart = pathStart + 1;
  for (;;) {
    let segmentEnd = url.indexOf('/', segmentStart);
    if (segmentEnd === -1 || segmentEnd > pathEnd) segmentEnd = pathEnd;
    current += '/';
    if (firstToken(url, segmentStart, segmentEnd) === -1) {
      current += normalize(url.slice(segmentStart, segmentEnd), segmentStart);
    } else {
      statics.push(current);
      current = '';
      const segment = splitTemplate(url, segmentStart, segmentEnd, normalize);
      for (const name of segment.names) {
        pushUnique(tokens, name);
        pushUnique(pathTokens, name);
      }
      segments.push(segment);
    }
    if (segmentEnd === pathEnd) return { statics, segments, last: current };
    segmentStart = segmentEnd + 1;
  }
}

/** The origin a relative template's probe is resolved against. */
const PROBE_ORIGIN = 'http://origin.invalid';

/** The value every token takes in the probe. */
const PROBE_VALUE = 'x';

/** Interleaved pieces with every token rendered as the probe value. */
function probePieces(texts: readonly string[]): string {
  let out = texts[0] as string;
  for (let index = 1; index < texts.length; index++) out += PROBE_VALUE + (texts[index] as string);
  return out;
}

/**
 * What {@link renderUrl} returns when every token's value is `"x"` (a scalar that needs no
 * encoding and makes no segment empty or a dot segment), built without a values object.
 */
function probeText(compiled: CompiledUrl): string {
  const { statics, segments, query } = compiled;
  let url = statics[0] as string;
  for (let index = 0; index < segments.length; index++) {
    url += probePieces((segments[index] as PathSegment).texts) + (statics[index + 1] as string);
  }
  if (query.length === 0) return url;
  let search = '';
  for (let index = 0; index < query.length; index++) {
    const entry = query[index] as QueryEntry;
    const piece = entry.constant ?? entry.prefix + probePieces(entry.texts);
    if (piece !== '') search = search === '' ? piece : `${search}&${piece}`;
  }
  return search === '' ? url : `${url}?${search}`;
}

/** Defence in depth: a probe rendering must parse to the same origin. */
function assertKeepsOrigin(compiled: CompiledUrl, url: string): void {
  let probe = probeText(compiled);
  let base: string | undefined;
  if (compiled.origin === undefined) {
    // A path-absolute reference resolves against the base as if appended to its origin.
    if (probe.charCodeAt(0) === 0x2f && probe.charCodeAt(1) !== 0x2f) probe = PROBE_ORIGIN + probe;
    else base = PROBE_ORIGIN;
  }
  let parsed: URL;
  try {
    parsed = new URL(probe, base);
  } catch {
    throw structureError('url', url, 0, 'the URL template does not form a valid URL');
  }
  const expected = compiled.origin ?? PROBE_ORIGIN;
  if (parsed.origin !== expected) {
    throw structureError('url', url, 0, 'the URL template does not keep its origin');
  }
}

function encodeScalar(value: unknown, name: string, position: 'path' | 'query'): string {
  const text = typeof value === 'string' ? value : scalarText(value, name, position);
  const encoded = encodeUnreserved(text);
  if (encoded === undefined) throw valueError(name, position, 'the text is not well-formed Unicode (lone surrogate)');
  return encoded;
}

function renderSegment(segment: PathSegment, values: TemplateValues): string {
  const { texts, names } = segment;
  let out = texts[0] as string;
  for (let index = 0; index < names.length; index++) {
    const name = names[index] as string;
    const value = readValue(values, name);
    if (value === undefined) throw missingError(name, 'path', 'path tokens are always required');
    out += encodeScalar(value, name, 'path') + (texts[index + 1] as string);
  }
  if (isDotOrEmptySegment(out)) {
    throw valueError(names[0] as string, 'path', 'the path segment would be empty, "." or "..", which URL parsers remove or collapse');
  }
  return out;
}

/** One array element of a query value: a string, a finite number or a boolean, encoded. */
function encodeElement(element: unknown, name: string): string {
  if (typeof element !== 'string' && typeof element !== 'number' && typeof element !== 'boolean') {
    throw valueError(name, 'query', 'array elements must be strings, finite numbers or booleans');
  }
  return encodeScalar(element, name, 'query');
}

/**
 * A `deepObject` value (RCP 0.4): the bracket form of form bodies (§16.1) under the entry's key —
 * `key[a]=1&key[b][c]=2`, an array of scalars repeating its path, an array of objects indexed — so an API that reads
 * Stripe-style form bodies reads it the same way. The value must be an object.
 */
function renderDeepObject(key: string, value: unknown, name: string): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw valueError(name, 'query', 'a deepObject query value must be an object');
  }
  const out: string[] = [];
  bracketFields(key, value, name, 'query', out);
  return out.join('&');
}

/** Renders one dynamic query entry; '' when it is dropped. */
function renderEntry(entry: QueryEntry, values: TemplateValues): string {
  const { texts, names, prefix } = entry;
  if (entry.single) {
    const name = names[0] as string;
    const value = readValue(values, name);
    if (value === undefined) return '';
    if (entry.style === 'deepObject') return renderDeepObject(prefix.slice(0, -1), value, name);
    if (entry.style === 'comma' && Array.isArray(value)) {
      return value.length === 0 ? '' : prefix + value.map((element: unknown) => encodeElement(element, name)).join(',');
    }
    if (Array.isArray(value)) {
      let out = '';
      for (let index = 0; index < value.length; index++) {
        const element: unknown = value[index];
        if (Array.isArray(element) || (typeof element !== 'string' && typeof element !== 'number' && typeof element !== 'boolean')) {
          throw valueError(name, 'query', 'array elements must be strings, finite numbers or booleans');
        }
        const piece = prefix + encodeScalar(element, name, 'query');
        out = out === '' ? piece : `${out}&${piece}`;
      }
      return out;
    }
    return prefix + encodeScalar(value, name, 'query');
  }
  let out = prefix + (texts[0] as string);
  for (let index = 0; index < names.length; index++) {
    const name = names[index] as string;
    const value = readValue(values, name);
    if (value === undefined) return '';
    out += encodeScalar(value, name, 'query') + (texts[index + 1] as string);
  }
  return out;
}

/** Renders the URL. No parsing happens here. */
export function renderUrl(compiled: CompiledUrl, values: TemplateValues): string {
  const { statics, segments, query } = compiled;
  let url = statics[0] as string;
  for (let index = 0; index < segments.length; index++) {
    url += renderSegment(segments[index] as PathSegment, values) + (statics[index + 1] as string);
  }
  if (query.length === 0) return url;
  let search = '';
  for (let index = 0; index < query.length; index++) {
    const entry = query[index] as QueryEntry;
    const piece = entry.constant ?? renderEntry(entry, values);
    if (piece !== '') search = search === '' ? piece : `${search}&${piece}`;
  }
  return search === '' ? url : `${url}?${search}`;
}
