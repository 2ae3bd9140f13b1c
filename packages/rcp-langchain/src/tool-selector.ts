/**
 * A tool selector for LangChain v1 agents over a large RCP tool set (issue 28): each model call
 * is bound only the tools a search finds for the user's latest message, as LangChain's own
 * `llmToolSelectorMiddleware` binds the tools a model picks — without a second model call. The
 * found tools are called like any other: through `client.call` on the tool set (or the stage)
 * the operator gave, so stages, resolvers, approvals and trust rules hold for every found tool.
 */
import { HumanMessage } from '@langchain/core/messages';
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { RcpClient, RcpToolSet } from 'rcp-client';
import { langChainToolsWith, type LangChainToolsOptions } from './langchain-tools';

/**
 * What the selector searches with: rcp-search's `createToolSearch(toolSet)` is one (its index
 * is built once, there). Any object of this shape works — an operator's own ranking too.
 *
 * @example
 * ```ts
 * import { createToolSearch } from 'rcp-search';
 * const finder: LangChainToolFinder = createToolSearch(toolSet);
 * ```
 */
export interface LangChainToolFinder {
  /** The tool set searched: the selector makes a LangChain tool for each of its tools. */
  readonly toolSet: RcpToolSet;
  /** The best tools for a task, best first. */
  search(query: string, options?: { limit?: number }): Promise<readonly { readonly name: string }[]>;
}

/**
 * Options of {@link createLangChainToolSelector}: those of `createLangChainTools` (`stage`: the
 * tool set every call goes through — search the stage itself to bind only its tools), and how
 * many tools a model call is bound.
 *
 * @example
 * ```ts
 * createLangChainToolSelector(client, search, { limit: 3, stage: search.toolSet.select(['list_notes', 'get_note'], { stage: 'read' }) });
 * ```
 */
export interface LangChainToolSelectorOptions<Context> extends Omit<LangChainToolsOptions<Context>, 'only' | 'namespace'> {
  /**
   * Most found tools bound to one model call.
   * @default 5
   */
  limit?: number;
}

/** The model call a middleware's `wrapModelCall` is given (the part the selector reads and changes). */
export interface LangChainModelRequest {
  readonly messages: readonly unknown[];
  readonly tools?: readonly unknown[];
}

/**
 * LangChain v1 agent middleware (`createAgent({ middleware: [...] })`) that binds each model
 * call the found tools, written out so this package needs no `langchain` import.
 *
 * @example
 * ```ts
 * const agent = createAgent({ model, tools: selector.tools, middleware: [selector.middleware] });
 * ```
 */
export interface LangChainToolSelectorMiddleware {
  readonly name: string;
  wrapModelCall<Request extends LangChainModelRequest, Response>(
    request: Request,
    handler: (request: Request) => Response | Promise<Response>,
  ): Promise<Response>;
}

/**
 * What {@link createLangChainToolSelector} returns: every tool of the set for the agent to run,
 * and the middleware that binds only the found ones to each model call.
 *
 * @example
 * ```ts
 * const { tools, middleware } = createLangChainToolSelector(client, search);
 * ```
 */
export interface LangChainToolSelector {
  /** One LangChain tool per tool of the searched set (as `createLangChainTools` makes them), each calling through `stage`. */
  readonly tools: StructuredToolInterface[];
  readonly middleware: LangChainToolSelectorMiddleware;
}

const nameOf = (tool: unknown): unknown => (typeof tool === 'object' && tool !== null ? (tool as { name?: unknown }).name : undefined);

/** The text of the latest human message: what the user asked for. */
function latestRequest(messages: readonly unknown[]): string {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (HumanMessage.isInstance(message)) return message.text;
  }
  return '';
}

/**
 * A tool selector for a LangChain v1 agent over a large tool set: give the agent `tools` (every
 * tool, so its ToolNode can run any of them) and `middleware`, which binds each model call only
 * the `limit` tools `finder.search` finds for the user's latest message — and every tool of the
 * agent that is not an RCP tool of the set, untouched. A found tool is called through
 * `client.call(stage, …)` like any other: a stage refuses a tool outside it
 * (`RCP_TOOL_NOT_IN_STAGE`), a spoofed argument is `RCP_INVALID_ARGUMENTS`, nothing sent either
 * way; the model reads each as a `ToolMessage` with `status: 'error'`.
 *
 * @example
 * ```ts
 * import { createAgent } from 'langchain';
 * import { createToolSet } from 'rcp-client';
 * import { createToolSearch } from 'rcp-search';
 * import { createLangChainToolSelector } from 'rcp-langchain';
 *
 * const search = createToolSearch(createToolSet(await client.discover(manifestUrl)));
 * const selector = createLangChainToolSelector(client, search, { limit: 5 });
 * const agent = createAgent({ model, tools: selector.tools, middleware: [selector.middleware] });
 * ```
 */
export function createLangChainToolSelector<Context = any>(
  client: RcpClient<Context>,
  finder: LangChainToolFinder,
  options: LangChainToolSelectorOptions<Context> = {},
): LangChainToolSelector {
  const { limit = 5, ...toolOptions } = options;
  const searched = new Set(finder.toolSet.names);
  const tools = langChainToolsWith(client, finder.toolSet, toolOptions, undefined);
  const middleware: LangChainToolSelectorMiddleware = {
    name: 'RcpToolSelector',
    async wrapModelCall(request, handler) {
      const found = new Set((await finder.search(latestRequest(request.messages), { limit })).map((hit) => hit.name));
      const bound = (request.tools ?? []).filter((tool) => {
        const name = nameOf(tool);
        return typeof name !== 'string' || !searched.has(name) || found.has(name);
      });
      return handler({ ...request, tools: bound });
    },
  };
  // The brand LangChain's `createMiddleware` sets (a `Symbol.for` key, so no `langchain` import is needed).
  return Object.freeze({ tools, middleware: Object.freeze({ ...middleware, [Symbol.for('AgentMiddleware')]: true }) });
}
