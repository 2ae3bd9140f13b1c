import { tool, type FunctionTool, type RunContext, type RunState, type RunToolApprovalItem } from '@openai/agents';
import {
  RcpApprovalDeniedError,
  RcpError,
  approve,
  createToolSet,
  toModelResult,
  toModelText,
  toolCountWarning,
  type RcpApproval,
  type RcpApprovalRequest,
  type RcpClient,
  type RcpContextArgs,
  type RcpDiscovery,
  type RcpExecuteOptions,
  type RcpToolFilter,
  type RcpToolSet,
  type RcpToolSetOptions,
} from 'rcp-client';
import { toOpenAISchema } from 'rcp-openai';
import { toAgentsToolOutput, type OpenAIAgentsToolOutput } from './tool-output';

/** The JSON Schema shapes `tool()` takes, strict and not. */
type StrictSchema = Extract<FunctionTool['parameters'], { additionalProperties: false }>;
type OpenSchema = Extract<FunctionTool['parameters'], { additionalProperties: true }>;
/** One of the tools made here: JSON Schema parameters, the model result as text (and a media part). */
type AgentsTool = FunctionTool<unknown, FunctionTool['parameters'], OpenAIAgentsToolOutput>;
/** What `execute` is given besides the input (the call, its abort signal). */
type ToolCallDetails = Parameters<FunctionTool['invoke']>[2];

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
export interface OpenAIAgentsTurn<Context> {
  readonly ctx: Context;
  readonly stage?: string | undefined;
}

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
   * Send every tool with `deferLoading: true` (Responses API only): the model is not given its
   * schema until a tool search loads it — OpenAI's hosted `toolSearchTool()`, or rcp-search's
   * through `rcpToolSearchTool(rcp)` of `rcp-openai-agents/search`.
   * @default false
   */
  deferLoading?: boolean;
}

/**
 * What a person approves for one paused call of a run: the client's review — the request exactly
 * as it will be sent (resolver values included, the credential `[redacted]`), the policy's
 * decision and reason, the digest and one-call id — and the `callId` of the interruption it is
 * for. Plain JSON: store it beside `result.state.toString()` and approve it in another process.
 *
 * @example
 * ```ts
 * const review: OpenAIAgentsApprovalRequest = await rcp.review(result.interruptions[0]!, context);
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
export interface OpenAIAgentsTools<Context = any> {
  /**
   * For `new Agent({ tools })`: one function tool per RCP tool (a new list on every read, of the
   * same tools). A call runs in the turn's stage (from `turn`), if it names one.
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
  /** Past OpenAI's 128-function limit, what to do about it. */
  readonly warnings: readonly string[];
  /**
   * What a person must see before a paused call may be sent: the client's review of the
   * interruption's call (`client.review`, nothing sent), with its `callId`. `context` is the
   * run's app context (`result.runContext.context`, or the one the run resumes with): the call
   * is only sent later if it renders exactly this request. The client's errors (bad arguments,
   * a resolver with no value …) are thrown as they are: reject such a call.
   * @example
   * ```ts
   * const reviews = await Promise.all(result.interruptions.map((interruption) => rcp.review(interruption, context)));
   * ```
   */
  review(interruption: RunToolApprovalItem, context?: unknown): Promise<OpenAIAgentsApprovalRequest>;
  /**
   * The person approved a review: approves its interruption in `state` (`state.approve`) and
   * binds the call to the reviewed request. When the run resumes, the call is built again and
   * sent only if its digest is the review's (`RCP_APPROVAL_MISMATCH`, nothing sent, otherwise),
   * once. Call it in the process that resumes the run, before `run(agent, state)`.
   * @example
   * ```ts
   * rcp.approve(state, review);
   * result = await run(agent, state);
   * ```
   */
  approve(state: RunState<any, any>, review: OpenAIAgentsApprovalRequest): void;
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

/** The function call an interruption is for, when it is one. */
function functionCallOf(interruption: RunToolApprovalItem): { callId: string; name: string; arguments: string } | undefined {
  const raw = (interruption as { rawItem?: unknown } | null)?.rawItem as { type?: unknown; callId?: unknown; name?: unknown; arguments?: unknown } | undefined;
  if (raw?.type !== 'function_call' || typeof raw.callId !== 'string' || typeof raw.name !== 'string' || typeof raw.arguments !== 'string') return undefined;
  return { callId: raw.callId, name: raw.name, arguments: raw.arguments };
}

