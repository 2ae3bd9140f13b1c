/**
 * The `@jangts/agent-core` model-tool contract, typed from its documentation
 * (`RegisteredModelTool`, `ModelToolRegistry`, `Support`). `@jangts/agent-core` is not
 * published on the npm registry, so these types describe it by shape: anything that fits
 * them works with the real runtime and with the implementation bundled here.
 */

/**
 * A JSON Schema as handed to a model. Typed as any object on purpose, so schemas typed by
 * interfaces (TypeBox, `RcpInputSchema`, zod-to-json-schema output...) fit; registries check
 * at run time that a tool's input schema has `type: 'object'`. Read it as
 * `Record<string, unknown>`.
 *
 * @example
 * ```ts
 * const schema: JsonSchemaObject = { type: 'object', properties: {}, additionalProperties: false };
 * ```
 */
export type JsonSchemaObject = object;

/**
 * A schema adapter: the JSON Schema a model sees, and the synchronous `parse` that turns a
 * model's raw arguments into validated input (or throws). Any validation library fits
 * behind it.
 *
 * @example
 * ```ts
 * const empty: SchemaAdapter<Record<string, never>> = {
 *   jsonSchema: { type: 'object', properties: {}, additionalProperties: false },
 *   parse(value) {
 *     if (!value || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length) {
 *       throw new Error('expected an empty object');
 *     }
 *     return {};
 *   },
 * };
 * ```
 */
export interface SchemaAdapter<T = unknown> {
  /** The JSON Schema shown to the model; must be an object schema (`type: 'object'`). */
  readonly jsonSchema: JsonSchemaObject;
  /** Validates raw arguments and returns the typed input; throws when they are invalid. Synchronous. */
  parse(value: unknown): T;
}

/**
 * Whether a tool is currently active. The contract documents only that omitting it means
 * "active" and that authorisation remains a separate execution boundary; its argument is
 * runtime-defined. The bundled registry stores it untouched and never evaluates it.
 *
 * @example
 * ```ts
 * const signedInOnly: ToolCondition<{ userId?: string }> = (context) => context.userId !== undefined;
 * ```
 */
export type ToolCondition<Context = any> = (context: Context) => boolean;

/**
 * How a tool is advertised by the runtime's `withIntent()`. The contract documents only
 * that omitting it means "not advertised"; its shape is runtime-defined. The bundled
 * registry stores it untouched and never calls it.
 *
 * @example
 * ```ts
 * const asIntent: AsIntent<{ intent: string }> = () => ({ intent: 'search' });
 * ```
 */
export type AsIntent<Intent = any> = (...args: any[]) => Intent;

/**
 * The context a tool's `resolve` runs in: the stage the model's selection was made in.
 *
 * @example
 * ```ts
 * const context: ModelToolContext = { stageId: 'browse' };
 * ```
 */
export interface ModelToolContext {
  /** The stage (transport) the selection came through. */
  readonly stageId: string;
}

/**
 * A model tool definition: what the model sees (`id`, `description`, `inputSchema`) and the
 * synchronous `resolve` that turns validated input into the value handed back to the caller.
 *
 * @example
 * ```ts
 * const greet: ModelTool<{ name: string }, string> = {
 *   id: 'greet',
 *   description: 'Greets someone by name.',
 *   inputSchema: {
 *     jsonSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
 *     parse: (value) => value as { name: string },
 *   },
 *   resolve: (input) => `Hello, ${input.name}`,
 * };
 * ```
 */
export interface ModelTool<Input = unknown, Output = unknown> {
  /** Unique id within its registry; never blank. This is the name the model calls. */
  id: string;
  /** Model-visible description explaining when the capability applies. */
  description: string;
  /** Schema adapter describing and validating the arguments; must be an object schema. */
  inputSchema: SchemaAdapter<Input>;
  /** Omitted means active. Stored, not evaluated, by the bundled registry. */
  active?: ToolCondition | undefined;
  /** Omitted means the tool is not advertised by `withIntent()`. Stored, not evaluated, by the bundled registry. */
  asIntent?: AsIntent | undefined;
  /**
   * Converts validated arguments into the value handed back to the caller. Runs inside the
   * model call, so it must return synchronously; throwing rejects the selection.
   */
  resolve(input: Input, context: ModelToolContext): Output;
}

/**
 * The frozen snapshot a registry stores after validating a {@link ModelTool}.
 *
 * @example
 * ```ts
 * const tool: RegisteredModelTool<string> | undefined = registry.get('greet');
 * Object.isFrozen(tool); // true
 * ```
 */
export type RegisteredModelTool<Output = unknown> = Readonly<ModelTool<unknown, Output>>;

/**
 * A model's selection of a tool: which tool, and its raw (unvalidated) arguments.
 *
 * @example
 * ```ts
 * const selection: ModelToolSelection = { toolId: 'status', input: {} };
 * ```
 */
export interface ModelToolSelection {
  /** The id of the selected tool. */
  readonly toolId: string;
  /** The raw arguments; validated by the tool's schema adapter before `resolve` runs. */
  readonly input: unknown;
}

/**
 * A sealed, immutable registry (or one stage's projection of it): nothing can be added,
 * removed or replaced. This is the contract `ModelToolRegistry.prototype.seal()` returns,
 * typed by shape so the real `@jangts/agent-core` registry fits it too.
 *
 * @example
 * ```ts
 * const sealed: SealedModelToolRegistry<string> = new ModelToolRegistry([greet]).seal();
 * sealed.ids(); // ['greet']
 * ```
 */
export interface SealedModelToolRegistry<Output = unknown> {
  /** The ids of the tools this registry (or projection) offers, in order. */
  ids(): readonly string[];
  /** The frozen tool with this id, or `undefined` when it is not offered here. */
  get(id: string): RegisteredModelTool<Output> | undefined;
  /** A sealed projection offering only `ids`; an id that is not offered here throws. */
  select(ids: readonly string[]): SealedModelToolRegistry<Output>;
  /**
   * Resolves a model's selection synchronously: parses `input` with the tool's schema
   * adapter, then calls its `resolve`. A tool that is unknown, or not offered by this
   * projection, is refused before anything runs.
   */
  resolve(selection: ModelToolSelection, context: ModelToolContext): Output;
}

/**
 * A registry class compatible with the contract: `new Registry(tools).seal()`. The bundled
 * {@link ModelToolRegistry} fits, and so does the real `@jangts/agent-core` one.
 *
 * @example
 * ```ts
 * import { ModelToolRegistry as RealRegistry } from '@jangts/agent-core';
 * const Registry: ModelToolRegistryClass = RealRegistry;
 * ```
 */
export type ModelToolRegistryClass = new (
  tools: readonly ModelTool<any, any>[],
) => {
  seal(): SealedModelToolRegistry<any>;
};
