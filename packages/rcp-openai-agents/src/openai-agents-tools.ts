import type { RunState, RunToolApprovalItem } from '@openai/agents';
import {
  checkOperationOffer,
  createStages,
  createToolSet,
  toolCountWarning,
  type RcpApprovalRequest,
  type RcpClient,
  type RcpContextClient,
  type RcpDiscovery,
  type RcpToolFilter,
  type RcpToolSet,
  type RcpToolSetOptions,
  type RcpTurn,
} from 'rcp-client';
import { agentsCheckTool, agentsFunctionTools, type AgentsTool } from './function-tools';
import { createRunStateApprovals } from './run-state-approvals';

/** OpenAI's documented limit on the number of functions in one request. */
const OPENAI_TOOL_LIMIT = 128;

/**
 * What a tool call runs with: the context the client's resolvers read, and the stage the turn
 * is in (a key of `stages`), if any.
 *
 * @example
 * ```ts
 * const turn: OpenAIAgentsTurn<{ userId: string }> = { ctx: { userId: 'u-1' }, stage: 'browse' };
 * ```
 */
export type OpenAIAgentsTurn<Context> = RcpTurn<Context>;

/**
 * Options of {@link createOpenAIAgentsTools}.
 *
 * @example
 * ```ts
 * createOpenAIAgentsTools(client, discovery, {
 *   stages: { browse: ['list_notes', 'get_note'], act: () => true },
 *   turn: (context) => context as OpenAIAgentsTurn<{ userId: string }>,
 * });
 * ```
 */
export interface OpenAIAgentsToolsOptions<Context> extends RcpToolSetOptions {
  /**
   * Stages by id: the tools each may use. `stageTools(stage)` gives an agent of that stage its
   * tools; a call in a stage (the turn's, or a stage's tools) to a tool outside it sends nothing
   * and the model reads `RCP_TOOL_NOT_IN_STAGE`.
   * @default {}
   */
  stages?: Readonly<Record<string, RcpToolFilter>>;
  /**
   * The context and stage of the turn, from the run's app context (`run(agent, input, { context })`,
   * kept in the `RunState` when a run pauses).
   * @default `(context) => ({ ctx: context ?? ctx })`: the run's context is the ctx
   */
  turn?: (runContext: unknown) => OpenAIAgentsTurn<Context>;
  /**
   * A fixed context for every call (one user per tool set), used when the run gives none.
   * @default undefined
   */
  ctx?: Context;
  /**
   * Send tools in strict mode, with `rcp-openai`'s conversion (every property required, optional
   * ones nullable; `null` is "not given"). A tool whose schema cannot be strict (an `object` or
   * `array` param without `properties` / `items`) is sent with `strict: false`.
   * @default true
   */
  strict?: boolean;
  /**
   * Send every tool of the set with `deferLoading: true` (Responses API only): the model is not
   * given its schema until a tool search loads it — OpenAI's hosted `toolSearchTool()`, or
   * rcp-search's through `rcpToolSearchTool(rcp)` of `rcp-openai-agents/search`. The check of
   * pending operations (`check_operation`) stays loaded: no search would find it.
   * @default false
   */
  deferLoading?: boolean;
}

/**
 * What a person approves for one paused call of a run: the client's review — the request exactly
 * as it will be sent (resolver values included, the credential `[redacted]`), the policy's
 * decision and reason, the digest and one-call id — and the `callId` of the interruption it is
 * for. The client keeps it in its approval ledger; share the ledger to approve it in another process.
 *
 * @example
 * ```ts
 * const review: OpenAIAgentsApprovalRequest = await rcp.review(result.interruptions[0]!);
 * console.log(review.callId, review.request.method, review.request.url, review.reason);
 * ```
 */
export interface OpenAIAgentsApprovalRequest extends RcpApprovalRequest {
  /** The interrupted function call's id (`interruption.rawItem.callId`). */
  readonly callId: string;
}

