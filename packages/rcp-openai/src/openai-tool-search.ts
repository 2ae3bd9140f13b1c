import { createToolSet, jsonSchemaCopy, type RcpClient, type RcpContextArgs, type RcpDiscovery, type RcpExecuteOptions, type RcpToolSet } from 'rcp-client';
import { createToolSearch, toolSearchDefinition, type RcpToolSearch, type RcpToolSearchOptions } from 'rcp-search';
import { createOpenAITools, type OpenAIFunctionCallOutput, type OpenAIResponsesItem, type OpenAIResponsesTool, type OpenAIToolsOptions } from './openai-tools';

/**
 * The Responses API's client-executed tool search tool (`{ type: 'tool_search', execution: 'client' }`).
 *
 * @example
 * ```ts
 * const tool: OpenAIToolSearchTool = { type: 'tool_search', execution: 'client', description: 'Find the tools for a task.', parameters: {} };
 * ```
 */
export interface OpenAIToolSearchTool {
  type: 'tool_search';
  execution: 'client';
  description: string;
  parameters: Record<string, unknown>;
}

/**
 * The `tool_search_output` input item that answers one client-executed `tool_search_call`: the
 * found tools' full definitions, which the model may call from then on.
 *
 * @example
 * ```ts
 * const item: OpenAIToolSearchOutput = { type: 'tool_search_output', call_id: 'ts_1', execution: 'client', tools: [] };
 * ```
 */
export interface OpenAIToolSearchOutput {
  type: 'tool_search_output';
  call_id: string;
  execution: 'client';
  tools: OpenAIResponsesTool[];
}

/**
 * Options of {@link createOpenAIToolSearch}: `createOpenAITools`'s (`only`, `namespace`,
 * `strict`) and the search's (`search`: rcp-search's options).
 *
 * @example
 * ```ts
 * createOpenAIToolSearch(client, discovery, { search: { boost: { params: 0 } } });
 * ```
 */
export interface OpenAIToolSearchOptions extends OpenAIToolsOptions {
  /** rcp-search's options for the index. */
  search?: RcpToolSearchOptions;
}

/**
 * A large tool set for the Responses API with client-executed tool search, made by
 * {@link createOpenAIToolSearch}.
 *
 * @example
 * ```ts
 * const rcp = createOpenAIToolSearch(client, discovery);
 * const response = await openai.responses.create({ model, input, tools: rcp.responsesTools });
 * ```
 */
export interface OpenAIToolSearch<Context = any> {
  /**
   * For `responses.create({ tools })`: the client-executed `tool_search` tool — and, when a tool
   * of the set is long-running (RCP 0.4 `operation`), the `check_operation` function tool, which
   * the model needs for the handle a call answers with and no search would find.
   */
  readonly responsesTools: (OpenAIToolSearchTool | OpenAIResponsesTool)[];
  /** The tools, under the names the model sees. */
  readonly toolSet: RcpToolSet;
  /** The index the search answers from (built once, here). */
  readonly search: RcpToolSearch;
  /**
   * Runs a response's `output`: each client `tool_search_call` is answered with a
   * `tool_search_output` carrying the found tools' definitions (none for bad search input),
   * each `function_call` through `client.call` on the same tool set, as `createOpenAITools`
   * runs it. Other items are skipped; the answers keep the output's order.
   * @example
   * ```ts
   * input = await rcp.runOutput(response.output, ctx);
   * ```
   */
  runOutput(
    output: readonly OpenAIResponsesItem[],
    ...rest: RcpContextArgs<Context, [options?: RcpExecuteOptions]>
  ): Promise<(OpenAIToolSearchOutput | OpenAIFunctionCallOutput)[]>;
}

/**
 * A tool set for the Responses API's tool search, with rcp-search as the search
 * (`execution: 'client'`): the model is given one `tool_search` tool, searches, and gets the
 * found tools' definitions back in a `tool_search_output`; no other schema is in its context.
 * Found tools are called through the same tool set and `client.call`: stages, resolvers,
 * approvals and trust rules hold for each. Needs `rcp-search` installed.
 *
 * @example
 * ```ts
 * import { createOpenAIToolSearch } from 'rcp-openai/search';
 *
 * const rcp = createOpenAIToolSearch(client, await client.discover(manifestUrl));
 * const response = await openai.responses.create({ model: 'gpt-5.6-terra', input, tools: rcp.responsesTools });
 * const next = await rcp.runOutput(response.output, { userId: 'u-1' });
 * ```
 */
export function createOpenAIToolSearch<Context = any>(
  client: RcpClient<Context>,
  source: RcpDiscovery | readonly RcpDiscovery[] | RcpToolSet,
  options: OpenAIToolSearchOptions = {},
): OpenAIToolSearch<Context> {
  const { search: searchOptions, strict, ...setOptions } = options;
  const toolSet = createToolSet(source, setOptions);
  const base = createOpenAITools(client, toolSet, strict === undefined ? {} : { strict });
  const search = createToolSearch(toolSet, searchOptions);
  // The answer is a tool_search_output: each found tool's whole definition, schema included.
  const definition = toolSearchDefinition({ toolCount: toolSet.entries.length, inputSchemas: true });
  type Rest = RcpContextArgs<Context, [options?: RcpExecuteOptions]>;

  async function answerSearch(callId: string, args: unknown): Promise<OpenAIToolSearchOutput> {
    // Bad search input (RCP_INVALID_ARGUMENTS) finds no tools: the item has no error field, and
    // the search tool's schema says what it takes.
    const hits = await search.handleCall(args).then(
      ({ tools }) => tools.map((tool) => tool.name),
      () => [],
    );
    const found = new Set(hits);
    return { type: 'tool_search_output', call_id: callId, execution: 'client', tools: base.responsesTools.filter((tool) => found.has(tool.name)) };
  }

  return Object.freeze({
    get responsesTools(): (OpenAIToolSearchTool | OpenAIResponsesTool)[] {
      return [
        { type: 'tool_search' as const, execution: 'client' as const, description: definition.description, parameters: jsonSchemaCopy(definition.inputSchema) },
        // What the base offers beside the set's tools: the check of pending operations, if any.
        ...base.responsesTools.filter((tool) => !toolSet.names.includes(tool.name)),
      ];
    },
    toolSet,
    search,
    async runOutput(output: readonly OpenAIResponsesItem[], ...rest: Rest) {
      const items = output.filter((item) => (item.type === 'tool_search_call' || item.type === 'function_call') && typeof item.call_id === 'string');
      return Promise.all(
        items.map(async (item) =>
          item.type === 'tool_search_call' ? answerSearch(item.call_id as string, item.arguments) : (await base.runFunctionCalls([item], ...rest))[0]!,
        ),
      );
    },
  });
}
