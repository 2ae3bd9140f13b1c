import { RcpError } from 'rcp-errors';
import {
  encodeUnreserved,
  isDotOrEmptySegment,
  normalizePathLiteral,
  normalizeQueryLiteral,
} from './percent-encode';
import { parseIn, structureError } from './parse-in';
import { NONE } from './values';
import { firstToken, isValidTemplate, splitTemplate } from './scan-template';
import { missingError, readValue, scalarText, valueError, type TemplateValues } from './values';

/** Literal text pieces interleaved with token names: `texts[0] names[0] texts[1] ... texts[n]`. */
interface Interleaved {
  texts: string[];
  names: string[];
}

/** One path segment that contains at least one token. */
type PathSegment = Interleaved;

/**
 * One query entry. Constant entries have `constant` set (already `key=value` text); dynamic
 * entries have `prefix` (`key=`), interleaved value pieces, and `single` when the value is
 * exactly one token (an array value then repeats the key).
 */
interface QueryEntry extends Interleaved {
  constant: string | undefined;
  prefix: string;
  single: boolean;
}

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

const ABSOLUTE = /^https?:\/\//i;

function isForbiddenUrlChar(c: number): boolean {
  return c <= 0x20 || c === 0x7f || c === 0x5c /* \ */ || c === 0x23 /* # */;
}

function describeForbidden(c: number): string {
  if (c === 0x23) return 'a fragment ("#") is not allowed: fragments are never sent';
  if (c === 0x5c) return 'a backslash is not allowed in a URL template (URL parsers read it as "/")';
  if (c === 0x20) return 'a space is not allowed in a URL template (write %20)';
  return 'control characters are not allowed in a URL template';
}

/** The last base URL resolved and its origin: a client compiles every tool of a manifest with the same one. */
let lastBase: { baseUrl: string; origin: string } | undefined;

/** Resolves `baseUrl` to an http(s) origin (throws `RCP_INVALID_OPTIONS` when it is not one). */
export function baseOrigin(baseUrl: string): string {
  if (lastBase !== undefined && lastBase.baseUrl === baseUrl) return lastBase.origin;
  const origin = parseBaseOrigin(baseUrl);
  if (typeof baseUrl === 'string') lastBase = { baseUrl, origin };
  return origin;
}

function parseBaseOrigin(baseUrl: string): string {
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch (error) {
    throw new RcpError('RCP_INVALID_OPTIONS', 'compileRequest: options.baseUrl is not a valid absolute URL', {
      cause: error,
    });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new RcpError('RCP_INVALID_OPTIONS', 'compileRequest: options.baseUrl must be an http(s) URL');
  }
  return parsed.origin;
}

/** The last authority (`scheme://host:port`) resolved and its origin: a manifest's tools often share one. */
let lastAuthority: { authority: string; origin: string } | undefined;

/** The origin of `scheme://authority` (with `/` appended), or undefined when it has no host or does not parse. */
function authorityOrigin(authority: string): string | undefined {
  if (lastAuthority !== undefined && lastAuthority.authority === authority) return lastAuthority.origin;
  let parsed: URL;
  try {
    parsed = new URL(`${authority}/`);
  } catch {
    return undefined;
  }
  if (parsed.hostname === '') return '';
  lastAuthority = { authority, origin: parsed.origin };
  return parsed.origin;
}

function pushUnique(list: string[], name: string): void {
  if (!list.includes(name)) list.push(name);
}

/**
 * Normalises one literal piece of URL text that starts at `offset` in `url`; a lone surrogate
 * is a syntax error at its offset.
 */
