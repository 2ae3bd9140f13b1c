import { jsonSchema, tool, type Tool, type ToolSet } from 'ai';
import {
  RcpError,
  createToolSet,
  toModelResult,
  validateArguments,
  type ModelResult,
  type RcpClient,
  type RcpContextArgs,
  type RcpDiscovery,
  type RcpExecuteOptions,
  type RcpToolFilter,
  type RcpToolSet,
  type RcpToolSetOptions,
} from 'rcp-client';

/**
 * What a tool call runs with: the context the client's resolvers read, and the stage the turn
 * is in (a key of `stages`), if any.
 *
 * @example
 * ```ts
 * const turn: AISDKTurn<{ userId: string }> = { ctx: { userId: 'u-1' }, stage: 'browse' };
 * ```
 */
export interface AISDKTurn<Context> {
  readonly ctx: Context;
  readonly stage?: string | undefined;
}

/**
 * Options of {@link createAISDKTools}.
 *
 * @example
 * ```ts
 * createAISDKTools(client, discovery, {
 *   stages: { browse: ['list_notes', 'get_note'], act: () => true },
 *   turn: (context) => context as AISDKTurn<{ userId: string }>,
 * });
 * ```
 */
export interface AISDKToolsOptions<Context> extends RcpToolSetOptions {
  /**
   * Stages by id: the tools each may use. `activeTools(stage)` lists them for `generateText`'s
   * `activeTools` / `prepareStep`, and a call in a stage to a tool outside it sends nothing.
   * @default {}
   */
  stages?: Readonly<Record<string, RcpToolFilter>>;
  /**
   * The context and stage of the turn, from `generateText`'s `experimental_context`.
   * @default `(context) => ({ ctx: context ?? ctx })`: the experimental context is the ctx
   */
  turn?: (experimentalContext: unknown) => AISDKTurn<Context>;
  /**
   * A fixed context for every call (one user per tool set), used when the turn gives none.
   * @default undefined
   */
  ctx?: Context;
}

/**
 * RCP tools as an AI SDK tool set, made by {@link createAISDKTools}.
 *
 * @example
 * ```ts
 * const rcp = createAISDKTools(client, discovery, { stages: { browse: ['list_notes'] } });
 * await generateText({ model, tools: rcp.tools, activeTools: rcp.activeTools('browse'), prompt });
 * ```
 */
export interface AISDKTools {
  /** For `generateText` / `streamText`'s `tools`. */
  readonly tools: ToolSet & Record<string, Tool<Record<string, unknown>, ModelResult>>;
  /**
   * The names of a stage's tools, for `activeTools` (or `prepareStep`'s); an unknown stage is
   * `RCP_INVALID_OPTIONS`.
   * @example
   * ```ts
   * prepareStep: () => ({ activeTools: rcp.activeTools('act') });
   * ```
   */
  activeTools(stage: string): string[];
  /** The tools, under the names the model sees. */
  readonly toolSet: RcpToolSet;
}

/**
 * Turns discovered RCP tools into a Vercel AI SDK tool set: `tool({ description, inputSchema,
 * execute })` per tool, where `inputSchema` is `jsonSchema(schema, { validate })` with RCP's
 * own argument validation (so the AI SDK refuses bad input itself), and `execute` runs
 * `client.call` with the turn's context and the AI SDK's `abortSignal`. What a call runs into
 * (an HTTP error, a missing user, a tool outside the stage) is returned as `toModelResult`'s
 * object for the model to read, never thrown. Resolver-bound params are in no schema and no
 * description.
 *
 * @example
 * ```ts
 * import { generateText, stepCountIs } from 'ai';
 * import { createAISDKTools } from 'rcp-ai-sdk';
 *
 * const rcp = createAISDKTools(client, await client.discover(manifestUrl));
 * const { text } = await generateText({ model, tools: rcp.tools, stopWhen: stepCountIs(5), prompt, experimental_context: { userId: 'u-1' } });
 * ```
 */
export function createAISDKTools<Context = any>(
  client: RcpClient<Context>,
  source: RcpDiscovery | readonly RcpDiscovery[] | RcpToolSet,
  options: AISDKToolsOptions<Context> = {},
): AISDKTools {
  const { stages = {}, turn, ctx: fixedCtx, ...setOptions } = options;
  const toolSet = createToolSet(source, setOptions);
  const stageSets = new Map(Object.entries(stages).map(([id, only]) => [id, toolSet.select(only, { stage: id })]));
  const turnOf = turn ?? ((context: unknown): AISDKTurn<Context> => ({ ctx: (context ?? fixedCtx) as Context }));

  const tools: Record<string, Tool<Record<string, unknown>, ModelResult>> = {};
  for (const { name, tool: rcpTool } of toolSet.entries) {
    tools[name] = tool<Record<string, unknown>, ModelResult>({
      description: rcpTool.description,
      inputSchema: jsonSchema<Record<string, unknown>>(structuredClone(rcpTool.inputSchema) as never, {
        validate: (value) => {
          try {
            return { success: true, value: validateArguments(rcpTool, value) };
          } catch (error) {
            return { success: false, error: error as Error };
          }
        },
      }),
      execute: async (input, { abortSignal, experimental_context }) => {
        const { ctx, stage } = turnOf(experimental_context);
        const scope = stage === undefined ? toolSet : stageSets.get(stage);
        // A stage the tool set does not define lets nothing through.
        const rest = [ctx ?? fixedCtx, abortSignal === undefined ? {} : { signal: abortSignal }] as RcpContextArgs<
          Context,
          [options?: RcpExecuteOptions]
        >;
        const outcome = await client.call(scope ?? toolSet.select([], { stage }), { name, arguments: { ...input } }, ...rest);
        return toModelResult(outcome);
      },
    });
  }

  return Object.freeze({
    tools: Object.freeze(tools) as AISDKTools['tools'],
    activeTools: (stage: string) => {
      const set = stageSets.get(stage);
      if (set === undefined) {
        const known = [...stageSets.keys()].join(', ') || 'none';
        throw new RcpError('RCP_INVALID_OPTIONS', `No stage "${stage}" in this tool set (its stages: ${known})`);
      }
      return [...set.names];
    },
    toolSet,
  });
}
