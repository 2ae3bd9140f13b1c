import type { RcpAuth, RcpDeclaredEffects, RcpGroup, RcpHttpMethod, RcpIdempotency, RcpPagination, RcpParam, RcpStream } from 'rcp-manifest';
import type { ReceivedFile } from './received-file';
import type { ToolValues } from './tool-values';

/**
 * A param of a server tool: the manifest's param (name, type, description, required, value
 * details) and, optionally, `bound` — the value the authenticated principal owns. A bound param
 * is compared with what arrived; a mismatch (or no value) is `403` before the handler runs. A
 * client fills it with a resolver, so the model never sees it; the server checks it anyway,
 * because a resolver stops the model, not a rogue client.
 *
 * @example
 * ```ts
 * const learnerId: ServerParam<{ learnerId: string }> = {
 *   name: 'learnerId',
 *   description: "The learner's id",
 *   bound: (principal) => principal.learnerId,
 * };
 * ```
 */
export type ServerParam<Principal = unknown, Name extends string = string> = RcpParam & {
  readonly name: Name;
  /** The principal's own value for this param; a call with any other value is refused with 403. */
  readonly bound?: (principal: Principal) => unknown;
};

/**
 * What a tool's handler receives: the validated values (only declared params; a null-prototype
 * object), the verified principal, the request and the tool's name. `values` is typed from the
 * declared params when `defineTool` infers them ({@link ToolValues}): `{ userId: string; word?: string }`.
 *
 * @example
 * ```ts
 * const handler = ({ values, principal }: ToolCall<{ learnerId: string }, { learnerId: string }>) => ({ id: values.learnerId });
 * ```
 */
export interface ToolCall<Principal = unknown, Values = Record<string, unknown>> {
  readonly values: Values;
  readonly principal: Principal;
  readonly request: Request;
  readonly tool: string;
}

/**
 * A tool's handler: returns a `Response` (sent as it is), for a tool with a `stream` the events
 * (an iterable or async iterable, streamed as SSE or NDJSON), bytes (an `ArrayBuffer`, a typed array
 * such as `Uint8Array` or Node's `Buffer`, a `DataView` or a `Blob`: sent as they are, typed with
 * the `Blob`'s type, else the tool's one declared `responseMediaTypes` entry, else
 * `application/octet-stream`), a JSON value sent as `200 application/json`, or `undefined` (`204`).
 *
 * @example
 * ```ts
 * const handler: ToolHandler = ({ values }) => ({ results: search(String(values.query)) });
 * ```
 */
export type ToolHandler<Principal = unknown, Values = Record<string, unknown>> = (call: ToolCall<Principal, Values>) => unknown;

/**
 * A tool group a server declares (RCP 0.4, SPEC §20.3): its name, written as a tool name, and
 * what its tools are for. Tools name it in their `group`; the manifest lists it in `groups`, read
 * by search, `describeManifest` and adapters with groups of their own (OpenAI Responses
 * namespaces). `Name` is the name's literal type when `createRcpServer` infers it, so a tool in
 * `tools: (tool) => [...]` can only name a declared group.
 *
 * @example
 * ```ts
 * const invoices: ServerGroup<'invoices'> = { name: 'invoices', description: 'Invoices and their payments.' };
 * ```
 */
export type ServerGroup<Name extends string = string> = RcpGroup & { readonly name: Name };

/**
 * A tool declared beside the handler that serves it. Everything but `handler` and `bound` is
 * what the manifest says (SPEC §4): `path` is the tool's `url`, a path starting with `/`
 * (relative to the manifest's origin) with `{{token}}` placeholders, one token per segment at
 * most. `ParamName` is the union of the declared params' names, inferred by `defineTool`, so that
 * `pagination.param` names one of them.
 *
 * @example
 * ```ts
 * import { defineTool } from 'rcp-server';
 *
 * const searchCourses = defineTool({
 *   name: 'search_courses',
 *   description: 'Searches the course catalog by free-text query.',
 *   method: 'GET',
 *   path: '/api/courses/search',
 *   params: [{ name: 'query', required: true, description: 'Free-text search term' }],
 *   queryParams: { q: '{{query}}' },
 *   handler: ({ values }) => ({ query: values.query, results: [] }),
 * });
 * ```
 */
