import type { RcpAuth, RcpDeclaredEffects, RcpHttpMethod, RcpIdempotency, RcpPagination, RcpParam } from 'rcp-manifest';

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
 * What a tool's handler receives: the validated values (only declared params, typed; a
 * null-prototype object), the verified principal, the request and the tool's name.
 *
 * @example
 * ```ts
 * const handler = ({ values, principal }: ToolCall<{ learnerId: string }>) => ({ id: values.learnerId });
 * ```
 */
export interface ToolCall<Principal = unknown> {
  readonly values: Record<string, unknown>;
  readonly principal: Principal;
  readonly request: Request;
  readonly tool: string;
}

/**
 * A tool's handler: returns a `Response` (sent as it is), bytes (an `ArrayBuffer`, a typed array
 * such as `Uint8Array` or Node's `Buffer`, a `DataView` or a `Blob`: sent as they are, typed with
 * the `Blob`'s type, else the tool's one declared `responseMediaTypes` entry, else
 * `application/octet-stream`), a JSON value sent as `200 application/json`, or `undefined` (`204`).
 *
 * @example
 * ```ts
 * const handler: ToolHandler = ({ values }) => ({ results: search(String(values.query)) });
 * ```
 */
export type ToolHandler<Principal = unknown> = (call: ToolCall<Principal>) => unknown;

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
export interface ServerTool<Principal = unknown, ParamName extends string = string> {
  readonly name: string;
  readonly description: string;
  readonly method: RcpHttpMethod;
  readonly path: string;
  readonly params?: readonly ServerParam<Principal, ParamName>[];
  readonly queryParams?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  readonly bodyEncoding?: 'json' | 'form';
  readonly auth?: RcpAuth;
  readonly responseMappings?: Readonly<Record<string, string>>;
  /**
   * What the tool does (RCP 0.3, the MCP annotation set), for clients' approval policy and MCP
   * hosts: `{ destructive: true }`, `{ readOnly: true }` on a search by POST … A claim can only
   * add caution to what the method says (SPEC §25.1).
   */
  readonly effects?: RcpDeclaredEffects;
  /**
   * Media types the tool answers with besides JSON and text (RCP 0.3, SPEC §25.3):
   * `['image/png']`, `['application/pdf', 'image/*']`. A client passes such an answer to the model
   * as a media part (the exact bytes). The handler answers with the bytes (typed with the one
   * declared type when there is exactly one, not a range) or a `Response` carrying the bytes and
   * the type. Using it makes the manifest `"0.3"`.
   */
  readonly responseMediaTypes?: readonly string[];
  /**
   * Where the next page's cursor is in the JSON answer and which declared param takes it (RCP
   * 0.3, SPEC §25.4): `{ nextCursor: '@next', param: 'cursor', hasMore?: '@has_more' }`. A client
   * tells the model the exact arguments of the next call. Using it makes the manifest `"0.3"`.
   */
  readonly pagination?: Omit<RcpPagination, 'param'> & { readonly param: NoInfer<ParamName> };
  /**
   * The tool takes an idempotency key (RCP 0.4, SPEC §27): `{ header: 'Idempotency-Key' }`, and
   * optionally its own `expiresAfterSeconds`. Every call must carry a key (a Structured Fields
   * string); the first response is stored and replayed for the same key and request, so a retry
   * never runs the handler twice. Using it makes the manifest `"0.4"`.
   */
  readonly idempotency?: RcpIdempotency;
  readonly handler: ToolHandler<Principal>;
}

/**
 * Declares one tool (an identity function that keeps the principal type): the place to write a
 * tool next to its handler before handing the list to `createRcpServer`. When the type arguments
 * are inferred, `pagination.param` must be one of the declared params' names (a type error
 * otherwise; `createRcpServer` refuses it at run time in any case).
 *
 * @example
 * ```ts
 * import { defineTool } from 'rcp-server';
 *
 * const profile = defineTool<{ learnerId: string }>({
 *   name: 'get_learner_profile',
 *   description: "Fetches a learner's plan and progress by id.",
 *   method: 'GET',
 *   path: '/api/learners/{{learnerId}}/profile',
 *   params: [{ name: 'learnerId', description: "The learner's id", bound: (principal) => principal.learnerId }],
 *   handler: ({ values }) => ({ id: values.learnerId }),
 * });
 * ```
 */
export function defineTool<Principal = unknown, const ParamName extends string = string>(
  tool: ServerTool<Principal, ParamName>,
): ServerTool<Principal, ParamName> {
  return tool;
}
