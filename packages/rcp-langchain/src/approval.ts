/**
 * LangChain v1's human-in-the-loop (`humanInTheLoopMiddleware({ interruptOn })`) mapped onto the
 * client's one decision (SPEC §19; docs/behaviour.md): the middleware interrupts exactly the calls the client's policy
 * says need a person, nothing sent; the person is shown the client's review (the exact request);
 * the review is kept in the client's approval ledger under the tool call id, and the call the
 * agent runs after approve resumes it, so the client sends it only if it still renders exactly
 * that request, once. When the run resumes (the middleware asks again), a call is never reviewed
 * again: no kept review is a refusal. An edit is validated and reviewed again (a new digest); a
 * resolver-bound param is never editable.
 */
import { AIMessage, type ToolCall } from '@langchain/core/messages';
import { AsyncLocalStorageProviderSingleton } from '@langchain/core/singletons';
import type { StructuredToolInterface } from '@langchain/core/tools';
import {
  RcpApprovalDeniedError,
  RcpError,
  createToolSet,
  jsonSchemaCopy,
  validateArguments,
  type RcpApprovalRequest,
  type RcpClient,
  type RcpContextClient,
  type RcpClientTool,
  type RcpDiscovery,
  type RcpToolSet,
} from 'rcp-client';
import { terminalJson, terminalText } from 'rcp-internal';
import { contextOf } from './internal/context-client';
import { langChainToolsWith, type LangChainToolsOptions } from './langchain-tools';

/**
 * A decision the middleware lets a person make: `approve`, `edit` (other arguments) or `reject`.
 *
 * @example
 * ```ts
 * const allowed: LangChainDecisionType[] = ['approve', 'reject'];
 * ```
 */
export type LangChainDecisionType = 'approve' | 'edit' | 'reject';

/**
 * One tool's entry of `humanInTheLoopMiddleware`'s `interruptOn` (langchain's `InterruptOnConfig`),
 * written out so this package needs no `langchain` import: `when` asks the client's policy (and
 * keeps the review), `description` shows the person the request, `argsSchema` is the
 * model-facing schema (no resolver-bound param in it), `allowedDecisions` offers `edit` only for a
 * tool with params to edit.
 *
 * @example
 * ```ts
 * humanInTheLoopMiddleware({ interruptOn: { ...approvals.interruptOn, my_own_tool: true } });
 * ```
 */
export interface LangChainInterruptOnConfig {
  readonly allowedDecisions: LangChainDecisionType[];
  readonly description: (toolCall: ToolCall) => Promise<string>;
  readonly argsSchema?: Record<string, unknown>;
  readonly when: (request: { readonly toolCall: ToolCall; readonly runtime?: { readonly configurable?: Record<string, unknown> } }) => Promise<boolean>;
}

/**
 * A call waiting on a person, from {@link LangChainApprovals.pending}: the tool call (its id,
 * model-facing name and arguments) and the review to show.
 *
 * @example
 * ```ts
 * for (const { name, review } of await approvals.pending(result)) console.log(name, review.request.method, review.request.url);
 * ```
 */
export interface LangChainPendingApproval {
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly review: RcpApprovalRequest;
}

/**
 * What {@link LangChainApprovals.edit} returns: the new review (show it: a new request, a new
 * digest) and the middleware decision to resume with once the person approves it.
 *
 * @example
 * ```ts
 * const { review, decision } = await approvals.edit(pending[0]!, { noteId: 'n-2' }, { userId: 'u-1' });
 * await agent.invoke(new Command({ resume: { decisions: [decision] } }), config);
 * ```
 */
export interface LangChainEdit {
  readonly review: RcpApprovalRequest;
  readonly decision: { readonly type: 'edit'; readonly editedAction: { readonly name: string; readonly args: Record<string, unknown> } };
}

/**
 * Options of {@link createLangChainApprovals}: those of `createLangChainTools` (but `stage`:
 * give the stage's set as the source). The reviews are kept in the client's approval ledger
 * (`createRcpClient({ approvalLedger })`).
 *
 * @example
 * ```ts
 * createLangChainApprovals(client, discovery, { context: (configurable) => ({ userId: configurable.user_id }) });
 * ```
 */