export interface ServerTool<Principal = unknown, ParamName extends string = string, Values = Record<string, unknown>, GroupName extends string = string> {
  readonly name: string;
  readonly description: string;
  readonly method: RcpHttpMethod;
  readonly path: string;
  readonly params?: readonly ServerParam<Principal, ParamName>[];
  readonly queryParams?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /**
   * How the body is sent (SPEC §16.1, §20.7): JSON (the default), `form`, or `multipart` (RCP 0.4):
   * `multipart/form-data`, each top-level field of `body` one part, a `file` param's field a file
   * part. The handler receives each file param as a {@link ReceivedFile} (name, media type, size,
   * bytes), checked against the param's `mediaTypes` and `maxBytes` and the server's
   * `maxUploadBytes` before it runs. Using it makes the manifest `"0.4"`.
   * @example
   * ```ts
   * params: [{ name: 'image', type: 'file', mediaTypes: ['image/png'], maxBytes: 5_000_000 }, { name: 'caption' }],
   * body: { image: '{{image}}', caption: '{{caption}}' },
   * bodyEncoding: 'multipart',
   * ```
   */
  readonly bodyEncoding?: 'json' | 'form' | 'multipart';
  readonly auth?: RcpAuth;
  readonly responseMappings?: Readonly<Record<string, string>>;
  /**
   * What the tool does (RCP 0.3, the MCP annotation set), for clients' approval policy and MCP
   * hosts: `{ destructive: true }`, `{ readOnly: true }` on a search by POST … A claim can only
   * add caution to what the method says (SPEC §18.1).
   */
  readonly effects?: RcpDeclaredEffects;
  /**
   * Media types the tool answers with besides JSON and text (RCP 0.3, SPEC §18.3):
   * `['image/png']`, `['application/pdf', 'image/*']`. A client passes such an answer to the model
   * as a media part (the exact bytes). The handler answers with the bytes (typed with the one
   * declared type when there is exactly one, not a range) or a `Response` carrying the bytes and
   * the type. Using it makes the manifest `"0.3"`.
   */
  readonly responseMediaTypes?: readonly string[];
  /**
   * Where the next page's cursor is in the JSON answer and which declared param takes it (RCP
   * 0.3, SPEC §18.4): `{ nextCursor: '@next', param: 'cursor', hasMore?: '@has_more' }`. A client
   * tells the model the exact arguments of the next call. Using it makes the manifest `"0.3"`.
   */
  readonly pagination?: Omit<RcpPagination, 'param'> & { readonly param: NoInfer<ParamName> };
  /**
   * The tool takes an idempotency key (RCP 0.4, SPEC §20): `{ header: 'Idempotency-Key' }`, and
   * optionally its own `expiresAfterSeconds`. Every call must carry a key (a Structured Fields
   * string); the first response is stored and replayed for the same key and request, so a retry
   * never runs the handler twice. Using it makes the manifest `"0.4"`.
   */
  readonly idempotency?: RcpIdempotency;
  /**
   * The group the tool is in (RCP 0.4, SPEC §20.3): the `name` of one of the server's `groups`,
   * written the same. In `tools: (tool) => [...]` an undeclared name is a type error; anywhere,
   * `createRcpServer` refuses it (`RCP_INVALID_MANIFEST` at `/tools/N/group`, naming the tool).
   * Using it makes the manifest `"0.4"`.
   */
  readonly group?: GroupName;
  /**
   * The tool answers with a stream of events that a client collects into one result (RCP 0.4,
   * SPEC §20.6): `{ format: 'sse' | 'ndjson', collect: 'concat' | 'last' | 'array', field?,
   * maxEvents? }`, the manifest's shape, checked by rcp-manifest's rules. The handler returns an
   * iterable or async iterable of events (an async generator: `async function* () { yield … }`),
   * written one chunk per event as it yields them — SSE `data:` lines (a string as its text, any
   * other value as JSON) or one JSON line each — or a `Response` of its own. Using it makes the
   * manifest `"0.4"`.
   * @example
   * ```ts
   * stream: { format: 'sse', collect: 'concat', field: '@delta' },
   * handler: async function* () { yield { delta: 'Hel' }; yield { delta: 'lo' }; },
   * ```
   */
  readonly stream?: RcpStream;
  readonly handler: ToolHandler<Principal, Values>;
}

/**
 * Any tool of a server whose principal is `Principal`, whatever its params: what
 * `createRcpServer`'s `tools` takes (a tool's typed `values` are its own).
 *
 * @example
 * ```ts
 * const tools: AnyServerTool<{ userId: string }>[] = [getProfile, listNotes];
 * ```
 */
