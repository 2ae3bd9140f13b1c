/**
 * Approvals across a `RunState`: a paused call's review is the one the client kept in its
 * approval ledger under the interruption's `callId` when the call paused (never a new one made
 * from what the state says now), verified against its digest; a person's yes to exactly that
 * review is bound to it until the call runs; a no answers the model with the denial. Internal to
 * the package: `createOpenAIAgentsTools` exposes `review`, `approve` and `reject`, and its tools
 * take the approval for their call id.
 */
import type { RunState, RunToolApprovalItem } from '@openai/agents';
import {
  RcpApprovalDeniedError,
  RcpApprovalMismatchError,
  RcpError,
  approve,
  toModelResult,
  toModelText,
  type RcpApproval,
  type RcpApprovalRequest,
  type RcpContextClient,
  type RcpToolSet,
} from 'rcp-client';
import type { OpenAIAgentsApprovalRequest, OpenAIAgentsTools } from './openai-agents-tools';

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

/** The review the client kept for `callId` when the call paused, verified: none kept is a refusal (never a new review). */
async function keptReview<Context>(client: RcpContextClient<Context>, callId: string, name: string): Promise<RcpApprovalRequest> {
  const review = await client.storedReview(callId);
  if (review === undefined) {
    throw new RcpApprovalMismatchError(
      name,
      `no review is kept for call "${callId.slice(0, 64)}" (it did not pause with this client's approval ledger, or it expired): a resumed call is never reviewed again`,
    );
  }
  return review;
}

/** The same review: the request shown, its digest and id (a review edited where the app kept it is not). */
function sameReview(kept: RcpApprovalRequest, given: RcpApprovalRequest): boolean {
  return kept.digest === given.digest && kept.id === given.id && JSON.stringify(kept.request) === JSON.stringify(given.request) && kept.reason === given.reason;
}

/** The approvals of one tool set; the map of given approvals (from `approve` to the call) is this instance's own. */
export function createRunStateApprovals<Context>(client: RcpContextClient<Context>, toolSet: RcpToolSet): RunStateApprovals {
  // Approvals a person gave (`approve`), by call id, until the call they are for runs: each is
  // taken once. What binds a call is the approval's digest, which the client checks, and its
  // claim in the client's approval ledger, which makes it single use across processes.
  const approvals = new Map<string, RcpApproval>();
  return {
    take(callId) {
      if (callId === undefined) return undefined;
      const approval = approvals.get(callId);
      approvals.delete(callId);
      return approval;
    },
    async review(interruption: RunToolApprovalItem) {
      const call = functionCallOf(interruption);
      if (call === undefined) throw new RcpError('RCP_INVALID_OPTIONS', 'review() takes an interruption of a function tool call (result.interruptions)');
      const review = await keptReview(client, call.callId, toolSet.tool(call.name).name);
      return Object.freeze({ ...review, callId: call.callId });
    },
    async approve(state: RunState<any, any>, review: OpenAIAgentsApprovalRequest) {
      const approval = approve(review);
      const { interruption, entry } = pendingCall(toolSet, state, review.callId, 'approve');
      if (entry?.tool.name !== approval.tool) {
        throw new RcpError(
          'RCP_INVALID_OPTIONS',
          `approve(): the review is for tool "${approval.tool.slice(0, 64)}", not for the call "${review.callId.slice(0, 64)}" names`,
        );
      }
      // The person said yes to what they were shown: it must be the review kept for this call.
      const kept = await keptReview(client, review.callId, entry.tool.name);
      if (!sameReview(kept, review)) {
        throw new RcpApprovalMismatchError(entry.tool.name, `the review approved is not the one kept for call "${review.callId.slice(0, 64)}"`);
      }
      approvals.set(review.callId, approve(kept));
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