/**
 * RCP tools for the OpenAI Agents SDK, made by {@link createOpenAIAgentsTools}.
 *
 * @example
 * ```ts
 * const rcp = createOpenAIAgentsTools(client, discovery);
 * const agent = new Agent({ name: 'Notes', instructions: 'Help with notes.', tools: rcp.tools });
 * ```
 */
export interface OpenAIAgentsTools<_Context = any> {
  /**
   * For `new Agent({ tools })`: one function tool per RCP tool (a new list on every read, of the
   * same tools). A call runs in the turn's stage (from `turn`), if it names one. When a tool is
   * long-running (RCP 0.4 `operation`) and none is named `check_operation`, rcp-client's
   * `CHECK_OPERATION_TOOL` follows, run with `checkOperation` (never deferred, never paused).
   */
  readonly tools: AgentsTool[];
  /**
   * The tools of one stage, for an agent of that stage (a new list on every call, of the same
   * tools): their calls run in that stage. An unknown stage is `RCP_INVALID_OPTIONS`.
   * @example
   * ```ts
   * const browser = new Agent({ name: 'Browser', tools: rcp.stageTools('browse') });
   * ```
   */
  stageTools(stage: string): AgentsTool[];
  /** The tools, under the names the model sees. */
  readonly toolSet: RcpToolSet;
  /** The tool set's discovery warnings (`toolSet.warnings`), then, past OpenAI's 128-function limit, what to do about it. */
  readonly warnings: readonly string[];
  /**
   * What a person must see before a paused call may be sent: the review the client kept in its
   * approval ledger under the interruption's `callId` when the call paused, verified against its
   * digest, with its `callId`. A call with no kept review (paused with another client whose ledger
   * is not shared, or expired) is `RCP_APPROVAL_MISMATCH`, and so is a review edited where it was
   * kept: a resumed call is never reviewed again from what the run state says now.
   * @example
   * ```ts
   * const reviews = await Promise.all(result.interruptions.map((interruption) => rcp.review(interruption)));
   * ```
   */
  review(interruption: RunToolApprovalItem): Promise<OpenAIAgentsApprovalRequest>;
  /**
   * The person approved a review: checks it is the one kept for its call (`RCP_APPROVAL_MISMATCH`
   * otherwise — none kept, or edited where the app kept it), approves its interruption in `state`
   * (`state.approve`) and binds the call to it. When the run resumes, the call is built again and
   * sent only if its digest is the review's, for the same caller, before it expires
   * (`RCP_APPROVAL_MISMATCH`, nothing sent, otherwise), once across every client sharing the
   * ledger. Call it in the process that resumes the run, before `run(agent, state)`.
   * @example
   * ```ts
   * await rcp.approve(state, review);
   * result = await run(agent, state);
   * ```
   */
  approve(state: RunState<any, any>, review: OpenAIAgentsApprovalRequest): Promise<void>;
  /**
   * The person said no: rejects the interruption in `state` (`state.reject`); nothing is sent
   * and the model reads `{"ok":false,"error":{"code":"RCP_APPROVAL_DENIED","message":"The call was denied: <reason>"}}`.
   * @example
   * ```ts
   * rcp.reject(state, review, { reason: 'the note is still needed' });
   * ```
   */
  reject(state: RunState<any, any>, call: OpenAIAgentsApprovalRequest | RunToolApprovalItem, options?: { readonly reason?: string }): void;
}

