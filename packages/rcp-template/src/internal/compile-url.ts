import { RcpError } from 'rcp-errors';
import type { TemplatePart } from '../parse-template';
import {
  encodeUnreserved,
  isDotOrEmptySegment,
  normalizePathLiteral,
  normalizeQueryLiteral,
} from './percent-encode';
import { parseIn, structureError } from './parse-in';
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
  origin: string | undefined;
  /** `statics[0] segment[0] statics[1] ... statics[n]` is the URL before the query. */
  statics: string[];
  segments: PathSegment[];
  /** Query entries; empty when the whole query is constant (then folded into the last static). */
  query: QueryEntry[];
  tokens: string[];
  pathTokens: string[];
}

/** A piece of the URL text after the authority, with its offset in the template. */
type Item = { kind: 'text'; text: string; offset: number } | { kind: 'token'; name: string; offset: number };

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

/** Resolves `baseUrl` to an http(s) origin. */
function baseOrigin(baseUrl: string): string {
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

/** Splits parsed parts (from `start` on) into items with offsets. */
function itemsFrom(parts: readonly TemplatePart[], start: number): Item[] {
  const items: Item[] = [];
  let offset = 0;
  for (const part of parts) {
    if (part.kind === 'token') {
      items.push({ kind: 'token', name: part.name, offset: part.offset });
      offset = part.offset + part.name.length + 4;
      continue;
    }
    const end = offset + part.text.length;
    if (end > start) {
      const from = Math.max(start, offset);
      items.push({ kind: 'text', text: part.text.slice(from - offset), offset: from });
    }
    offset = end;
  }
  return items;
}

/** Splits items at every literal occurrence of `separator` (tokens never contain it). */
function splitItems(items: Item[], separator: string): Item[][] {
  const groups: Item[][] = [[]];
  for (const item of items) {
    if (item.kind === 'token') {
      (groups[groups.length - 1] as Item[]).push(item);
      continue;
    }
    const pieces = item.text.split(separator);
    let offset = item.offset;
    pieces.forEach((piece, index) => {
      if (index > 0) groups.push([]);
      if (piece !== '') (groups[groups.length - 1] as Item[]).push({ kind: 'text', text: piece, offset });
      offset += piece.length + separator.length;
    });
  }
  return groups;
}

/** Splits items at the first literal occurrence of `separator`; `undefined` second half when absent. */
function splitFirst(items: Item[], separator: string): [Item[], Item[] | undefined] {
  for (let index = 0; index < items.length; index++) {
    const item = items[index] as Item;
    if (item.kind !== 'text') continue;
    const at = item.text.indexOf(separator);
    if (at === -1) continue;
    const before = items.slice(0, index);
    const after = items.slice(index + 1);
    if (at > 0) before.push({ kind: 'text', text: item.text.slice(0, at), offset: item.offset });
    if (at + separator.length < item.text.length) {
      after.unshift({
        kind: 'text',
        text: item.text.slice(at + separator.length),
        offset: item.offset + at + separator.length,
      });
    }
    return [before, after];
  }
  return [items, undefined];
}

function hasToken(items: Item[]): boolean {
  return items.some((item) => item.kind === 'token');
}

/** Builds interleaved pieces, normalising literal text with `normalize`. */
function interleave(
  items: Item[],
  normalize: (text: string) => string | number,
  url: string,
): Interleaved {
  const texts: string[] = [''];
  const names: string[] = [];
  for (const item of items) {
    if (item.kind === 'token') {
      names.push(item.name);
      texts.push('');
    } else {
      const normalized = normalize(item.text);
      if (typeof normalized === 'number') {
        throw structureError('url', url, item.offset + normalized, 'not well-formed Unicode (lone surrogate)');
      }
      texts[texts.length - 1] += normalized;
    }
  }
  return { texts, names };
}

function literalText(items: Item[], normalize: (text: string) => string | number, url: string): string {
  return (interleave(items, normalize, url).texts[0] as string);
}

function pushUnique(list: string[], name: string): void {
  if (!list.includes(name)) list.push(name);
}

/**
 * Compiles the URL template and the `queryParams` map. All syntax checks happen here.
 */
export function compileUrl(
  url: unknown,
  queryParams: unknown,
  baseUrl: string | undefined,
): CompiledUrl {
  if (typeof url !== 'string') {
    throw structureError('url', String(url), 0, 'the URL template must be a string');
  }
  for (let index = 0; index < url.length; index++) {
    const c = url.charCodeAt(index);
    if (isForbiddenUrlChar(c)) throw structureError('url', url, index, describeForbidden(c));
  }
  const parsed = parseIn(url, 'url');
  const tokens: string[] = [];
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
    for (const part of parsed.parts) {
      if (part.kind === 'token' && part.offset < pathStart) {
        throw structureError(
          'url',
          url,
          part.offset,
          `token "${part.name}" is before the path: the scheme, userinfo, host and port can never contain tokens`,
        );
      }
    }
    const at = url.indexOf('@', authorityStart);
    if (at !== -1 && at < pathStart) {
      throw structureError('url', url, at, 'userinfo ("user:password@") is not allowed in a URL template');
    }
    let parsedOrigin: URL;
    try {
      parsedOrigin = new URL(url.slice(0, pathStart) + '/');
    } catch {
      throw structureError('url', url, authorityStart, 'the scheme and host do not form a valid URL');
    }
    if (parsedOrigin.hostname === '') {
      throw structureError('url', url, authorityStart, 'the URL has no host');
    }
    origin = parsedOrigin.origin;
  } else if (url.charCodeAt(0) === 0x2f /* / */) {
    if (url.charCodeAt(1) === 0x2f) {
      throw structureError('url', url, 0, 'a relative URL must start with exactly one "/" ("//host" would change the host)');
    }
    pathStart = 0;
    origin = baseUrl === undefined ? undefined : baseOrigin(baseUrl);
  } else {
    throw structureError('url', url, 0, 'the URL must be absolute http(s)://... or relative, starting with "/"');
  }

  const [pathItems, queryItems] = splitFirst(itemsFrom(parsed.parts, pathStart), '?');

  // Path: split into segments at literal "/". The first group (before the leading "/") is empty.
  const statics: string[] = [];
  const segments: PathSegment[] = [];
  let current = origin ?? '';
  const segmentGroups = splitItems(pathItems, '/');
  if (segmentGroups.length === 1) {
    current += '/';
  } else {
    for (let index = 1; index < segmentGroups.length; index++) {
      const group = segmentGroups[index] as Item[];
      current += '/';
      if (!hasToken(group)) {
        current += literalText(group, normalizePathLiteral, url);
        continue;
      }
      statics.push(current);
      current = '';
      const segment = interleave(group, normalizePathLiteral, url);
      for (const name of segment.names) {
        pushUnique(tokens, name);
        pushUnique(pathTokens, name);
      }
      segments.push(segment);
    }
  }

  // Query: literal entries from the URL first, then the queryParams map in order.
  const query: QueryEntry[] = [];
  if (queryItems !== undefined) {
    for (const entryItems of splitItems(queryItems, '&')) {
      if (entryItems.length === 0) continue;
      const [keyItems, valueItems] = splitFirst(entryItems, '=');
      for (const item of keyItems) {
        if (item.kind === 'token') {
          throw structureError('url', url, item.offset, `token "${item.name}" is in a query key: query keys are literal`);
        }
      }
      const key = literalText(keyItems, normalizeQueryLiteral, url);
      if (valueItems === undefined) {
        query.push(constantEntry(key));
        continue;
      }
      const value = interleave(valueItems, normalizeQueryLiteral, url);
      if (value.names.length === 0) {
        query.push(constantEntry(`${key}=${value.texts[0] as string}`));
        continue;
      }
      for (const name of value.names) pushUnique(tokens, name);
      query.push(dynamicEntry(`${key}=`, value));
    }
  }
  if (queryParams !== undefined) {
    if (typeof queryParams !== 'object' || queryParams === null || Array.isArray(queryParams)) {
      throw structureError('queryParams', '', 0, 'queryParams must be an object of string templates');
    }
    for (const key of Object.keys(queryParams)) {
      const template = (queryParams as Record<string, unknown>)[key];
      const where = `queryParams "${key}"`;
      if (typeof template !== 'string') throw structureError(where, String(template), 0, 'the value must be a string template');
      const encodedKey = encodeUnreserved(key);
      if (encodedKey === undefined) throw structureError(where, key, 0, 'the key is not well-formed Unicode');
      const value = parseIn(template, where);
      const texts: string[] = [''];
      const names: string[] = [];
      for (const part of value.parts) {
        if (part.kind === 'token') {
          names.push(part.name);
          texts.push('');
          pushUnique(tokens, part.name);
        } else {
          const encoded = encodeUnreserved(part.text);
          if (encoded === undefined) throw structureError(where, template, 0, 'the text is not well-formed Unicode');
          texts[texts.length - 1] += encoded;
        }
      }
      if (names.length === 0) query.push(constantEntry(`${encodedKey}=${texts[0] as string}`));
      else query.push(dynamicEntry(`${encodedKey}=`, { texts, names }));
    }
  }

  // Merge adjacent constant entries; fold a wholly constant query into the last static.
  const merged: QueryEntry[] = [];
  for (const entry of query) {
    const previous = merged[merged.length - 1];
    if (entry.constant !== undefined && previous !== undefined && previous.constant !== undefined) {
      previous.constant += `&${entry.constant}`;
    } else {
      merged.push(entry);
    }
  }
  if (merged.length === 1 && merged[0]?.constant !== undefined) {
    current += `?${merged[0].constant}`;
    merged.length = 0;
  }
  statics.push(current);

  const compiled: CompiledUrl = { origin, statics, segments, query: merged, tokens, pathTokens };
  assertKeepsOrigin(compiled, url);
  return compiled;
}

function constantEntry(text: string): QueryEntry {
  return { constant: text, prefix: '', texts: [], names: [], single: false };
}

function dynamicEntry(prefix: string, value: Interleaved): QueryEntry {
  const single = value.names.length === 1 && value.texts[0] === '' && value.texts[1] === '';
  return { constant: undefined, prefix, texts: value.texts, names: value.names, single };
}

/** Defence in depth: a probe rendering must parse to the same origin. */
function assertKeepsOrigin(compiled: CompiledUrl, url: string): void {
  const probeValues: Record<string, unknown> = {};
  for (const name of compiled.tokens) probeValues[name] = 'x';
  const probe = renderUrl(compiled, probeValues);
  const base = compiled.origin === undefined ? 'http://origin.invalid' : undefined;
  let parsed: URL;
  try {
    parsed = new URL(probe, base);
  } catch {
    throw structureError('url', url, 0, 'the URL template does not form a valid URL');
  }
  const expected = compiled.origin ?? 'http://origin.invalid';
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
