/**
 * Approvals across a `RunState`: a paused call's review (the client's, with the interruption's
 * `callId`), a person's yes bound to that review's digest until the call runs, and a no that
 * answers the model with the denial. Internal to the package: `createOpenAIAgentsTools` exposes
 * `review`, `approve` and `reject`, and its tools take the approval for their call id.
 */
import type { RunState, RunToolApprovalItem } from '@openai/agents';
import { RcpApprovalDeniedError, RcpError, approve, toModelResult, toModelText, type RcpApproval, type RcpContextClient, type RcpToolSet } from 'rcp-client';
import type { OpenAIAgentsApprovalRequest, OpenAIAgentsTools, OpenAIAgentsTurn } from './openai-agents-tools';

/** What the tools and `createOpenAIAgentsTools` use of one tool set's approvals. */
export interface RunStateApprovals extends Pick<OpenAIAgentsTools, 'review' | 'approve' | 'reject'> {
  /** The approval a person gave for `callId`, removed as it is taken (each binds one call). */
  take(callId: string | undefined): RcpApproval | undefined;
}

/** The function call an interruption is for, when it is one. */
function functionCallOf(interruption: RunToolApprovalItem): { callId: string; name: string; arguments: string } | undefined {
  const raw = (interruption as { rawItem?: unknown } | null)?.rawItem as { type?: unknown; callId?: unknown; name?: unknown; arguments?: unknown } | undefined;
  if (raw?.type !== 'function_call' || typeof raw.callId !== 'string' || typeof raw.name !== 'string' || typeof raw.arguments !== 'string') return undefined;
  return { callId: raw.callId, name: raw.name, arguments: raw.arguments };
}

/** The pending interruption of `state` for `callId`, and the tool set's entry it calls. */
function pendingCall(toolSet: RcpToolSet, state: RunState<any, any>, callId: unknown, what: string) {
  if (typeof state?.getInterruptions !== 'function') {
    throw new RcpError('RCP_INVALID_OPTIONS', `${what}() takes the run's RunState (result.state, or RunState.fromString's)`);
  }
  if (typeof callId !== 'string') throw new RcpError('RCP_INVALID_OPTIONS', `${what}() takes a review from rcp.review(), or an interruption`);
  const interruption = state.getInterruptions().find((item) => functionCallOf(item)?.callId === callId);
  if (interruption === undefined) {
    throw new RcpError('RCP_INVALID_OPTIONS', `${what}(): the run state has no pending approval for call "${callId.slice(0, 64)}"`);
  }
  return { interruption, callId, entry: toolSet.entries.find((entry) => entry.name === functionCallOf(interruption)!.name) };
}

/** The approvals of one tool set; the map of given approvals is this instance's own. */
export function createRunStateApprovals<Context>(
  client: RcpContextClient<Context>,
  toolSet: RcpToolSet,
  turnOf: (runContext: unknown) => OpenAIAgentsTurn<Context>,
): RunStateApprovals {
  // Approvals a person gave (`approve`), by call id, until the call they are for runs: each is
  // taken once. What binds a call is the approval's digest, which the client checks.
  const approvals = new Map<string, RcpApproval>();
  return {
    take(callId) {
      if (callId === undefined) return undefined;
      const approval = approvals.get(callId);
      approvals.delete(callId);
      return approval;
    },
    async review(interruption: RunToolApprovalItem, context?: unknown) {
      const call = functionCallOf(interruption);
      if (call === undefined) throw new RcpError('RCP_INVALID_OPTIONS', 'review() takes an interruption of a function tool call (result.interruptions)');
      const rcpTool = toolSet.tool(call.name);
      const review = await client.review(rcpTool, call.arguments, turnOf(context).ctx);
      return Object.freeze({ ...review, callId: call.callId });
    },
    approve(state: RunState<any, any>, review: OpenAIAgentsApprovalRequest) {
      const approval = approve(review);
      const { interruption, entry } = pendingCall(toolSet, state, review.callId, 'approve');
      if (entry?.tool.name !== approval.tool) {
        throw new RcpError(
          'RCP_INVALID_OPTIONS',
          `approve(): the review is for tool "${approval.tool.slice(0, 64)}", not for the call "${review.callId.slice(0, 64)}" names`,
        );
      }
      approvals.set(review.callId, approval);
      state.approve(interruption);
    },
    reject(state: RunState<any, any>, call: OpenAIAgentsApprovalRequest | RunToolApprovalItem, rejectOptions: { readonly reason?: string } = {}) {
      // A review names its call; an interruption is its call.
      const named = (call as { callId?: unknown } | null)?.callId;
      const { interruption, entry, callId } = pendingCall(
        toolSet,
        state,
        named !== undefined ? named : functionCallOf(call as RunToolApprovalItem)?.callId,
        'reject',
      );
      const reason = rejectOptions.reason;
      if (reason !== undefined && typeof reason !== 'string') throw new RcpError('RCP_INVALID_OPTIONS', 'reject(): "reason" must be a string');
      approvals.delete(callId);
      const denial = new RcpApprovalDeniedError(entry?.tool.name ?? functionCallOf(interruption)!.name, reason);
      state.reject(interruption, { message: toModelText(toModelResult(denial)) });
    },
  };
}