export type AnyServerTool<Principal = unknown> = ServerTool<Principal, string, never>;

/**
 * What `defineTool` takes: a {@link ServerTool} whose `params` (a literal list) and `path` are
 * kept as written, so that the handler's `values` are typed from them. `GroupName` is what its
 * `group` may be: any string for `defineTool`, the server's declared names for the `tool` that
 * `createRcpServer({ groups, tools: (tool) => [...] })` passes ({@link DefineTool}).
 *
 * @example
 * ```ts
 * const definition: ToolDefinition<{ userId: string }, readonly [{ name: 'userId'; required: true }], '/users/{{userId}}'> = {
 *   name: 'get_user', description: 'Gets a user.', method: 'GET', path: '/users/{{userId}}',
 *   params: [{ name: 'userId', required: true }],
 *   handler: ({ values }) => ({ id: values.userId }),
 * };
 * ```
 */
export type ToolDefinition<Principal, Params extends readonly ServerParam<Principal>[], Path extends string, GroupName extends string = string> = Omit<
  ServerTool<Principal, Params[number]['name'], ToolValues<Params, Path>, GroupName>,
  'params' | 'path'
> & {
  readonly path: Path;
  readonly params?: Params;
};

/**
 * `defineTool` for a server whose principal type is known: what `createRcpServer({ tools: (tool) => [...] })`
 * passes, so each tool's `bound` and handler get the principal of `verify` without a type argument,
 * and its `group` is one of the server's declared `groups` (`GroupName`, their names; a type
 * error otherwise). A list kept in its own file names the groups its tools use:
 * `DefineTool<Principal, 'invoices'>` fits a server that declares `invoices` (and any others);
 * `DefineTool<Principal>` is for tools in no group, and fits every server.
 *
 * @example
 * ```ts
 * const notesTools = (tool: DefineTool<{ userId: string }>) => [
 *   tool({ name: 'list_notes', description: 'Lists notes.', method: 'GET', path: '/users/{{userId}}/notes',
 *     params: [{ name: 'userId', bound: (principal) => principal.userId }], handler: ({ values }) => values.userId }),
 * ];
 * const billingTools = (tool: DefineTool<{ userId: string }, 'invoices'>) => [
 *   tool({ name: 'list_invoices', description: 'Lists invoices.', method: 'GET', path: '/invoices', group: 'invoices', handler: () => [] }),
 * ];
 * ```
 */
export type DefineTool<Principal, GroupName extends string = never> = <
  const Params extends readonly ServerParam<Principal>[] = readonly ServerParam<Principal>[],
  const Path extends string = string,
>(
  tool: ToolDefinition<Principal, Params, Path, GroupName>,
) => ServerTool<Principal, Params[number]['name'], ToolValues<Params, Path>>;

/**
 * Declares one tool (an identity function that keeps the types): the place to write a tool next
 * to its handler before handing it to `createRcpServer`. The params and the path are inferred as
 * written, so the handler's `values` are typed from them (`{ userId: string; word?: string }`,
 * {@link ToolValues}) and `pagination.param` must be one of the declared names (a type error
 * otherwise; `createRcpServer` refuses it at run time in any case). The principal type comes from
 * the server: `createRcpServer({ verify, tools: (tool) => [tool({ … })] })` passes this function
 * typed with `verify`'s principal ({@link DefineTool}); `defineTool<Principal>(…)` fixes it by
 * hand, but then the params are not inferred and `values` is `Record<string, unknown>`.
 *
 * @example
 * ```ts
 * import { defineTool } from 'rcp-server';
 *
 * const catalog = defineTool({
 *   name: 'search_courses',
 *   description: 'Searches the course catalog by free-text query.',
 *   method: 'GET',
 *   path: '/api/courses/search',
 *   params: [{ name: 'query', required: true }, { name: 'limit', type: 'integer' }],
 *   queryParams: { q: '{{query}}', limit: '{{limit}}' },
 *   handler: ({ values }) => ({ query: values.query, results: [] }), // values: { query: string; limit?: number }
 * });
 * ```
 */
export function defineTool<
  Principal = unknown,
  const Params extends readonly ServerParam<Principal>[] = readonly ServerParam<Principal>[],
  const Path extends string = string,
>(tool: ToolDefinition<Principal, Params, Path>): ServerTool<Principal, Params[number]['name'], ToolValues<Params, Path>> {
  return tool as ServerTool<Principal, Params[number]['name'], ToolValues<Params, Path>>;
}