/**
 * Turns discovered RCP tools into OpenAI Agents SDK function tools (`tool()` of `@openai/agents`)
 * whose `needsApproval` is the client's approval decision: `user-approval` pauses the run (an
 * interruption, nothing sent); `denied` runs the call, which sends nothing and answers the
 * model with the reason; `approved` and `not-applicable` run it. A paused call is shown with
 * `rcp.review(interruption)` and approved with `await rcp.approve(state, review)`: the call
 * is then sent only if it renders exactly the reviewed request (its digest), once — across a
 * `RunState` serialised and resumed in another process too. Every call goes through
 * `client.call`, and what the model reads is `toModelText(toModelResult(outcome))`, with a binary
 * answer's bytes as a `ToolOutputImage` / `ToolOutputFileContent` beside it (never a throw);
 * resolver-bound params are in no schema and no description.
 *
 * @example
 * ```ts
 * import { Agent, run } from '@openai/agents';
 * import { createOpenAIAgentsTools } from 'rcp-openai-agents';
 *
 * const client = createRcpClient({ resolvers: { userId: (ctx) => ctx.userId }, approval: 'writes' });
 * const rcp = createOpenAIAgentsTools(client, await client.discover(manifestUrl));
 * const agent = new Agent({ name: 'Notes', instructions: 'Help with notes.', tools: rcp.tools });
 * const result = await run(agent, 'Delete my groceries note', { context: { userId: 'u-1' } });
 * for (const interruption of result.interruptions) console.log(await rcp.review(interruption));
 * ```
 */
export function createOpenAIAgentsTools<Context = any>(
  client: RcpClient<Context>,
  source: RcpDiscovery | readonly RcpDiscovery[] | RcpToolSet,
  options: OpenAIAgentsToolsOptions<Context> = {},
): OpenAIAgentsTools<Context> {
  const { stages = {}, turn, ctx: fixedCtx, strict = true, deferLoading = false, ...setOptions } = options;
  const toolSet = createToolSet(source, setOptions);
  const stageSets = createStages(toolSet, stages);
  const contextClient: RcpContextClient<Context> = client;
  // The run's context is the ctx unless `turn` says otherwise; the fixed ctx fills in for none.
  const withFixed = (ctx: Context): Context => ((ctx === undefined || ctx === null) && fixedCtx !== undefined ? fixedCtx : ctx);
  const turnOf = (context: unknown): OpenAIAgentsTurn<Context> => {
    const given = turn === undefined ? { ctx: context as Context } : turn(context);
    return { ...given, ctx: withFixed(given.ctx) };
  };
  const warning = toolCountWarning(toolSet, { limit: OPENAI_TOOL_LIMIT, target: 'OpenAI' });
  const approvals = createRunStateApprovals(contextClient, toolSet);

  // The model's check of pending operations (SPEC §20.8), never in place of a discovered tool of that name
  // (rcp-client's one rule).
  const { offer: offersCheck, warning: checkWarning } = checkOperationOffer(toolSet.entries);

  const buildTools = (fixedStage: string | undefined): AgentsTool[] => {
    const options = {
      client: contextClient,
      strict,
      deferLoading,
      turnOf: (context: unknown) => {
        const { ctx, stage } = turnOf(context);
        return { ctx, scope: stageSets.scope(fixedStage ?? stage) };
      },
      takeApproval: approvals.take,
    };
    const { entries } = stageSets.scope(fixedStage);
    const functionTools = agentsFunctionTools(entries, options);
    // Beside the long-running tools of this scope only: a stage without one has no check.
    return offersCheck && checkOperationOffer(entries).offer ? [...functionTools, agentsCheckTool(options)] : functionTools;
  };

  const tools = buildTools(undefined);
  const byStage = new Map<string, AgentsTool[]>();
  return Object.freeze({
    get tools(): AgentsTool[] {
      return [...tools];
    },
    stageTools(stage: string): AgentsTool[] {
      stageSets.get(stage);
      let stageList = byStage.get(stage);
      if (stageList === undefined) byStage.set(stage, (stageList = buildTools(stage)));
      return [...stageList];
    },
    toolSet,
    warnings: Object.freeze([...toolSet.warnings, ...[warning, checkWarning].filter((line) => line !== undefined)]),
    review: approvals.review,
    approve: approvals.approve,
    reject: approvals.reject,
  });
}
