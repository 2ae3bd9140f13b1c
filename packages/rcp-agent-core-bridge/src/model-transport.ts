import { RcpError } from 'rcp-errors';
import { RcpUnknownToolError, parseToolArguments } from 'rcp-client';
import type { JsonSchemaObject, SealedModelToolRegistry } from './model-tool';
import { frozenCopy } from './internal/frozen';
import { quote } from './internal/quote';

/**
 * One entry of a transport's model-facing tool listing: the wire shape most model APIs
 * take (`name`, `description`, JSON Schema `parameters`).
 *
 * @example
 * ```ts
 * const listing: ModelToolListing = {
 *   name: 'search_courses',
 *   description: 'Searches the course catalog by free-text query.',
 *   parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
 * };
 * ```
 */
export interface ModelToolListing {
  /** The tool id; the model calls the tool by this name. */
  readonly name: string;
  /** The model-visible description. */
  readonly description: string;
  /** The tool's input JSON Schema (a frozen copy; read it as `Record<string, unknown>`). */
  readonly parameters: JsonSchemaObject;
}

/**
 * A tool call as a model emits it: the tool's name and its arguments, either as the JSON
 * text most model APIs return or as an already-parsed object.
 *
 * @example
 * ```ts
 * const call: ModelToolCall = { name: 'search_courses', arguments: '{"query":"algebra"}' };
 * ```
 */
export interface ModelToolCall {
  /** The tool id the model selected. */
  readonly name: string;
  /**
   * JSON text or a parsed value. `undefined` and blank text mean `{}` (some models send
   * nothing for a tool without parameters).
   */
  readonly arguments?: string | Readonly<Record<string, unknown>> | undefined;
}

/**
 * Options of {@link createModelTransport}.
 *
 * @example
 * ```ts
 * const options: ModelTransportOptions<string> = { id: 'recognize', tools: registry.select(['status']) };
 * ```
 */
export interface ModelTransportOptions<Output = unknown> {
  /** The stage id; passed as `stageId` to every `resolve`. Never blank. */
  readonly id: string;
  /** The sealed registry or projection this stage offers (the bundled one or a contract-compatible one). */
  readonly tools: SealedModelToolRegistry<Output>;
}

/**
 * A stage's wire to a model: what it lists, and how a model's tool call becomes the
 * resolved value. Frozen.
 *
 * @example
 * ```ts
 * const transport: ModelTransport<string> = Support.createModelTransport({ id: 'recognize', tools: readOnly });
 * transport.select({ name: 'status', arguments: '{}' }); // 'status'
 * ```
 */
export interface ModelTransport<Output = unknown> {
  /** The stage id. */
  readonly id: string;
  /** The sealed registry or projection behind this transport. */
  readonly tools: SealedModelToolRegistry<Output>;
  /** The model-facing listing of the stage's tools, in `tools.ids()` order (frozen, computed once). */
  catalog(): readonly ModelToolListing[];
  /**
   * Resolves a model's tool call through `tools.resolve` with `stageId` = this transport's
   * id, synchronously. Invalid JSON arguments throw `RCP_INVALID_ARGUMENTS`; the registry
   * refuses unknown tools (`RCP_UNKNOWN_TOOL`), tools outside the stage
   * (`RCP_TOOL_NOT_IN_STAGE`) and invalid input (`RCP_INVALID_ARGUMENTS`).
   */
  select(call: ModelToolCall): Output;
}

const isRegistryLike = (value: unknown): value is SealedModelToolRegistry<unknown> =>
  (typeof value === 'object' || typeof value === 'function') &&
  value !== null &&
  typeof (value as SealedModelToolRegistry).ids === 'function' &&
  typeof (value as SealedModelToolRegistry).get === 'function' &&
  typeof (value as SealedModelToolRegistry).resolve === 'function';

/**
 * Creates a stage's transport over a sealed registry or projection: `catalog()` lists the
 * stage's tools for a model, `select({ name, arguments })` resolves a model's call with
 * `stageId` = `id`. The listing is computed once, when the transport is created.
 *
 * @throws RcpError `RCP_INVALID_OPTIONS` for a blank id or a `tools` that is not a sealed registry.
 * @example
 * ```ts
 * import { ModelToolRegistry, Support } from 'rcp-agent-core-bridge';
 * const registry = new ModelToolRegistry([greet, status]).seal();
 * const readOnly = registry.select(['status']);
 * const transport = Support.createModelTransport({ id: 'recognize', tools: readOnly });
 * console.log(transport.id, readOnly.ids()); // recognize [ 'status' ]
 * ```
 */
export function createModelTransport<Output>(options: ModelTransportOptions<Output>): ModelTransport<Output> {
  const { id, tools } = (options ?? {}) as Partial<ModelTransportOptions<Output>>;
  if (typeof id !== 'string' || id.trim() === '') {
    throw new RcpError('RCP_INVALID_OPTIONS', 'createModelTransport needs a non-blank string id.');
  }
  if (!isRegistryLike(tools)) {
    throw new RcpError('RCP_INVALID_OPTIONS', 'createModelTransport needs tools: a sealed registry or projection.');
  }
  const listing = Object.freeze(
    tools.ids().map((toolId): ModelToolListing => {
      const tool = tools.get(toolId);
      if (tool === undefined) {
        throw new RcpError('RCP_INVALID_TOOL', `The registry lists ${quote(toolId)} but has no such tool.`);
      }
      return Object.freeze({
        name: tool.id,
        description: tool.description,
        parameters: frozenCopy(tool.inputSchema.jsonSchema),
      });
    }),
  );
  const transport: ModelTransport<Output> = {
    id,
    tools,
    catalog: () => listing,
    select(call) {
      if (typeof call !== 'object' || call === null || typeof call.name !== 'string') {
        throw new RcpUnknownToolError('', tools.ids());
      }
      const input = parseToolArguments(call.name, call.arguments);
      return tools.resolve({ toolId: call.name, input }, { stageId: id });
    },
  };
  return Object.freeze(transport);
}
