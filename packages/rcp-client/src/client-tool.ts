import type { RcpAuth, RcpDeclaredEffects, RcpHttpMethod, RcpOutputSchema, RcpParamType, RcpStream, RcpToolEffects, RcpValueType } from 'rcp-manifest';

/**
 * One property of a tool's model-facing {@link RcpInputSchema}.
 *
 * @example
 * ```ts
 * const property: RcpInputSchemaProperty = { type: 'string', description: 'Free-text search term' };
 * const status: RcpInputSchemaProperty = { type: 'string', enum: ['open', 'closed'] };
 * ```
 */
export interface RcpInputSchemaProperty {
  /** A JSON type; a file param's is `'string'` (marked by `x-rcp-file`). */
  readonly type: RcpValueType;
  /** The param's description; absent when the manifest gives none. */
  readonly description?: string;
  /** The only values allowed. */
  readonly enum?: readonly (string | number | boolean)[];
  /** An array's elements. */
  readonly items?: RcpInputSchemaProperty;
  /** An object's properties (then no other key is allowed: `additionalProperties: false`). */
  readonly properties?: Readonly<Record<string, RcpInputSchemaProperty>>;
  /** An object's required properties. */
  readonly required?: readonly string[];
  readonly additionalProperties?: false;
  /** A JSON Schema format (`date-time`, `email` …), for the model; not checked. */
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  /** What the server uses when the argument is not given (the client never sends it). */
  readonly default?: unknown;
  /**
   * Marks a file param (RCP 0.4; `type` is then `'string'`): the model gives an attachment
   * reference, which the client's `files` resolver turns into a file. Its accepted media types
   * and largest size, when the param declares them.
   */
  readonly 'x-rcp-file'?: { readonly mediaTypes?: readonly string[]; readonly maxBytes?: number };
}

/**
 * The JSON Schema a model fills for a tool. Resolver-bound params are absent from
 * `properties` and `required`: the model cannot supply them.
 *
 * @example
 * ```ts
 * const schema: RcpInputSchema = {
 *   type: 'object',
 *   properties: { query: { type: 'string', description: 'Free-text search term' } },
 *   required: ['query'],
 *   additionalProperties: false,
 * };
 * ```
 */
export interface RcpInputSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, RcpInputSchemaProperty>>;
  readonly required: readonly string[];
  readonly additionalProperties: false;
}

/**
 * A declared param of a tool, as the client sees it: type defaulted, `required` forced for
 * path params, and `resolved` when a resolver of this client fills it.
 *
 * @example
 * ```ts
 * const param: RcpClientToolParam = {
 *   name: 'userId', type: 'string', required: true, description: "the user's id", resolved: true, looksLikeIdentity: false,
 * };
 * ```
 */
export interface RcpClientToolParam {
  readonly name: string;
  readonly type: RcpParamType;
  readonly required: boolean;
  /** '' when the manifest gives none. */
  readonly description: string;
  /** True when a resolver of the client fills this param (hidden from the model). */
  readonly resolved: boolean;
  /**
   * True when no resolver fills this param but its name looks like an identity the operator
   * knows (`userId`, `tenant_id` ...): the model chooses its value. A discovery warning says so.
   */
  readonly looksLikeIdentity: boolean;
}

/**
 * A tool group (RCP 0.4, SPEC §20.3): the manifest's group a tool names, as the client gives it —
 * one frozen object per group of a discovery, shared by its tools. `description` is the server's
 * text (untrusted: escape it where you show it), `''` when the manifest gives none.
 *
 * @example
 * ```ts
 * const group: RcpToolGroup = { name: 'invoices', description: 'Invoices and their payments.' };
 * ```
 */
export interface RcpToolGroup {
  readonly name: string;
  readonly description: string;
}

/**
 * A tool returned by `client.discover()`: a frozen plain object to show a model
 * (`name`, `description`, `inputSchema`) and to pass back to `execute` / `prepare`.
 * The compiled request lives inside the client, keyed by this exact object: a copy or a
 * hand-made look-alike is refused with `RCP_INVALID_TOOL`.
 *
 * @example
 * ```ts
 * const { tools } = await client.discover('https://example.com/rcp/manifest');
 * const modelTools = tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
 * ```
 */
export interface RcpClientTool {
  readonly name: string;
  readonly description: string;
  readonly method: RcpHttpMethod;
  /** The absolute URL template (relative manifest URLs resolved against the manifest URL). */
  readonly url: string;
  /** The origin every call of this tool goes to. */
  readonly origin: string;
  /** The URL of the manifest this tool comes from. */
  readonly manifestUrl: string;
  /** The model-facing JSON Schema of the arguments. */
  readonly inputSchema: RcpInputSchema;
  /**
   * The JSON Schema of a successful result's `data`, for a tool with `responseMappings` (SPEC
   * §9): an object with one property per mapped field — any value for a singular path (left out
   * when the response has none), an array for any other (always there). MCP's `outputSchema`.
   * Absent for a tool without mappings (its data is the response as sent).
   * @example
   * ```ts
   * tool.outputSchema; // { type: 'object', properties: { name: {}, tags: { type: 'array' } }, required: ['tags'], additionalProperties: false }
   * ```
   */
  readonly outputSchema?: RcpOutputSchema;
  /** Names of the params a resolver fills (absent from `inputSchema`). */
  readonly resolvedParams: readonly string[];
  /** Every declared param, including resolver-bound ones. */
  readonly params: readonly RcpClientToolParam[];
  /** The effective auth: the tool's own, or the manifest's. */
  readonly auth: RcpAuth;
  /**
   * What a call does, for approval policy and hosts: the method's defaults, the manifest's
   * claims only adding caution (rcp-manifest's `toolEffects`, SPEC §18.1).
   */
  readonly effects: RcpToolEffects;
  /** The manifest's own claims (RCP 0.3), as written; absent when it makes none. */
  readonly declaredEffects?: RcpDeclaredEffects;
  /**
   * The group the tool is in (RCP 0.4 `group`, SPEC §20.3), the same object for every tool of
   * that group in one discovery; absent when the tool names none.
   * @example
   * ```ts
   * tool.group; // { name: 'invoices', description: 'Invoices and their payments.' }
   * ```
   */
  readonly group?: RcpToolGroup;
  /**
   * `true` when the tool declares a long-running operation (RCP 0.4 `operation`, SPEC §20.8): a
   * call may end `pending`, with a handle that `client.resume` checks later (adapters offer the
   * model a check tool then). Absent otherwise.
   * @example
   * ```ts
   * if (discovery.tools.some((tool) => tool.longRunning)) registerCheckTool();
   * ```
   */
  readonly longRunning?: true;
  /**
   * The tool's streamed answer as declared (RCP 0.4 `stream`, SPEC §20.6): its format, how the
   * events are collected, and `maxEvents`. Absent otherwise (and in an older manifest, which
   * ignores it). Adapters read it to report progress (a progress total from `maxEvents`).
   * @example
   * ```ts
   * tool.stream; // { format: 'sse', collect: 'concat', field: '@delta.text', maxEvents: 10000 }
   * ```
   */
  readonly stream?: RcpStream;
}
