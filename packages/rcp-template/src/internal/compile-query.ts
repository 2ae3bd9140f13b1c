/**
 * The query of a request, compiled once: the literal entries written in the URL template, then
 * the `queryParams` map in order. Adjacent constant entries are merged as they are added.
 */
import { encodeUnreserved, normalizeQueryLiteral } from './percent-encode';
import { normalizeLiteral, parseIn, structureError } from './parse-in';
import { firstToken, isValidTemplate, splitTemplate, type TemplatePieces } from './scan-template';
import { NONE } from './values';
import { isRecord } from 'rcp-internal';

/**
 * One query entry. Constant entries have `constant` set (already `key=value` text); dynamic
 * entries have `prefix` (`key=`), interleaved value pieces, and `single` when the value is
 * exactly one token (an array value then repeats the key).
 */
export interface QueryEntry extends TemplatePieces {
  constant: string | undefined;
  prefix: string;
  single: boolean;
  /** How a whole-value token's array or object is written (RCP 0.4 `queryStyle`); `repeat` by default. */
  style: QueryStyle;
}

/**
 * How a query entry whose value is exactly one token writes an array or an object (RCP 0.4):
 * `repeat` (the key once per array element: OpenAPI's exploded form, the default), `comma`
 * (`key=a,b,c`: OpenAPI's form with `explode: false`) or `deepObject` (`key[a]=1&key[b][c]=2`,
 * array elements by index: `key[list][0]=x`).
 *
 * @example
 * ```ts
 * const style: QueryStyle = 'deepObject';
 * compileRequest({ method: 'GET', url: '/charges', queryParams: { created: '{{created}}' } }, { queryStyles: { created: style } })
 *   .render({ created: { gte: 1 } }).url; // '/charges?created%5Bgte%5D=1'
 * ```
 */
export type QueryStyle = 'repeat' | 'comma' | 'deepObject';

/** The styles a query entry may take. */
export const QUERY_STYLES: readonly QueryStyle[] = Object.freeze(['repeat', 'comma', 'deepObject']);

/**
 * Gives each whole-value entry of a styled token its style. A styled token used in a query entry that is not exactly
 * that token (`a-{{x}}`), or used in no query entry, is `RCP_TEMPLATE_SYNTAX`: the style could not apply.
 */
export function applyQueryStyles(query: QueryEntry[], styles: Readonly<Record<string, QueryStyle>>): void {
  for (const name of Object.keys(styles)) {
    const style = styles[name] as QueryStyle;
    if (!QUERY_STYLES.includes(style)) {
      throw structureError('queryStyles', String(style), 0, `the style of "${name}" must be one of ${QUERY_STYLES.join(', ')}`);
    }
    let used = false;
    for (const entry of query) {
      if (!entry.names.includes(name)) continue;
      if (!entry.single) throw structureError('queryStyles', name, 0, `"${name}" has a query style but is not the whole value of its query entry`);
      entry.style = style;
      used = true;
    }
    if (!used && style !== 'repeat') throw structureError('queryStyles', name, 0, `"${name}" has a query style but is not the value of a query entry`);
  }
}

/** Appends `name` to `list` unless it is there already. */
export function pushUnique(list: string[], name: string): void {
  if (!list.includes(name)) list.push(name);
}

/**
 * Compiles the query written in the URL template (from `start`, just after the `?`) into
 * `query`; the tokens its values use are appended to `tokens`, each once. Entries are separated
 * by `&`, a key from its value by the first `=`; keys are literal.
 */
export function compileTemplateQuery(url: string, start: number, query: QueryEntry[], tokens: string[]): void {
  let entryStart = start;
  for (;;) {
    let entryEnd = url.indexOf('&', entryStart);
    if (entryEnd === -1) entryEnd = url.length;
    if (entryEnd > entryStart) compileTemplateEntry(url, entryStart, entryEnd, query, tokens);
    if (entryEnd === url.length) break;
    entryStart = entryEnd + 1;
  }
}

/** One non-empty `key` or `key=value` entry of the URL template's query. */
function compileTemplateEntry(url: string, entryStart: number, entryEnd: number, query: QueryEntry[], tokens: string[]): void {
  const normalize = (piece: string, offset: number): string => normalizeLiteral(normalizeQueryLiteral, piece, offset, url);
  let equals = url.indexOf('=', entryStart);
  if (equals >= entryEnd) equals = -1;
  const keyEnd = equals === -1 ? entryEnd : equals;
  const keyToken = firstToken(url, entryStart, keyEnd);
  if (keyToken !== -1) {
    const close = url.indexOf('}}', keyToken);
    throw structureError('url', url, keyToken, `token "${url.slice(keyToken + 2, close)}" is in a query key: query keys are literal`);
  }
  const key = normalize(url.slice(entryStart, keyEnd), entryStart);
  if (equals === -1) {
    addEntry(query, constantEntry(key));
    return;
  }
  addPieces(query, tokens, `${key}=`, splitTemplate(url, equals + 1, entryEnd, normalize));
}

/**
 * Compiles the `queryParams` map (key → string template) into `query`, after the URL's own
 * entries; keys and literal text are percent-encoded. Throws `RCP_TEMPLATE_SYNTAX` on a bad shape.
 */
export function compileQueryParams(queryParams: unknown, query: QueryEntry[], tokens: string[]): void {
  if (!isRecord(queryParams)) {
    throw structureError('queryParams', '', 0, 'queryParams must be an object of string templates');
  }
  for (const key of Object.keys(queryParams)) {
    compileQueryParam(key, queryParams[key], query, tokens);
  }
}

function compileQueryParam(key: string, template: unknown, query: QueryEntry[], tokens: string[]): void {
  const where = `queryParams "${key}"`;
  if (typeof template !== 'string') throw structureError(where, String(template), 0, 'the value must be a string template');
  const encodedKey = encodeUnreserved(key);
  if (encodedKey === undefined) throw structureError(where, key, 0, 'the key is not well-formed Unicode');
  if (!isValidTemplate(template)) parseIn(template, where); // throws the syntax error
  const pieces = splitTemplate(template, 0, template.length, (piece) => {
    const encoded = encodeUnreserved(piece);
    if (encoded === undefined) throw structureError(where, template, 0, 'the text is not well-formed Unicode');
    return encoded;
  });
  addPieces(query, tokens, `${encodedKey}=`, pieces);
}

/** Adds a `prefix` + value entry: constant when the value has no token, dynamic (tokens recorded) otherwise. */
function addPieces(query: QueryEntry[], tokens: string[], prefix: string, value: TemplatePieces): void {
  if (value.names.length === 0) {
    addEntry(query, constantEntry(prefix + (value.texts[0] as string)));
    return;
  }
  for (const name of value.names) pushUnique(tokens, name);
  addEntry(query, dynamicEntry(prefix, value));
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
  return { constant: text, prefix: '', texts: NONE, names: NONE, single: false, style: 'repeat' };
}

function dynamicEntry(prefix: string, value: TemplatePieces): QueryEntry {
  const single = value.names.length === 1 && value.texts[0] === '' && value.texts[1] === '';
  return { constant: undefined, prefix, texts: value.texts, names: value.names, single, style: 'repeat' };
}
