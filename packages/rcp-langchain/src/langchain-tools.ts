import { ToolMessage, type ToolCall } from '@langchain/core/messages';
import { DynamicStructuredTool, ToolInputParsingException, type StructuredToolInterface } from '@langchain/core/tools';
import type { RunnableConfig } from '@langchain/core/runnables';
import {
  CHECK_OPERATION_TOOL,
  checkOperationOffer,
  checkOperation,
  createToolSet,
  jsonSchemaCopy,
  toModelResult,
  type ModelResult,
  type RcpCallOutcome,
  type RcpExecuteOptions,
  type RcpClient,
  type RcpContextClient,
  type RcpDiscovery,
  type RcpToolSet,
  type RcpToolSetOptions,
} from 'rcp-client';
import { contextOf } from './internal/context-client';
import { toolContent } from './tool-content';

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
  /**
   * The tool set every call goes through: a stage of the tools' set (`toolSet.select(names, {
   * stage })`). The model may be given every tool; a call to one outside the stage is the
   * client's `RCP_TOOL_NOT_IN_STAGE` (the same sentence as on every stack), nothing sent. Give
   * the stage itself as the source to show the model only its tools.
   * @default the tools' own set
   */
  stage?: RcpToolSet;
}

/**
 * Turns discovered RCP tools into LangChain.js tools (`StructuredTool`s named as the tool set
 * names them), each with the tool's description and model-facing JSON Schema (resolver-bound
 * params absent), the context from `config.configurable`, and `client.call` underneath.
 *
 * Invoked with a `ToolCall` (as agents and `ToolNode` do), each returns a `ToolMessage`:
 * `content` is `toModelText` of the result — and, for a binary answer, a text block with it and
 * an `image` / `audio` / `video` / `file` standard block with the bytes (base64) and `mimeType`;
 * `status` is `'error'` when the call failed; `artifact` is the call's whole outcome
 * (`client.call`'s `RcpCallOutcome`) for the application — LangChain never sends an artifact to
 * the model. Invoked with plain arguments, each returns that content. A failed call is an answer
 * the model reads, never a throw: an HTTP error, a missing user, and arguments the client's rule
 * refuses (`RCP_INVALID_ARGUMENTS`, a spoofed resolver-bound param included; nothing is sent).
 * The client's rule is the one that decides: `null` for an optional argument is "not given", as
 * on every stack. A call the client's `approval` policy says needs a person is refused here
 * (`RCP_APPROVAL_REQUIRED`, nothing sent): for LangChain v1's human-in-the-loop, use
 * `createLangChainApprovals`. Run in a LangGraph graph (a `ToolNode`, an agent), a tool whose
 * answer is a stream (RCP 0.4, SPEC §20.6) writes its progress to the run's custom stream
 * (`streamMode: 'custom'`) as {@link LangChainToolProgress} events while the stream is read.
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
 * What a streamed tool writes to LangGraph's custom stream (`streamMode: 'custom'`) after each
 * event it reads: the tool, its call's id (when invoked with a `ToolCall`), and the events and
 * bytes read so far — counts only, never the server's text.
 *
 * @example
 * ```ts
 * for await (const chunk of await graph.stream(input, { streamMode: 'custom' })) {
 *   if ((chunk as LangChainToolProgress).type === 'rcp_progress') console.log(chunk.tool, chunk.events);
 * }
 * ```
 */
export interface LangChainToolProgress {
  /** What the event is: a streamed RCP tool's progress. */
  readonly type: 'rcp_progress';
  /** The tool's name, as the model calls it. */
  readonly tool: string;
  /** The tool call's id; absent when the tool was invoked with plain arguments. */
  readonly toolCallId?: string;
  /** Events read so far. */
  readonly events: number;
  /** Bytes of the body read so far. */
  readonly bytes: number;
}

/**
 * LangGraph's writer for the run's custom stream, which it puts in a node's config (and a
 * `ToolNode` passes on to each tool): progress for a streamed answer when there is one.
 * `@langchain/core` does not type it, and this package does not depend on LangGraph.
 */
function progressWriter(config: RunnableConfig | undefined, tool: string, toolCallId: string | undefined): RcpExecuteOptions['onProgress'] {
  const writer = (config as { writer?: unknown } | undefined)?.writer;
  if (typeof writer !== 'function') return undefined;
  return ({ events, bytes }) => {
    const progress: LangChainToolProgress = { type: 'rcp_progress', tool, ...(toolCallId !== undefined && { toolCallId }), events, bytes };
    writer(Object.freeze(progress));
  };
}

/** A tool call's id, from the config LangChain passes a tool invoked with a `ToolCall`. */
const toolCallIdOf = (config: RunnableConfig | undefined): string | undefined => (config as { toolCall?: { id?: string } } | undefined)?.toolCall?.id;

