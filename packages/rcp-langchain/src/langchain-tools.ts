import { ToolMessage } from '@langchain/core/messages';
import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import {
  createToolSet,
  toModelResult,
  type RcpClient,
  type RcpContextArgs,
  type RcpDiscovery,
  type RcpExecuteOptions,
  type RcpToolSet,
  type RcpToolSetOptions,
  type RcpApproval,
} from 'rcp-client';

/**
 * Options of {@link createLangChainTools}.
 *
 * @example
 * ```ts
 * createLangChainTools(client, discovery, { context: (configurable) => ({ userId: configurable.user_id }) });
 * ```
 */
export interface LangChainToolsOptions<Context> extends RcpToolSetOptions {
  /**
   * The context the client's resolvers read, from the run's `config.configurable`.
   * @default the `configurable` object itself
   */
  context?: (configurable: Record<string, unknown>) => Context;
}

/**
 * Turns discovered RCP tools into LangChain.js tools: `tool(fn, { name, description, schema })`
 * with the model-facing JSON Schema (resolver-bound params absent), the context from
 * `config.configurable`, and `client.call` underneath. Invoked with a `ToolCall` (as agents and
 * `ToolNode` do), each returns a `ToolMessage` whose content is `toModelResult`'s JSON and whose
 * `status` is `'error'` when the call failed — an HTTP error or a missing user is an answer the
 * model reads, not a throw. Invoked with plain arguments, each returns that JSON text. Input
 * that does not match the schema is refused by LangChain before the tool runs
 * (`ToolInputParsingException`, as for every LangChain tool): nothing is sent. A call the client's
 * `approval` policy says needs a person is refused here (`RCP_APPROVAL_REQUIRED`, nothing sent):
 * for LangChain v1's human-in-the-loop, use `createLangChainApprovals`.
 *
 * @example
 * ```ts
 * import { createLangChainTools } from 'rcp-langchain';
 *
 * const tools = createLangChainTools(client, await client.discover(manifestUrl));
 * const message = await tools[0]!.invoke({ name: 'list_notes', args: {}, id: 'call_1', type: 'tool_call' }, { configurable: { userId: 'u-1' } });
 * ```
 */
export function createLangChainTools<Context = any>(
  client: RcpClient<Context>,
  source: RcpDiscovery | readonly RcpDiscovery[] | RcpToolSet,
  options: LangChainToolsOptions<Context> = {},
): StructuredToolInterface[] {
  return langChainToolsWith(client, source, options, undefined);
}

/**
 * The tools of {@link createLangChainTools}; with `approvalFor`, a call carries the approval
 * a person gave for its tool call id (`createLangChainApprovals`). Internal to the package.
 */
export function langChainToolsWith<Context>(
  client: RcpClient<Context>,
  source: RcpDiscovery | readonly RcpDiscovery[] | RcpToolSet,
  options: LangChainToolsOptions<Context>,
  approvalFor: ((toolCallId: string | undefined) => Promise<RcpApproval | undefined>) | undefined,
): StructuredToolInterface[] {
  const { context, ...setOptions } = options;
  const toolSet = createToolSet(source, setOptions);
  return toolSet.entries.map(({ name, tool: rcpTool }) =>
    tool(
      async (input: unknown, config) => {
        const configurable = (config?.configurable ?? {}) as Record<string, unknown>;
        const ctx = context === undefined ? configurable : context(configurable);
        const toolCallId = (config as { toolCall?: { id?: string } } | undefined)?.toolCall?.id;
        // After a person's yes, the call carries it: sent only as the request they were shown.
        const approval = await approvalFor?.(toolCallId);
        const rest = [ctx, { ...(config?.signal !== undefined && { signal: config.signal }), ...(approval !== undefined && { approval }) }] as RcpContextArgs<
          Context,
          [options?: RcpExecuteOptions]
        >;
        const result = toModelResult(await client.call(toolSet, { name, arguments: input }, ...rest));
        const content = JSON.stringify(result);
        if (toolCallId === undefined) return content;
        return new ToolMessage({ content, tool_call_id: toolCallId, name, status: result.ok ? 'success' : 'error' });
      },
      {
        name,
        description: rcpTool.description,
        schema: structuredClone(rcpTool.inputSchema) as unknown as Record<string, unknown>,
      },
    ),
  ) as StructuredToolInterface[];
}