export type LangChainApprovalsOptions<Context> = Omit<LangChainToolsOptions<Context>, 'stage'>;

/**
 * RCP tools for a LangChain v1 agent with a person in the loop, made by
 * {@link createLangChainApprovals}.
 *
 * @example
 * ```ts
 * const approvals = createLangChainApprovals(client, discovery);
 * const agent = createAgent({ model, tools: approvals.tools, middleware: [humanInTheLoopMiddleware({ interruptOn: approvals.interruptOn })], checkpointer });
 * ```
 */
export interface LangChainApprovals {
  /** The tools (as `createLangChainTools` makes them), each call bound to the review a person approved. */
  readonly tools: StructuredToolInterface[];
  /** For `humanInTheLoopMiddleware({ interruptOn })`: one entry per tool. */
  readonly interruptOn: Readonly<Record<string, LangChainInterruptOnConfig>>;
  /**
   * The review an interrupted call waits on, by tool call id: the request it will send — method,
   * URL, headers, body, resolver values included, the credential `[redacted]` — and the reason.
   * @example
   * ```ts
   * const review = await approvals.review('call_1');
   * ```
   */
  review(toolCallId: string): Promise<RcpApprovalRequest | undefined>;
  /**
   * The calls of an interrupted run that wait on a person (from `agent.invoke`'s result or the
   * state's values: its last AI message's tool calls that have a review), in the order of the
   * interrupt's `actionRequests` and so of the `decisions` to resume with.
   * @example
   * ```ts
   * const pending = await approvals.pending(await agent.invoke(input, config));
   * ```
   */
  pending(state: { readonly messages?: readonly unknown[] }): Promise<LangChainPendingApproval[]>;
  /**
   * A person's edit of an interrupted call: the new arguments are validated against the tool's
   * model-facing schema (`RCP_INVALID_ARGUMENTS` for a resolver-bound param or a bad value, thrown
   * before anything), then reviewed again (`RCP_APPROVAL_DENIED` when the policy denies the edited
   * call) — the new review replaces the waiting one, and only it can be sent. Show it to the
   * person; resume with `decision` once they approve it.
   * @example
   * ```ts
   * const { review, decision } = await approvals.edit(pending[0]!, { noteId: 'n-2' }, { userId: 'u-1' });
   * ```
   */
  edit(toolCall: { readonly id: string; readonly name: string }, args: unknown, configurable?: Record<string, unknown>): Promise<LangChainEdit>;
}

/** The review as lines a person reads (each made safe to show: server text is untrusted). */
function describe(review: RcpApprovalRequest | undefined): string {
  if (review === undefined) return 'The request could not be shown; approving it sends nothing.';
  const { method, url, headers, body } = review.request;
  const lines = [
    terminalText(review.reason === undefined ? 'A person must approve this call.' : `Approval needed: ${review.reason}`),
    '',
    terminalText(`${method} ${url}`),
    ...Object.entries(headers).map(([name, value]) => terminalText(`${name}: ${value}`)),
  ];
  if (body !== undefined) lines.push('', terminalJson(body));
  return lines.join('\n');
}

