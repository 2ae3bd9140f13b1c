import { jsonSchema, tool, type StepResult, type Tool, type ToolSet } from 'ai';
import { RcpError, jsonSchemaCopy } from 'rcp-client';
import {
  SEARCH_TOOL_NAME,
  createToolSearch,
  toolSearchDefinition,
  type RcpToolHitsDescription,
  type RcpToolSearch,
  type RcpToolSearchOptions,
} from 'rcp-search';
import type { AISDKTools } from './ai-sdk-tools';

/**
 * Options of {@link createAISDKToolSearch}: rcp-search's (`boost`, `synonyms`, `rank` …) and the
 * tools active from the first step.
 *
 * @example
 * ```ts
 * createAISDKToolSearch(rcp, { alwaysActive: ['get_me'], rank: myEmbeddingRanker });
 * ```
 */
export interface AISDKToolSearchOptions extends RcpToolSearchOptions {
  /**
   * Tools the model has from the first step, besides the search tool (names of `rcp.tools`).
   * @default []
   */
  alwaysActive?: readonly string[];
}

/**
 * Deferred loading for an AI SDK 6 tool set, made by {@link createAISDKToolSearch}: every RCP tool
 * plus `search_tools`, and a `prepareStep` whose `activeTools` are the search tool and the tools
 * the model has found so far — so a step sends the model only those schemas, not 500.
 *
 * @example
 * ```ts
 * const deferred = createAISDKToolSearch(createAISDKTools(client, discovery));
 * await generateText({ model, tools: deferred.tools, prepareStep: deferred.prepareStep, stopWhen: stepCountIs(8), prompt });
 * ```
 */
export interface AISDKToolSearch {
  /** For `generateText`'s `tools`: `rcp.tools` and `search_tools`. */
  readonly tools: AISDKTools['tools'] & { readonly search_tools: Tool<{ query: string; limit?: number }, RcpToolHitsDescription> };
  /**
   * For `generateText` / `streamText`'s `prepareStep`: `{ activeTools }` of the step, from the
   * steps before it (no state is kept: the found tools are read from `search_tools`' results).
   * @example
   * ```ts
   * prepareStep: (step) => ({ ...deferred.prepareStep(step), toolChoice: 'auto' });
   * ```
   */
  prepareStep<TOOLS extends ToolSet>(options: { readonly steps: readonly StepResult<TOOLS>[] }): { activeTools: string[] };
  /**
   * The names active after `steps`: `search_tools`, `check_operation` when the tools offer it
   * (beside long-running tools), `alwaysActive`, then every tool a search returned, in the order
   * found.
   * @example
   * ```ts
   * deferred.activeTools(result.steps); // ['search_tools', 'createRefund', 'getRefund']
   * ```
   */
  activeTools<TOOLS extends ToolSet>(steps: readonly StepResult<TOOLS>[]): string[];
  /** The search itself (rcp-search), over `rcp.toolSet`. */
  readonly search: RcpToolSearch;
}

/** The hits' names in a search tool result, when it is one. */
function foundNames(output: unknown): string[] {
  const tools = (output as Partial<RcpToolHitsDescription> | null)?.tools;
  return Array.isArray(tools) ? tools.flatMap((found: { name?: unknown }) => (typeof found?.name === 'string' ? [found.name] : [])) : [];
}

/**
 * Tool search and deferred loading on AI SDK 6 (docs/behaviour.md): the model starts with one tool,
 * `search_tools` (rcp-search over the tool set: name, description, params, namespace), and each
 * step's `activeTools` adds the tools its searches found, so it reads three schemas instead of
 * 500. A found tool is still one of `rcp.tools`, called through `client.call`: the turn's stage,
 * resolvers, approvals and trust rules hold for it — a found tool outside the stage sends nothing
 * and the model reads `RCP_TOOL_NOT_IN_STAGE` — and a tool the model names without having found
 * it is not active, so the AI SDK refuses the call (`NoSuchToolError`) and nothing is sent.
 * rcp-search is an optional peer dependency of rcp-ai-sdk: this subpath (`rcp-ai-sdk/search`)
 * loads it, the package's main entry never does.
 *
 * @example
 * ```ts
 * import { generateText, stepCountIs } from 'ai';
 * import { createAISDKTools } from 'rcp-ai-sdk';
 * import { createAISDKToolSearch } from 'rcp-ai-sdk/search';
 *
 * const deferred = createAISDKToolSearch(createAISDKTools(client, await client.discover(manifestUrl)));
 * const { text } = await generateText({ model, tools: deferred.tools, prepareStep: deferred.prepareStep, stopWhen: stepCountIs(8), prompt });
 * ```
 */
export function createAISDKToolSearch(rcp: AISDKTools, options: AISDKToolSearchOptions = {}): AISDKToolSearch {
  const { alwaysActive = [], ...searchOptions } = options;
  if (Object.hasOwn(rcp.tools, SEARCH_TOOL_NAME)) {
    throw new RcpError('RCP_INVALID_OPTIONS', `The tool set already has a tool named "${SEARCH_TOOL_NAME}"; rename it (namespace) to add tool search`);
  }
  const unknown = alwaysActive.filter((name) => !Object.hasOwn(rcp.tools, name));
  if (unknown.length > 0)
    throw new RcpError('RCP_INVALID_OPTIONS', `alwaysActive names no tool of the set: ${unknown.map((name) => JSON.stringify(name.slice(0, 64))).join(', ')}`);
  const search = createToolSearch(rcp.toolSet, searchOptions);
  const definition = toolSearchDefinition({ toolCount: rcp.toolSet.entries.length });

  const searchTool = tool<{ query: string; limit?: number }, RcpToolHitsDescription>({
    description: definition.description,
    inputSchema: jsonSchema<{ query: string; limit?: number }>(jsonSchemaCopy(definition.inputSchema)),
    // rcp-search checks the arguments (RCP_INVALID_ARGUMENTS, a tool-error the model reads).
    execute: (input) => search.handleCall(input),
    toModelOutput: ({ output }) => ({ type: 'text', value: output.text }),
  });

  // What the tools hold beside the set's (the check of pending operations, next to long-running
  // tools): no search finds it, and the model needs it for a handle, so it is always active.
  const beside = Object.keys(rcp.tools).filter((name) => !rcp.toolSet.names.includes(name));
  const activeTools = <TOOLS extends ToolSet>(steps: readonly StepResult<TOOLS>[]): string[] => {
    const names = new Set<string>([SEARCH_TOOL_NAME, ...beside, ...alwaysActive]);
    for (const step of steps) {
      for (const result of step.toolResults) {
        if (result.toolName !== SEARCH_TOOL_NAME) continue;
        for (const name of foundNames(result.output)) if (Object.hasOwn(rcp.tools, name)) names.add(name);
      }
    }
    return [...names];
  };

  const tools = Object.freeze({ ...rcp.tools, [SEARCH_TOOL_NAME]: searchTool }) as AISDKToolSearch['tools'];
  return Object.freeze({
    tools,
    prepareStep: <TOOLS extends ToolSet>({ steps }: { readonly steps: readonly StepResult<TOOLS>[] }) => ({ activeTools: activeTools(steps) }),
    activeTools,
    search,
  });
}