/**
 * Turns discovered RCP tools into OpenAI Agents SDK function tools (`tool()` of `@openai/agents`)
 * whose `needsApproval` is the client's approval decision: `user-approval` pauses the run (an
 * interruption, nothing sent); `denied` runs the call, which sends nothing and answers the
 * model with the reason; `approved` and `not-applicable` run it. A paused call is shown with
 * `rcp.review(interruption, context)` and approved with `rcp.approve(state, review)`: the call
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
 * for (const interruption of result.interruptions) console.log(await rcp.review(interruption, { userId: 'u-1' }));
 * ```
 */
export function createOpenAIAgentsTools<Context = any>(
  client: RcpClient<Context>,
  source: RcpDiscovery | readonly RcpDiscovery[] | RcpToolSet,
  options: OpenAIAgentsToolsOptions<Context> = {},
): OpenAIAgentsTools<Context> {
  const { stages = {}, turn, ctx: fixedCtx, strict = true, deferLoading = false, ...setOptions } = options;
  const toolSet = createToolSet(source, setOptions);
  const stageSets = new Map(Object.entries(stages).map(([id, only]) => [id, toolSet.select(only, { stage: id })]));
  const turnOf = turn ?? ((context: unknown): OpenAIAgentsTurn<Context> => ({ ctx: (context ?? fixedCtx) as Context }));
  const warning = toolCountWarning(toolSet, { limit: OPENAI_TOOL_LIMIT, target: 'OpenAI' });
  // Approvals a person gave (`approve`), by call id, until the call they are for runs: each is
  // taken once. What binds a call is the approval's digest, which the client checks.
  const approvals = new Map<string, RcpApproval>();

  type Rest = RcpContextArgs<Context, [options?: RcpExecuteOptions]>;
  const contextArgs = (ctx: Context | undefined, executeOptions: RcpExecuteOptions = {}): Rest => [ctx ?? fixedCtx, executeOptions] as Rest;
  const reviewArgs = (ctx: Context | undefined): RcpContextArgs<Context> => [ctx ?? fixedCtx] as RcpContextArgs<Context>;

  /** The tool set a call runs in: a stage's, or the whole set; a stage this set lacks lets nothing through. */
  function scopeOf(stage: string | undefined): RcpToolSet {
    if (stage === undefined) return toolSet;
    return stageSets.get(stage) ?? toolSet.select([], { stage });
  }

  function buildTools(fixedStage: string | undefined): AgentsTool[] {
    const scopeFor = (context: unknown): { ctx: Context; scope: RcpToolSet } => {
      const { ctx, stage } = turnOf(context);
      return { ctx, scope: scopeOf(fixedStage ?? stage) };
    };
    const entries = fixedStage === undefined ? toolSet.entries : stageSets.get(fixedStage)!.entries;
    return entries.map(({ name, tool: rcpTool }) => {
      const common = {
        name,
        description: rcpTool.description,
        ...(deferLoading && { deferLoading: true }),
        // The client's decision for this call, asked before the call is made (nothing is sent).
        // A call that cannot even be built, or lies outside the stage, is not paused: running it
        // answers the model with why, and sends nothing.
        needsApproval: async (runContext: RunContext, input: unknown): Promise<boolean> => {
          const { ctx, scope } = scopeFor(runContext.context);
          if (!scope.names.includes(name)) return false;
          try {
            // The decision alone: no resolver runs, no credential is asked, no request is built.
            return (await client.decide(rcpTool, input, ...reviewArgs(ctx))).decision === 'user-approval';
          } catch {
            return false;
          }
        },
        execute: async (input: unknown, runContext?: RunContext, details?: ToolCallDetails): Promise<OpenAIAgentsToolOutput> => {
          const { ctx, scope } = scopeFor(runContext?.context);
          const callId = details?.toolCall?.callId;
          const approval = callId === undefined ? undefined : approvals.get(callId);
          if (callId !== undefined) approvals.delete(callId);
          const executeOptions: RcpExecuteOptions = {};
          if (details?.signal !== undefined) executeOptions.signal = details.signal;
          if (approval !== undefined) executeOptions.approval = approval;
          const outcome = await client.call(scope, { name, arguments: input }, ...contextArgs(ctx, executeOptions));
          return toAgentsToolOutput(toModelResult(outcome), name);
        },
        // Only a non-RCP error (a bug) reaches here: the model reads UNKNOWN_ERROR, never its text.
        errorFunction: (_runContext: RunContext, error: unknown): string => toModelText(toModelResult(error)),
      };
      const schema = toOpenAISchema(rcpTool.inputSchema, { strict });
      if (schema.strict) return tool<StrictSchema, unknown, OpenAIAgentsToolOutput>({ ...common, parameters: schema.parameters as StrictSchema, strict: true });
      // Not strict: rcp-openai's schema stays closed (`additionalProperties: false`, what OpenAI is
      // sent); the SDK passes it on as it is, though its non-strict type names `true`.
      return tool<OpenSchema, unknown, OpenAIAgentsToolOutput>({ ...common, parameters: schema.parameters as OpenSchema, strict: false });
    });
  }

  const tools = buildTools(undefined);
  const byStage = new Map<string, AgentsTool[]>();

  /** The pending interruption of `state` for `callId`, and the tool set's entry it calls. */
  function pendingCall(state: RunState<any, any>, callId: unknown, what: string) {
    if (typeof state?.getInterruptions !== 'function') {
      throw new RcpError('RCP_INVALID_OPTIONS', `${what}() takes the run's RunState (result.state, or RunState.fromString's)`);
    }
    if (typeof callId !== 'string') throw new RcpError('RCP_INVALID_OPTIONS', `${what}() takes a review from rcp.review(), or an interruption`);
    const interruption = state.getInterruptions().find((item) => functionCallOf(item)?.callId === callId);
    if (interruption === undefined) {
      throw new RcpError('RCP_INVALID_OPTIONS', `${what}(): the run state has no pending approval for call "${callId.slice(0, 64)}"`);
    }
    return { interruption, entry: toolSet.entries.find((entry) => entry.name === functionCallOf(interruption)!.name) };
  }

  return Object.freeze({
    get tools(): AgentsTool[] {
      return [...tools];
    },
    stageTools(stage: string): AgentsTool[] {
      if (!stageSets.has(stage)) {
        const known = [...stageSets.keys()].join(', ') || 'none';
        throw new RcpError('RCP_INVALID_OPTIONS', `No stage "${stage}" in this tool set (its stages: ${known})`);
      }
      let stageList = byStage.get(stage);
      if (stageList === undefined) byStage.set(stage, (stageList = buildTools(stage)));
      return [...stageList];
    },
    toolSet,
    warnings: Object.freeze(warning === undefined ? [] : [warning]),
    async review(interruption: RunToolApprovalItem, context?: unknown) {
      const call = functionCallOf(interruption);
      if (call === undefined) throw new RcpError('RCP_INVALID_OPTIONS', 'review() takes an interruption of a function tool call (result.interruptions)');
      const rcpTool = toolSet.tool(call.name);
      const { ctx } = turnOf(context);
      const review = await client.review(rcpTool, call.arguments, ...reviewArgs(ctx));
      return Object.freeze({ ...review, callId: call.callId });
    },
    approve(state: RunState<any, any>, review: OpenAIAgentsApprovalRequest) {
      const approval = approve(review);
      const { interruption, entry } = pendingCall(state, review.callId, 'approve');
      if (entry?.tool.name !== approval.tool) {
        throw new RcpError('RCP_INVALID_OPTIONS', `approve(): the review is for tool "${approval.tool.slice(0, 64)}", not for the call "${review.callId.slice(0, 64)}" names`);
      }
      approvals.set(review.callId, approval);
      state.approve(interruption);
    },
    reject(state: RunState<any, any>, call: OpenAIAgentsApprovalRequest | RunToolApprovalItem, rejectOptions: { readonly reason?: string } = {}) {
      // A review names its call; an interruption is its call.
      const named = (call as { callId?: unknown } | null)?.callId;
      const callId = named !== undefined ? named : functionCallOf(call as RunToolApprovalItem)?.callId;
      const { interruption, entry } = pendingCall(state, callId, 'reject');
      const reason = rejectOptions.reason;
      if (reason !== undefined && typeof reason !== 'string') throw new RcpError('RCP_INVALID_OPTIONS', 'reject(): "reason" must be a string');
      approvals.delete(callId as string);
      const denial = new RcpApprovalDeniedError(entry?.tool.name ?? functionCallOf(interruption)!.name, reason);
      state.reject(interruption, { message: toModelText(toModelResult(denial)) });
    },
  });
}
