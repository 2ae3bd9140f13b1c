import {
  createToolSet,
  RcpError,
  toModelResult,
  toModelText,
  type RcpClient,
  type RcpContextArgs,
  type RcpDiscovery,
  type RcpExecuteOptions,
  type RcpToolSet,
  type RcpToolSetOptions,
} from 'rcp-client';
import { createToolSearch, SEARCH_TOOL_NAME, toolSearchDefinition, type RcpToolSearch, type RcpToolSearchOptions } from 'rcp-search';
import { createAnthropicTools, type AnthropicContentBlock, type AnthropicTool, type AnthropicToolResult } from './anthropic-tools';
import { toAnthropicInputSchema } from './input-schema';

/**
 * A tool definition whose schema the model loads only when the search tool references it
 * (`defer_loading: true`, Messages API tool search).
 *
 * @example
 * ```ts
 * const tool: AnthropicDeferredTool = { ...rcp.tools[0]!, defer_loading: true };
 * ```
 */
export interface AnthropicDeferredTool extends AnthropicTool {
  defer_loading: true;
}

/**
 * Options of {@link createAnthropicToolSearch}: the tool set's (`only`, `namespace`) and the
 * search's (`search`: field weights, synonyms, a ranking hook — rcp-search's options).
 *
 * @example
 * ```ts
 * createAnthropicToolSearch(client, discovery, { search: { boost: { params: 0 } } });
 * ```
 */
export interface AnthropicToolSearchOptions extends RcpToolSetOptions {
  /** rcp-search's options for the index. */
  search?: RcpToolSearchOptions;
}

/**
 * A large tool set for the Messages API with client-side tool search, made by
 * {@link createAnthropicToolSearch}.
 *
 * @example
 * ```ts
 * const rcp = createAnthropicToolSearch(client, discovery);
 * const message = await anthropic.messages.create({ model, max_tokens: 1024, messages, tools: rcp.tools });
 * ```
 */
export interface AnthropicToolSearch<Context = any> {
  /**
   * For `messages.create({ tools })`: the search tool (`search_tools`, loaded) first, then every
   * tool of the set with `defer_loading: true`, then — when a tool of the set is long-running —
   * `check_operation`, loaded. Fresh copies on every read.
   */
  readonly tools: (AnthropicTool | AnthropicDeferredTool)[];
  /** The tools, under the names the model sees. */
  readonly toolSet: RcpToolSet;
  /** The index the search tool answers from (built once, here). */
  readonly search: RcpToolSearch;
  /**
   * Runs the `tool_use` blocks of an assistant message: a `search_tools` use is answered with
   * one `tool_reference` block per found tool (`{"tools":[]}` text when none matched; an
   * `is_error` result for bad search input), every other use through `client.call` on the same
   * tool set, as `createAnthropicTools` runs it. One `tool_result` per use, in order.
   * @example
   * ```ts
   * messages.push({ role: 'user', content: await rcp.runToolUses(message.content, ctx) });
   * ```
   */
  runToolUses(content: readonly AnthropicContentBlock[], ...rest: RcpContextArgs<Context, [options?: RcpExecuteOptions]>): Promise<AnthropicToolResult[]>;
}

/**
 * A tool set for the Messages API's tool search, with rcp-search as the search: every tool is
 * sent with `defer_loading: true` (its schema is not in the model's context), beside a
 * client-side `search_tools` tool whose results are `tool_reference` blocks, so the model loads
 * only the tools it found. Found tools are called through the same tool set and `client.call`:
 * stages, resolvers, approvals and trust rules hold for each. Needs `rcp-search` installed.
 * A tool of the set named `search_tools` is `RCP_INVALID_OPTIONS` (pass `only` to leave it out).
 *
 * @example
 * ```ts
 * import { createAnthropicToolSearch } from 'rcp-anthropic/search';
 *
 * const rcp = createAnthropicToolSearch(client, await client.discover(manifestUrl));
 * const message = await anthropic.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 1024, messages, tools: rcp.tools });
 * messages.push({ role: 'assistant', content: message.content }, { role: 'user', content: await rcp.runToolUses(message.content, ctx) });
 * ```
 */
export function createAnthropicToolSearch<Context = any>(
  client: RcpClient<Context>,
  source: RcpDiscovery | readonly RcpDiscovery[] | RcpToolSet,
  options: AnthropicToolSearchOptions = {},
): AnthropicToolSearch<Context> {
  const { search: searchOptions, ...setOptions } = options;
  const toolSet = createToolSet(source, setOptions);
  if (toolSet.names.includes(SEARCH_TOOL_NAME)) {
    throw new RcpError('RCP_INVALID_OPTIONS', `A tool of the set is named "${SEARCH_TOOL_NAME}", the search tool's name: leave it out with \`only\``);
  }
  const base = createAnthropicTools(client, toolSet);
  const search = createToolSearch(toolSet, searchOptions);
  // The answer is tool_reference blocks: the API loads each found tool's whole definition, schema included.
  const definition = toolSearchDefinition({ toolCount: toolSet.entries.length, inputSchemas: true });
  type Rest = RcpContextArgs<Context, [options?: RcpExecuteOptions]>;

  async function answerSearch(id: string, input: unknown): Promise<AnthropicToolResult> {
    try {
      const { tools } = await search.handleCall(input);
      if (tools.length === 0) return { type: 'tool_result', tool_use_id: id, content: JSON.stringify({ tools: [] }), is_error: false };
      return {
        type: 'tool_result',
        tool_use_id: id,
        content: tools.map(({ name }) => ({ type: 'tool_reference' as const, tool_name: name })),
        is_error: false,
      };
    } catch (error) {
      return { type: 'tool_result', tool_use_id: id, content: toModelText(toModelResult(error)), is_error: true };
    }
  }

  return Object.freeze({
    get tools(): (AnthropicTool | AnthropicDeferredTool)[] {
      const searchTool: AnthropicTool = {
        name: definition.name,
        description: definition.description,
        input_schema: toAnthropicInputSchema(definition.inputSchema),
      };
      // The set's tools are deferred; the check of pending operations (beside long-running tools) is
      // not one of them, so it stays loaded for the handle a call answers with.
      return [searchTool, ...base.tools.map((tool) => (toolSet.names.includes(tool.name) ? { ...tool, defer_loading: true as const } : tool))];
    },
    toolSet,
    search,
    async runToolUses(content: readonly AnthropicContentBlock[], ...rest: Rest): Promise<AnthropicToolResult[]> {
      const uses = content.filter((block) => block.type === 'tool_use' && typeof block.id === 'string');
      return Promise.all(
        uses.map(async (block) =>
          block.name === SEARCH_TOOL_NAME ? answerSearch(block.id as string, block.input) : (await base.runToolUses([block], ...rest))[0]!,
        ),
      );
    },
  });
}
