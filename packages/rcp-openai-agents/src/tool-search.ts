import { toolSearchTool, type HostedTool, type Tool } from '@openai/agents';
import { RcpError, jsonSchemaCopy } from 'rcp-client';
import { createToolSearch, toolSearchDefinition, type RcpToolSearch, type RcpToolSearchOptions } from 'rcp-search';
import type { OpenAIAgentsTools } from './openai-agents-tools';

/**
 * rcp-search's options (`boost`, `synonyms`, `rank` …) for {@link rcpToolSearchTool}.
 *
 * @example
 * ```ts
 * rcpToolSearchTool(rcp, { rank: myEmbeddingRanker });
 * ```
 */
export type OpenAIAgentsToolSearchOptions = RcpToolSearchOptions;

/**
 * The Agents SDK's client-executed tool search (`toolSearchTool({ execution: 'client', execute })`,
 * Responses API) answered by rcp-search: the model calls it with `{ query, limit? }` (rcp-search's
 * search tool schema), and the runner loads the deferred tools rcp-search ranks best — their
 * schemas reach the model in a `tool_search_output`, and only then may it call them. Give the
 * agent `rcp.tools` made with `deferLoading: true` and this tool. A found tool is one of
 * `rcp.tools`: its call goes through `client.call`, so stages, resolvers, approvals and trust rules
 * hold; a deferred tool the model calls before a search loaded it is refused by the SDK
 * (`ModelBehaviorError`, nothing sent). rcp-search is an optional peer dependency: only this
 * subpath (`rcp-openai-agents/search`) loads it.
 *
 * @example
 * ```ts
 * import { Agent, run } from '@openai/agents';
 * import { createOpenAIAgentsTools } from 'rcp-openai-agents';
 * import { rcpToolSearchTool } from 'rcp-openai-agents/search';
 *
 * const rcp = createOpenAIAgentsTools(client, await client.discover(manifestUrl), { deferLoading: true });
 * const agent = new Agent({ name: 'Shop', instructions: 'Help the customer.', tools: [...rcp.tools, rcpToolSearchTool(rcp)] });
 * ```
 */
export function rcpToolSearchTool(rcp: OpenAIAgentsTools, options: OpenAIAgentsToolSearchOptions = {}): HostedTool {
  // The set's tools; the check of pending operations, beside long-running tools, stays loaded.
  if (!rcp.tools.every((tool) => tool.deferLoading === true || !rcp.toolSet.names.includes(tool.name))) {
    throw new RcpError('RCP_INVALID_OPTIONS', 'rcpToolSearchTool() needs tools made with createOpenAIAgentsTools(client, source, { deferLoading: true })');
  }
  const search: RcpToolSearch = createToolSearch(rcp.toolSet, options);
  // The runner loads each found deferred tool's whole definition, schema included.
  const definition = toolSearchDefinition({ toolCount: rcp.toolSet.entries.length, inputSchemas: true });
  return toolSearchTool({
    execution: 'client',
    description: definition.description,
    parameters: jsonSchemaCopy(definition.inputSchema),
    // Bad arguments throw RCP_INVALID_ARGUMENTS (rcp-search checks them); the hits are names of
    // the tool set, loaded from the agent's own tools.
    execute: async ({ toolCall, availableTools }) => {
      const { tools: found } = await search.handleCall(toolCall.arguments);
      const deferred = new Map<string, Tool<unknown>>();
      for (const tool of availableTools) if (tool.type === 'function' && tool.deferLoading === true) deferred.set(tool.name, tool);
      // Best first, as rcp-search ranked them.
      return found.flatMap(({ name }) => deferred.get(name) ?? []);
    },
  });
}