function normalizeAt(normalize: (text: string) => string | number, piece: string, offset: number, url: string): string {
  if (piece === '') return piece;
  const normalized = normalize(piece);
  if (typeof normalized === 'number') {
    throw structureError('url', url, offset + normalized, 'not well-formed Unicode (lone surrogate)');
  }
  return normalized;
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
): CompiledUrl {
  if (typeof url !== 'string') {
    throw structureError('url', String(url), 0, 'the URL template must be a string');
  }
  for (let index = 0; index < url.length; index++) {
    const c = url.charCodeAt(index);
    if (isForbiddenUrlChar(c)) throw structureError('url', url, index, describeForbidden(c));
  }
  if (!isValidTemplate(url)) parseIn(url, 'url'); // throws the syntax error
  const pathTokens: string[] = [];

  let origin: string | undefined;
  let pathStart: number;
  const absolute = ABSOLUTE.exec(url);
  if (absolute) {
    const authorityStart = absolute[0].length;
    pathStart = url.length;
    for (let index = authorityStart; index < url.length; index++) {
      const c = url.charCodeAt(index);
      if (c === 0x2f /* / */ || c === 0x3f /* ? */) {
        pathStart = index;
        break;
      }
    }
    const early = firstToken(url, 0, pathStart);
    if (early !== -1) {
      const close = url.indexOf('}}', early);
      throw structureError(
        'url',
        url,
        early,
        `token "${url.slice(early + 2, close)}" is before the path: the scheme, userinfo, host and port can never contain tokens`,
      );
    }
    const at = url.indexOf('@', authorityStart);
    if (at !== -1 && at < pathStart) {
      throw structureError('url', url, at, 'userinfo ("user:password@") is not allowed in a URL template');
    }
    const authorityOriginValue = authorityOrigin(url.slice(0, pathStart));
    if (authorityOriginValue === undefined) {
      throw structureError('url', url, authorityStart, 'the scheme and host do not form a valid URL');
    }
    if (authorityOriginValue === '') {
      throw structureError('url', url, authorityStart, 'the URL has no host');
    }
    origin = authorityOriginValue;
  } else if (url.charCodeAt(0) === 0x2f /* / */) {
    if (url.charCodeAt(1) === 0x2f) {
      throw structureError('url', url, 0, 'a relative URL must start with exactly one "/" ("//host" would change the host)');
    }
    pathStart = 0;
    origin = baseUrl === undefined ? undefined : baseOrigin(baseUrl);
  } else {
    throw structureError('url', url, 0, 'the URL must be absolute http(s)://... or relative, starting with "/"');
  }

  const queryMark = url.indexOf('?', pathStart);
  const pathEnd = queryMark === -1 ? url.length : queryMark;
  const normalizePath = (piece: string, offset: number): string => normalizeAt(normalizePathLiteral, piece, offset, url);
  const normalizeQuery = (piece: string, offset: number): string => normalizeAt(normalizeQueryLiteral, piece, offset, url);

  // Path: segments between literal "/" (the path, when not empty, starts with "/").
  const statics: string[] = [];
  const segments: PathSegment[] = [];
  let current = origin ?? '';
  if (pathEnd === pathStart) {
    current += '/';
  } else {
    let segmentStart = pathStart + 1;
    for (;;) {
      let segmentEnd = url.indexOf('/', segmentStart);
      if (segmentEnd === -1 || segmentEnd > pathEnd) segmentEnd = pathEnd;
      current += '/';
      if (firstToken(url, segmentStart, segmentEnd) === -1) {
        current += normalizePath(url.slice(segmentStart, segmentEnd), segmentStart);
      } else {
        statics.push(current);
        current = '';
        const segment = splitTemplate(url, segmentStart, segmentEnd, normalizePath);
        for (const name of segment.names) {
          pushUnique(tokens, name);
          pushUnique(pathTokens, name);
        }
        segments.push(segment);
      }
      if (segmentEnd === pathEnd) break;
      segmentStart = segmentEnd + 1;
    }
  }

  // Query: literal entries from the URL first, then the queryParams map in order.
  const query: QueryEntry[] = [];
  if (queryMark !== -1) {
    let entryStart = queryMark + 1;
    for (;;) {
      let entryEnd = url.indexOf('&', entryStart);
      if (entryEnd === -1) entryEnd = url.length;
      if (entryEnd > entryStart) {
        let equals = url.indexOf('=', entryStart);
        if (equals >= entryEnd) equals = -1;
        const keyEnd = equals === -1 ? entryEnd : equals;
        const keyToken = firstToken(url, entryStart, keyEnd);
        if (keyToken !== -1) {
          const close = url.indexOf('}}', keyToken);
          throw structureError('url', url, keyToken, `token "${url.slice(keyToken + 2, close)}" is in a query key: query keys are literal`);
        }
        const key = normalizeQuery(url.slice(entryStart, keyEnd), entryStart);
        if (equals === -1) {
          addEntry(query, constantEntry(key));
        } else {
          const value = splitTemplate(url, equals + 1, entryEnd, normalizeQuery);
          if (value.names.length === 0) {
            addEntry(query, constantEntry(`${key}=${value.texts[0] as string}`));
          } else {
            for (const name of value.names) pushUnique(tokens, name);
            addEntry(query, dynamicEntry(`${key}=`, value));
          }
        }
      }
      if (entryEnd === url.length) break;
      entryStart = entryEnd + 1;
    }
  }
  if (queryParams !== undefined) {
    if (typeof queryParams !== 'object' || queryParams === null || Array.isArray(queryParams)) {
      throw structureError('queryParams', '', 0, 'queryParams must be an object of string templates');
    }
    for (const key of Object.keys(queryParams)) {
      const template = (queryParams as Record<string, unknown>)[key];
      if (typeof template !== 'string') {
        throw structureError(`queryParams "${key}"`, String(template), 0, 'the value must be a string template');
      }
      const encodedKey = encodeUnreserved(key);
      if (encodedKey === undefined) throw structureError(`queryParams "${key}"`, key, 0, 'the key is not well-formed Unicode');
      if (!isValidTemplate(template)) parseIn(template, `queryParams "${key}"`); // throws the syntax error
      const { texts, names } = splitTemplate(template, 0, template.length, (piece) => {
        const encoded = encodeUnreserved(piece);
        if (encoded === undefined) {
          throw structureError(`queryParams "${key}"`, template, 0, 'the text is not well-formed Unicode');
        }
        return encoded;
      });
      for (const name of names) pushUnique(tokens, name);
      if (names.length === 0) addEntry(query, constantEntry(`${encodedKey}=${texts[0] as string}`));
      else addEntry(query, dynamicEntry(`${encodedKey}=`, { texts, names }));
    }
  }

  // Adjacent constant entries were merged as they were added; fold a wholly constant query
  // into the last static.
  if (query.length === 1 && query[0]?.constant !== undefined) {
    current += `?${query[0].constant}`;
    query.length = 0;
  }
  statics.push(current);

  const compiled: CompiledUrl = {
    template: url,
    origin,
    statics: statics,
    segments: segments,
    query: query,
    pathTokens: Object.freeze(pathTokens),
  };
  assertKeepsOrigin(compiled, url);
  return compiled;
}

