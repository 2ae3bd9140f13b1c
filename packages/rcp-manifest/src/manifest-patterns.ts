import { TOKEN_NAME_SOURCE } from 'rcp-template';
import { HTTP_TOKEN_SOURCE, TOOL_NAME_CHARS } from 'rcp-internal';

/* The patterns of the manifest's structure, shared by its schema (types, JSON Schema file) and its run-time check. */

/** The longest tool name. */
export const TOOL_NAME_MAX_LENGTH = 64;
/** Tool names: what model APIs accept as function names. */
export const TOOL_NAME_PATTERN = `^[${TOOL_NAME_CHARS}]{1,${TOOL_NAME_MAX_LENGTH}}$`;
/** The tool-name rule in words, for messages and schema descriptions. */
export const TOOL_NAME_RULE = `1-${TOOL_NAME_MAX_LENGTH} characters from A-Z a-z 0-9 _ -`;
/** Names that would collide with `Object.prototype`'s machinery: no param (no `{{token}}`) has one. */
export const RESERVED_PARAM_NAMES: readonly string[] = ['__proto__', 'constructor', 'prototype'];
/** Param names: the `{{token}}` name grammar, minus {@link RESERVED_PARAM_NAMES}. */
export const PARAM_NAME_PATTERN = `^(?!(?:${RESERVED_PARAM_NAMES.join('|')})$)${TOKEN_NAME_SOURCE}$`;
/** RFC 9110 `token` (header field names, auth schemes). */
export const HTTP_TOKEN_PATTERN = HTTP_TOKEN_SOURCE;
/** At least one non-whitespace character. */
export const NON_BLANK_PATTERN = '\\S';
/** A response mapping value starts with `@`. */
export const MAPPING_PATH_PATTERN = '^@';
/** An OAuth 2 scope token (RFC 6749 §3.3): printable ASCII but space, `"` and `\\`. */
export const SCOPE_TOKEN_PATTERN = '^[\\x21\\x23-\\x5B\\x5D-\\x7E]+$';
/** A media type or a range of one type (RCP 0.3 `responseMediaTypes`), from media-types.ts. */
export { MEDIA_RANGE_PATTERN } from './media-types';

/** The HTTP methods a tool may use. */
export const HTTP_METHODS: readonly string[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The fields RCP 0.1 to 0.4 define, in document order; any other is warned about and dropped. */
export const MANIFEST_FIELDS: readonly string[] = ['rcpVersion', 'auth', 'groups', 'tools'];
/** What a tool group declares (RCP 0.4): its name (a tool name) and what its tools are for. */
export const GROUP_FIELDS = ['name', 'description'] as const;
export const TOOL_FIELDS = [
  'name',
  'description',
  'method',
  'url',
  'params',
  'queryParams',
  'headers',
  'body',
  'bodyEncoding',
  'auth',
  'responseMappings',
  'effects',
  'responseMediaTypes',
  'pagination',
  'idempotency',
  'group',
  'stream',
  'operation',
] as const;
/** Where a tool's next page is told (RCP 0.3): the cursor's path, the param that takes it, whether there is more. */
export const PAGINATION_FIELDS = ['nextCursor', 'param', 'hasMore'] as const;
/** How a tool takes an idempotency key (RCP 0.4): the header, and how long the server keeps a key. */
export const IDEMPOTENCY_FIELDS = ['header', 'expiresAfterSeconds'] as const;
/** How a tool's streamed answer is collected (RCP 0.4): its format, the collection, the field taken, the event cap. */
export const STREAM_FIELDS = ['format', 'collect', 'field', 'maxEvents'] as const;
/** The stream formats a tool may answer with (RCP 0.4): Server-Sent Events, or JSON one value a line. */
export const STREAM_FORMATS = ['sse', 'ndjson'] as const;
/** How a stream's event values become one result (RCP 0.4): joined text, the last value, or all of them. */
export const STREAM_COLLECTS = ['concat', 'last', 'array'] as const;
/**
 * How a tool's long-running operation is followed (RCP 0.4): where a 202 names its status, how a
 * status answer says done or failed, where the result is, how long to wait between polls.
 */
export const OPERATION_FIELDS = ['statusUrl', 'state', 'done', 'failed', 'result', 'pollSeconds'] as const;
/** A status location read from a response header: `header:` and the header's name. */
export const STATUS_HEADER_PATTERN = `^header:${HTTP_TOKEN_SOURCE.slice(1, -1)}$`;
/** The longest wait between two polls a tool may declare, in seconds (an hour). */
export const MAX_POLL_SECONDS = 3600;
/** What a tool may declare it does (RCP 0.3, the MCP annotation set). */
export const EFFECT_FIELDS = ['readOnly', 'destructive', 'idempotent', 'openWorld'] as const;
/** What a header auth's OAuth hint may say (RCP 0.3): shown to people, never fetched. */
export const OAUTH_HINT_FIELDS = ['scopes', 'issuer', 'grantTypes'] as const;
/** The value details a param and a nested value share (JSON Schema keywords). */
export const DETAIL_FIELDS = ['enum', 'items', 'properties', 'format', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'default'] as const;
export const PARAM_FIELDS = [
  'name',
  'type',
  'description',
  'required',
  'requiredProperties',
  ...DETAIL_FIELDS,
  'filledBy',
  'queryStyle',
  'mediaTypes',
  'maxBytes',
] as const;
/** Who a param is meant to be filled by (RCP 0.4, informational): `"client"`, from the caller's context. */
export const PARAM_FILLERS = ['client'] as const;

/** The query styles a param may declare (RCP 0.4 `queryStyle`). */
export const QUERY_STYLES = ['repeat', 'comma', 'deepObject'] as const;
export const VALUE_FIELDS = ['type', 'description', 'required', ...DETAIL_FIELDS] as const;
/** The fields of each auth type. */
export const AUTH_FIELDS: Readonly<Record<string, readonly string[]>> = {
  none: ['type'],
  header: ['type', 'name', 'scheme', 'oauth'],
  query: ['type', 'name'],
};