/**
 * Makes RCP tools and the `interruptOn` config of LangChain v1's `humanInTheLoopMiddleware` from
 * one tool set, bound together: the middleware interrupts a call exactly when the client's
 * `approval` policy says `user-approval` (nothing is sent), the interrupt's `description` is the
 * client's review (the exact request, resolver values in, the credential redacted), and a call the
 * agent runs after approve is sent only as that reviewed request, once (`RCP_APPROVAL_MISMATCH`
 * otherwise: other arguments, another resolver value, a second run; nothing sent). A reject is the
 * middleware's: the model reads the person's message, nothing is sent. A `denied` policy decision
 * does not interrupt: the model reads the reason. An edit goes through {@link LangChainApprovals.edit}.
 * The middleware needs a checkpointer; to resume in another process, give the clients a shared
 * `approvalLedger` (`rcp-redis`) and one `approvalSecret` — with the client's in-memory default a
 * resume that finds no kept review is refused, nothing sent.
 *
 * @example
 * ```ts
 * import { createAgent, humanInTheLoopMiddleware } from 'langchain';
 * import { Command, MemorySaver } from '@langchain/langgraph';
 * import { createLangChainApprovals } from 'rcp-langchain';
 *
 * const client = createRcpClient({ approval: 'writes', resolvers: { userId: (ctx) => ctx.userId } });
 * const approvals = createLangChainApprovals(client, await client.discover(manifestUrl));
 * const agent = createAgent({ model, tools: approvals.tools, checkpointer: new MemorySaver(),
 *   middleware: [humanInTheLoopMiddleware({ interruptOn: approvals.interruptOn })] });
 * const config = { configurable: { thread_id: 't-1', userId: 'u-1' } };
 * const result = await agent.invoke({ messages: [{ role: 'user', content: 'Delete note n-1' }] }, config);
 * for (const { review } of await approvals.pending(result)) console.log(review.request);
 * await agent.invoke(new Command({ resume: { decisions: [{ type: 'approve' }] } }), config);
 * ```
 */
export function createLangChainApprovals<Context = any>(
  client: RcpClient<Context>,
  source: RcpDiscovery | readonly RcpDiscovery[] | RcpToolSet,
  options: LangChainApprovalsOptions<Context> = {},
): LangChainApprovals {
  const { context, ...setOptions } = options;
  const toolSet = createToolSet(source, setOptions);
  const contextClient: RcpContextClient<Context> = client;
  const ctxOf = (configurable: Record<string, unknown> | undefined): Context => contextOf(context, configurable);
  const kept = (toolCallId: string): Promise<RcpApprovalRequest | undefined> => contextClient.storedReview(toolCallId);

  const tools = langChainToolsWith(client, toolSet, { ...(context !== undefined && { context }) }, async (toolCallId) => {
    // A call that waited on a person resumes its kept review (verified by the client, used once);
    // a review edited where it is kept refuses the call there too (the client reads it again).
    if (toolCallId === undefined) return {};
    const review = await kept(toolCallId).catch(() => 'edited' as const);
    return review === undefined ? {} : { approvalKey: toolCallId };
  });

  async function edit(toolCall: { readonly id: string; readonly name: string }, args: unknown, configurable?: Record<string, unknown>): Promise<LangChainEdit> {
    const id = typeof toolCall === 'object' && toolCall !== null ? toolCall.id : undefined;
    const waiting = typeof id === 'string' && id.length > 0 ? await kept(id) : undefined;
    if (waiting === undefined) throw new RcpError('RCP_INVALID_OPTIONS', 'edit() takes a call that waits on a person (from approvals.pending())');
    const tool = toolSet.tool(toolCall.name);
    if (waiting.tool !== tool.name) throw new RcpError('RCP_INVALID_OPTIONS', "edit() changes a call's arguments, never its tool");
    // The model-facing schema: a resolver-bound param is no parameter here (RCP_INVALID_ARGUMENTS).
    const edited = { ...validateArguments(tool, args) };
    const ctx = ctxOf(configurable);
    const verdict = await contextClient.decide(tool, edited, ctx);
    if (verdict.decision === 'denied') throw new RcpApprovalDeniedError(tool.name, verdict.reason);
    // The new review replaces the waiting one in the ledger: only it can be sent.
    const review = await contextClient.review(tool, edited, ctx, { key: id! });
    return Object.freeze({ review, decision: Object.freeze({ type: 'edit' as const, editedAction: Object.freeze({ name: toolCall.name, args: edited }) }) });
  }

  return Object.freeze({
    tools,
    interruptOn: interruptOnOf(toolSet, kept, (tool, toolCall, configurable) => interrupts(contextClient, tool, toolCall, ctxOf(configurable))),
    review: kept,
    pending: (state: { readonly messages?: readonly unknown[] }) => pendingApprovals(toolSet, kept, state),
    edit,
  });
}

/**
 * Whether the graph runs the middleware again for a resume (`Command({ resume })`): LangGraph
 * re-runs an interrupted node from its start, and its scratchpad then holds the resume values.
 * `undefined` when this cannot be told (no graph run, or a LangGraph that keeps it elsewhere).
 */
