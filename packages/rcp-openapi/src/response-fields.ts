/**
 * What an operation's 2xx responses tell a client (RCP 0.3, docs/behaviour.md; SPEC §18.3, §18.4): the binary
 * media types it answers with (`responseMediaTypes`) and, by a conservative naming rule, its
 * cursor (`pagination`). One file, so both readings of a response are written once.
 */
import type { RcpPagination, RcpStream } from 'rcp-manifest';
import { isRecord, STREAM_MEDIA_TYPES } from 'rcp-internal';
import { jsonMediaType } from './media-type';
import { mergeAllOf, nonNullBranches, typeOf, unionOf, type Schema } from './schema-to-param';

type Json = Record<string, unknown>;

/**
 * Binary types, lower-case and without parameters: images (not SVG, which is XML text), audio,
 * video, fonts, PDF, a file of bytes, archives and office documents. *Decision:* a list of what
 * is binary by definition, never a guess from a type's name; any other type is not declared (a
 * client still passes its own `mediaTypes` on).
 */
const BINARY_MEDIA_TYPE =
  /^(?:(?:image|audio|video|font)\/(?:\*|[a-z0-9][a-z0-9!#$&^_.+-]*)|application\/(?:pdf|octet-stream|zip|gzip|x-gzip|x-tar|x-7z-compressed|x-bzip2|wasm|msword|vnd\.ms-excel|vnd\.ms-powerpoint|vnd\.openxmlformats-officedocument\.[a-z0-9.+-]+|vnd\.oasis\.opendocument\.[a-z0-9.+-]+|epub\+zip))$/;

/** `image/PNG; q=1` → `image/png`. */
function bareType(type: string): string {
  return type.split(';', 1)[0]!.trim().toLowerCase();
}

/** True for a binary media type or range (`image/png`, `image/*`, `application/pdf`); `image/svg+xml` is text. */
export function isBinaryMediaType(type: string): boolean {
  const bare = bareType(type);
  return BINARY_MEDIA_TYPE.test(bare) && !bare.endsWith('+xml');
}

/** The operation's success responses (`200`…`299`, `2XX`), in document order. */
function successResponses(operation: Json): Json[] {
  const responses = isRecord(operation['responses']) ? operation['responses'] : {};
  return Object.entries(responses)
    .filter(([code, response]) => /^2(?:\d\d|xx)$/i.test(code) && isRecord(response))
    .map(([, response]) => response as Json);
}

/** Swagger 2's `produces`: the operation's, else the document's. */
function produces(operation: Json, document: Json): string[] {
  const listed = Array.isArray(operation['produces']) ? operation['produces'] : Array.isArray(document['produces']) ? document['produces'] : [];
  return listed.filter((type): type is string => typeof type === 'string');
}

/**
 * The binary media types of an operation's 2xx responses (OpenAPI 3: their `content` keys;
 * Swagger 2: `produces`, when the operation has a 2xx response), lower-case, without
 * parameters, each once, in document order.
 *
 * @example
 * ```ts
 * responseMediaTypesOf({ responses: { 200: { content: { 'image/PNG': {}, 'application/json': {} } } } }, {}, false); // ['image/png']
 * ```
 */
export function responseMediaTypesOf(operation: Json, document: Json, swagger: boolean): string[] {
  const responses = successResponses(operation);
  const types = swagger
    ? responses.length > 0
      ? produces(operation, document)
      : []
    : responses.flatMap((response) => (isRecord(response['content']) ? Object.keys(response['content']) : []));
  return [...new Set(types.filter(isBinaryMediaType).map(bareType))];
}

/** The stream format a media type is, or undefined. */
function streamFormat(type: string): RcpStream['format'] | undefined {
  const bare = bareType(type);
  return STREAM_MEDIA_TYPES.sse.includes(bare) ? 'sse' : STREAM_MEDIA_TYPES.ndjson.includes(bare) ? 'ndjson' : undefined;
}

/** What an operation's 2xx responses say of a stream: the tool's `stream`, or the note of why it has none. */
export type InferredStream = { readonly stream: RcpStream; readonly mediaType: string } | { readonly alsoOther: string; readonly mediaType: string };

/**
 * The stream of an operation (RCP 0.4, SPEC §20.6; docs/behaviour.md "Streams"), or undefined: when every
 * 2xx media type (OpenAPI 3: the `content` keys; Swagger 2: `produces`) is a stream's — SSE, or
 * one of the NDJSON types — the first one's format, collected as an `array` (every event, in
 * order: an SSE event's data text, an NDJSON line's JSON). When a stream type sits beside another
 * (JSON chosen by a request param, as OpenAI's `stream: true` does), no stream: `alsoOther`
 * names the other type, for the report. *Decision:* `array`, because it keeps every event and needs
 * nothing of their shape; `concat` needs the text field of each event, which a schema names only
 * by convention, and `last` keeps one event of many.
 *
 * @example
 * ```ts
 * streamOf({ responses: { 200: { content: { 'text/event-stream': {} } } } }, {}, false);
 * // { stream: { format: 'sse', collect: 'array' }, mediaType: 'text/event-stream' }
 * ```
 */
export function streamOf(operation: Json, document: Json, swagger: boolean): InferredStream | undefined {
  const responses = successResponses(operation);
  const types = swagger
    ? responses.length > 0
      ? produces(operation, document)
      : []
    : responses.flatMap((response) => (isRecord(response['content']) ? Object.keys(response['content']) : []));
  const first = types.find((type) => streamFormat(type) !== undefined);
  if (first === undefined) return undefined;
  const mediaType = bareType(first);
  const other = types.find((type) => streamFormat(type) === undefined);
  if (other !== undefined) return { alsoOther: bareType(other), mediaType };
  return { stream: { format: streamFormat(first)!, collect: 'array' }, mediaType };
}

/** The schema of the first 2xx JSON response (Swagger 2: the first 2xx `schema`, when JSON is produced or nothing is listed). */
function successJsonSchema(operation: Json, document: Json, swagger: boolean): Schema | undefined {
  for (const response of successResponses(operation)) {
    if (swagger) {
      const types = produces(operation, document);
      if (isRecord(response['schema']) && (types.length === 0 || jsonMediaType(types) !== undefined)) return response['schema'];
      continue;
    }
    const content = isRecord(response['content']) ? response['content'] : {};
    const json = jsonMediaType(Object.keys(content));
    const media = json === undefined ? undefined : content[json.type];
    if (isRecord(media) && isRecord(media['schema'])) return media['schema'];
  }
  return undefined;
}

/** The one JSON type a property schema admits besides null (`anyOf: [X, null]` is X), or undefined. */
function valueType(schema: unknown): string | undefined {
  if (!isRecord(schema)) return undefined;
  const merged = mergeAllOf(schema);
  const union = unionOf(merged);
  if (union === undefined) return typeOf(merged);
  const branches = nonNullBranches(union.branches);
  return branches.length === 1 ? typeOf(mergeAllOf(branches[0]!)) : undefined;
}

function propertiesOf(schema: Schema | undefined): Json {
  if (schema === undefined) return {};
  const merged = mergeAllOf(schema);
  return isRecord(merged['properties']) ? merged['properties'] : {};
}

const CURSOR_TYPES: readonly (string | undefined)[] = ['string', 'integer', 'number'];
/** The param names a convention reads (see {@link convention}). */
const CURSOR_PARAMS: readonly string[] = ['cursor', 'start_cursor', 'page_token', 'pageToken', 'starting_after'];

/** The first of `names` that is an own property of the given type(s). */
function propertyOf(properties: Json, names: readonly string[], types: readonly (string | undefined)[]): string | undefined {
  return names.find((name) => Object.hasOwn(properties, name) && types.includes(valueType(properties[name])));
}

/** A pagination read from names, and the rule that read it (for the report). */
export interface InferredPagination {
  readonly pagination: RcpPagination;
  /** `"cursor" → "next_cursor"`: the param and the response property the rule matched. */
  readonly rule: string;
}

/**
 * The cursor convention of one response property set and one param (the document's names), or
 * undefined. Conventions, by the document's param name:
 * - `cursor` or `start_cursor`: a top-level `next_cursor` / `nextCursor` (string or number) is the
 *   next cursor; a boolean `has_more` / `hasMore` beside it says whether there is more (Slack,
 *   Notion);
 * - `page_token` / `pageToken`: a top-level `next_page_token` / `nextPageToken` (Google AIP-158);
 * - `starting_after`: a boolean `has_more` and a `data` array of objects with an `id` — the next
 *   cursor is the last item's id (Stripe).
 */
function convention(param: string, properties: Json): { nextCursor: string; hasMore?: string; rule: string } | undefined {
  const hasMore = propertyOf(properties, ['has_more', 'hasMore'], ['boolean']);
  if (param === 'cursor' || param === 'start_cursor') {
    const next = propertyOf(properties, ['next_cursor', 'nextCursor'], CURSOR_TYPES);
    if (next === undefined) return undefined;
    return {
      nextCursor: `@${next}`,
      ...(hasMore !== undefined && { hasMore: `@${hasMore}` }),
      rule: `"${param}" → "${next}"${hasMore === undefined ? '' : ` and "${hasMore}"`}`,
    };
  }
  if (param === 'page_token' || param === 'pageToken') {
    const next = propertyOf(properties, ['next_page_token', 'nextPageToken'], CURSOR_TYPES);
    return next === undefined ? undefined : { nextCursor: `@${next}`, rule: `"${param}" → "${next}"` };
  }
  if (param === 'starting_after' && hasMore === 'has_more' && Object.hasOwn(properties, 'data')) {
    const data = properties['data'];
    const items = isRecord(data) ? mergeAllOf(data)['items'] : undefined;
    if (valueType(data) !== 'array' || !CURSOR_TYPES.includes(valueType(propertiesOf(isRecord(items) ? items : undefined)['id']))) return undefined;
    return { nextCursor: '@data[-1].id', hasMore: '@has_more', rule: '"starting_after" → the last "data" item\'s "id", and "has_more"' };
  }
  return undefined;
}

/**
 * The pagination of an operation by the naming rule (docs/behaviour.md "Pages"), or undefined: one of the
 * tool's query or body params (`params`: pairs of the document's name and the tool's token; a
 * resolver-bound one never) and the properties of the first 2xx JSON response schema must follow one
 * convention (see {@link convention}). Exactly one param may match; two is ambiguous, and nothing
 * is written.
 *
 * @example
 * ```ts
 * paginationOf(operation, document, false, [['cursor', 'cursor']]);
 * // { pagination: { nextCursor: '@next_cursor', param: 'cursor', hasMore: '@has_more' }, rule: '"cursor" → "next_cursor" and "has_more"' }
 * ```
 */
export function paginationOf(
  operation: Json,
  document: Json,
  swagger: boolean,
  params: Iterable<readonly [original: string, token: string]>,
): InferredPagination | undefined {
  const named = [...params].filter(([original]) => CURSOR_PARAMS.includes(original));
  if (named.length === 0) return undefined; // the response schema is only read when a param may take a cursor
  const properties = propertiesOf(successJsonSchema(operation, document, swagger));
  const found: InferredPagination[] = [];
  for (const [original, token] of named) {
    const match = convention(original, properties);
    if (match === undefined) continue;
    found.push({
      pagination: { nextCursor: match.nextCursor, param: token, ...(match.hasMore !== undefined && { hasMore: match.hasMore }) },
      rule: match.rule,
    });
  }
  return found.length === 1 ? found[0] : undefined;
}