const isToolCall = (input: unknown): input is ToolCall => typeof input === 'object' && input !== null && (input as { type?: unknown }).type === 'tool_call';

/**
 * A LangChain tool whose arguments are the client's to judge. LangChain checks a tool's input
 * against its schema before the tool runs and throws `ToolInputParsingException` (ToolNode then
 * tells the model only "did not match expected schema"); RCP's argument rule is the client's
 * (§16.2: `null` is "not given", `format` is not checked). So the arguments LangChain's check
 * refuses go to the tool's function as they came: the client refuses them with
 * `RCP_INVALID_ARGUMENTS`, the same code and sentence as on every stack, nothing sent — or
 * accepts what its rule accepts. Internal to the package.
 */
class RcpLangChainTool extends DynamicStructuredTool {
  override async invoke(input: unknown, config?: RunnableConfig): Promise<unknown> {
    try {
      return await super.invoke(input, config);
    } catch (error) {
      if (!(error instanceof ToolInputParsingException)) throw error;
      const toolCall = isToolCall(input) ? input : undefined;
      return this.func(toolCall === undefined ? input : toolCall.args, undefined, { ...config, ...(toolCall !== undefined && { toolCall }) } as RunnableConfig);
    }
  }
}

/**
 * The tools of {@link createLangChainTools}; with `approvalFor`, a call resumes the review kept
 * for its tool call id, when one is (`createLangChainApprovals`). Internal to the package.
 */
export function langChainToolsWith<Context>(
  client: RcpClient<Context>,
  source: RcpDiscovery | readonly RcpDiscovery[] | RcpToolSet,
  options: LangChainToolsOptions<Context>,
  approvalFor: ((toolCallId: string | undefined) => Promise<Pick<RcpExecuteOptions, 'approvalKey'>>) | undefined,
): StructuredToolInterface[] {
  const { context, stage, ...setOptions } = options;
  const toolSet = createToolSet(source, setOptions);
  const calledSet = stage ?? toolSet;
  const contextClient: RcpContextClient<Context> = client;
  const tools = toolSet.entries.map(({ name, tool: rcpTool }) => {
    async function run(input: unknown, _runManager?: unknown, config?: RunnableConfig): Promise<unknown> {
      const ctx = contextOf(context, config?.configurable as Record<string, unknown> | undefined);
      const toolCallId = toolCallIdOf(config);
      // After a person's yes, the call resumes the review they were shown: sent only as it, once.
      const approval = await approvalFor?.(toolCallId);
      const onProgress = progressWriter(config, name, toolCallId);
      const callOptions = { ...(config?.signal !== undefined && { signal: config.signal }), ...(onProgress !== undefined && { onProgress }), ...approval };
      const outcome = await contextClient.call(calledSet, { name, arguments: input }, ctx, callOptions);
      // As every LangChain tool does, an aborted run's tool rejects (the client has stopped the call).
      config?.signal?.throwIfAborted();
      return toolAnswer(toModelResult(outcome), name, toolCallId, outcome);
    }
    return new RcpLangChainTool({
      name,
      description: rcpTool.description,
      schema: jsonSchemaCopy(rcpTool.inputSchema),
      func: run,
    });
  }) as StructuredToolInterface[];
  // The model's check of pending operations (SPEC §20.8), beside long-running tools only, and
  // never in place of a discovered tool of that name: `checkOperation` on the called set.
  if (!checkOperationOffer(toolSet.entries).offer) return tools;
  const check = new RcpLangChainTool({
    name: CHECK_OPERATION_TOOL.name,
    description: CHECK_OPERATION_TOOL.description,
    schema: jsonSchemaCopy(CHECK_OPERATION_TOOL.inputSchema),
    func: async (input: unknown, _runManager?: unknown, config?: RunnableConfig): Promise<unknown> => {
      const ctx = contextOf(context, config?.configurable as Record<string, unknown> | undefined);
      const result = await checkOperation(contextClient, calledSet, input, ctx);
      return toolAnswer(result, CHECK_OPERATION_TOOL.name, toolCallIdOf(config), undefined);
    },
  }) as StructuredToolInterface;
  return [...tools, check];
}

/**
 * What a tool returns: the content alone when it was invoked with bare arguments, else a
 * `ToolMessage` with the call's outcome as its `artifact` (none for the check of an operation).
 */
function toolAnswer(result: ModelResult, name: string, toolCallId: string | undefined, outcome: RcpCallOutcome | undefined): unknown {
  const content = toolContent(result);
  if (toolCallId === undefined) return content;
  return new ToolMessage({
    content,
    ...(outcome !== undefined && { artifact: outcome }),
    tool_call_id: toolCallId,
    name,
    status: result.ok ? 'success' : 'error',
  });
}
