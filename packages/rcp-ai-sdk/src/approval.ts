/**
 * The AI SDK's approval flow mapped onto the client's one decision (SPEC §19; docs/behaviour.md): a call the
 * client's policy says needs a person pauses the AI SDK's way (`needsApproval`, a
 * `tool-approval-request`), with nothing sent; its review — the exact request — is kept in the
 * client's approval ledger under the tool call id. When the run resumes (the history holds the
 * call's `tool-approval-request`), the call carries the approval of that kept review — verified
 * against its digest, claimed once — and is refused, nothing sent, when none is kept: a resumed
 * call is never reviewed again, whatever the history says now.
 */
import type { RcpApprovalVerdict, RcpClientTool, RcpContextClient, RcpToolSet } from 'rcp-client';

/**
 * AI SDK 7's tool approval status (`ToolApprovalStatus`), as {@link AISDKTools.toolApproval}
 * returns it: `'user-approval'` pauses the call for a person, `{ type: 'denied', reason }` refuses
 * it (the model reads the reason), `{ type: 'approved' }` lets the policy's approval stand,
 * `'not-applicable'` needs no approval.
 *
 * @example
 * ```ts
 * const status: AISDKToolApprovalStatus = { type: 'denied', reason: 'deletes are off today' };
 * ```
 */
export type AISDKToolApprovalStatus =
  | 'not-applicable'
  | 'user-approval'
  | { readonly type: 'approved'; readonly reason?: string }
  | { readonly type: 'denied'; readonly reason?: string };

/**
 * AI SDK 7's per-tool approval function (`SingleToolApprovalFunction`), written out so it needs
 * no `ai` 7 types: the call's validated input, its tool call id and the run's `runtimeContext`.
 *
 * @example
 * ```ts
 * const status = await rcp.toolApproval.delete_note!({ noteId: 'n-1' }, { toolCallId: 'c1', runtimeContext: { userId: 'u-1' } });
 * ```
 */
export type AISDKToolApprovalFunction = (
  input: Record<string, unknown>,
  options: { readonly toolCallId: string; readonly runtimeContext?: unknown },
) => Promise<AISDKToolApprovalStatus>;

/** What a call runs with: the resolvers' context and the tools it may reach (its stage). */
export interface AISDKCallScope<Context> {
  readonly ctx: Context;
  readonly scope: RcpToolSet;
}

/** One tools instance's approval flow (internal to the package): its state is the client's ledger. */
export function createApprovalFlow<Context>(client: RcpContextClient<Context>, callOf: (experimentalContext: unknown) => AISDKCallScope<Context>) {
  /**
   * The client's decision for a call about to pause, and its review kept under the tool call id
   * when a person decides. A review that cannot be made (a missing user, bad input, a tool
   * outside the stage) is none: the call runs into the same error, sends nothing, and the model
   * reads it.
   */
  async function reviewOf(name: string, tool: RcpClientTool, input: unknown, toolCallId: string, context: unknown): Promise<RcpApprovalVerdict | undefined> {
    const { ctx, scope } = callOf(context);
    if (!scope.names.includes(name)) return undefined;
    try {
      // The decision first (no resolver, no credential, no request built); the review only when a person decides.
      const verdict = await client.decide(tool, input, ctx);
      if (verdict.decision !== 'user-approval') return verdict;
      return await client.review(tool, input, ctx, { key: toolCallId });
    } catch {
      return undefined;
    }
  }

  /**
   * AI SDK 6's `needsApproval` for one tool. On the first turn: true when the client's policy asks
   * a person (the review is kept). On resuming (the AI SDK asks again, with the history that
   * holds the call's `tool-approval-request`): true, so that the call runs into the check of its
   * kept review — a false here would let the AI SDK answer the model that no approval is needed.
   */
  function needsApproval(name: string, tool: RcpClientTool) {
    return async (input: unknown, options: { toolCallId: string; messages?: readonly unknown[]; experimental_context?: unknown }): Promise<boolean> => {
      if (isResumed(options.messages, options.toolCallId)) return true;
      return (await reviewOf(name, tool, input, options.toolCallId, options.experimental_context))?.decision === 'user-approval';
    };
  }

  /** AI SDK 7's per-tool `toolApproval` function for one tool: the client's decision, mapped. */
  function toolApprovalOf(name: string, tool: RcpClientTool): AISDKToolApprovalFunction {
    return async (input, options) => {
      // Asked again when the run resumes: a call already waiting keeps its review (never a new one).
      const kept = await client.storedReview(options.toolCallId).catch(() => undefined);
      const review = kept ?? (await reviewOf(name, tool, input, options.toolCallId, options.runtimeContext));
      switch (review?.decision) {
        case 'user-approval':
          return 'user-approval';
        case 'denied':
          return review.reason === undefined ? { type: 'denied' } : { type: 'denied', reason: review.reason };
        case 'approved':
          return review.reason === undefined ? { type: 'approved' } : { type: 'approved', reason: review.reason };
        default:
          return 'not-applicable';
      }
    };
  }

  return { callOf, needsApproval, toolApprovalOf, review: (toolCallId: string) => client.storedReview(toolCallId) };
}

/**
 * Whether the history the AI SDK hands a tool resumes this call: it holds the call's
 * `tool-approval-request` (the AI SDK runs a call after approval only then).
 */
export function isResumed(messages: readonly unknown[] | undefined, toolCallId: string): boolean {
  if (!Array.isArray(messages)) return false;
  return messages.some((message: { role?: unknown; content?: unknown }) => {
    if (message?.role !== 'assistant' || !Array.isArray(message.content)) return false;
    return message.content.some(
      (part: { type?: unknown; toolCallId?: unknown } | null) => part?.type === 'tool-approval-request' && part.toolCallId === toolCallId,
    );
  });
}