function isResuming(): boolean | undefined {
  const configurable = (AsyncLocalStorageProviderSingleton.getRunnableConfig() as { configurable?: Record<string, unknown> } | undefined)?.configurable;
  const scratchpad = configurable?.__pregel_scratchpad as { resume?: unknown; nullResume?: unknown } | undefined;
  if (typeof scratchpad !== 'object' || scratchpad === null || !Array.isArray(scratchpad.resume)) return undefined;
  return scratchpad.resume.length > 0 || scratchpad.nullResume !== undefined;
}

/**
 * Whether the middleware interrupts a call. One whose review is kept interrupts with it (the
 * middleware asks again when the run resumes: the review, not a new one, is what the person
 * saw). On a resume with no kept review — or when a resume cannot be told from a first run — it
 * interrupts with none, so the approved call is refused (never reviewed again from what the
 * checkpoint says now). Otherwise the client's policy decides, and a review is kept. A review
 * that cannot be made (a missing user, bad input) is no interrupt: the call runs into the same
 * error, sends nothing, and the model reads it. A call with no id cannot be bound, so it is not
 * interrupted and the client refuses it (`RCP_APPROVAL_REQUIRED`).
 */
async function interrupts<Context>(client: RcpContextClient<Context>, tool: RcpClientTool, toolCall: ToolCall, ctx: Context): Promise<boolean> {
  if (typeof toolCall.id !== 'string' || toolCall.id.length === 0) return false;
  const keptReview = await client.storedReview(toolCall.id).catch(() => 'edited' as const);
  if (keptReview !== undefined) return true;
  try {
    // The decision first (no resolver, no credential, no request built); the review only when a person decides.
    if ((await client.decide(tool, toolCall.args, ctx)).decision !== 'user-approval') return false;
    if (isResuming() !== false) return true;
    await client.review(tool, toolCall.args, ctx, { key: toolCall.id });
    return true;
  } catch {
    return false;
  }
}

/** The middleware's `interruptOn`, one frozen entry per tool of the set. */
function interruptOnOf(
  toolSet: RcpToolSet,
  kept: (toolCallId: string) => Promise<RcpApprovalRequest | undefined>,
  interruptsCall: (tool: RcpClientTool, toolCall: ToolCall, configurable: Record<string, unknown> | undefined) => Promise<boolean>,
): Readonly<Record<string, LangChainInterruptOnConfig>> {
  const interruptOn: Record<string, LangChainInterruptOnConfig> = {};
  for (const { name, tool } of toolSet.entries) {
    const editable = Object.keys(tool.inputSchema.properties ?? {}).length > 0;
    interruptOn[name] = Object.freeze({
      allowedDecisions: editable ? ['approve', 'edit', 'reject'] : ['approve', 'reject'],
      ...(editable && { argsSchema: jsonSchemaCopy(tool.inputSchema) }),
      description: async (toolCall: ToolCall) =>
        describe(typeof toolCall.id === 'string' && toolCall.id !== '' ? await kept(toolCall.id).catch(() => undefined) : undefined),
      when: ({ toolCall, runtime }) => interruptsCall(tool, toolCall, runtime?.configurable),
    } satisfies LangChainInterruptOnConfig);
  }
  return Object.freeze(interruptOn);
}

/** The calls of the state's last AI message that wait on a person (they have a review), in order. */
async function pendingApprovals(
  toolSet: RcpToolSet,
  kept: (toolCallId: string) => Promise<RcpApprovalRequest | undefined>,
  state: { readonly messages?: readonly unknown[] },
): Promise<LangChainPendingApproval[]> {
  const messages = Array.isArray(state?.messages) ? state.messages : [];
  const last = [...messages].reverse().find((message) => AIMessage.isInstance(message)) as AIMessage | undefined;
  const waiting: LangChainPendingApproval[] = [];
  for (const call of last?.tool_calls ?? []) {
    if (typeof call.id !== 'string' || !toolSet.names.includes(call.name)) continue;
    const found = await kept(call.id);
    if (found !== undefined) waiting.push(Object.freeze({ id: call.id, name: call.name, args: call.args, review: found }));
  }
  return waiting;
}