/** Appends a query entry, merging it into the previous one when both are constant. */
function addEntry(query: QueryEntry[], entry: QueryEntry): void {
  const previous = query[query.length - 1];
  if (entry.constant !== undefined && previous !== undefined && previous.constant !== undefined) {
    previous.constant += `&${entry.constant}`;
  } else {
    query.push(entry);
  }
}

function constantEntry(text: string): QueryEntry {
  return { constant: text, prefix: '', texts: NONE, names: NONE, single: false };
}

function dynamicEntry(prefix: string, value: Interleaved): QueryEntry {
  const single = value.names.length === 1 && value.texts[0] === '' && value.texts[1] === '';
  return { constant: undefined, prefix, texts: value.texts, names: value.names, single };
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
    throw valueError(
      names[0] as string,
      'path',
      'the path segment would be empty, "." or "..", which URL parsers remove or collapse',
    );
  }
  return out;
}

/** Renders one dynamic query entry; '' when it is dropped. */
function renderEntry(entry: QueryEntry, values: TemplateValues): string {
  const { texts, names, prefix } = entry;
  if (entry.single) {
    const name = names[0] as string;
    const value = readValue(values, name);
    if (value === undefined) return '';
    if (Array.isArray(value)) {
      let out = '';
      for (let index = 0; index < value.length; index++) {
        const element: unknown = value[index];
        if (Array.isArray(element) || typeof element !== 'string' && typeof element !== 'number' && typeof element !== 'boolean') {
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
