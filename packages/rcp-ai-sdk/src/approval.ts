/**
 * The AI SDK's approval flow mapped onto the client's one decision (SPEC §26): a call the
 * client's policy says needs a person pauses the AI SDK's way (`needsApproval`, a
 * `tool-approval-request`), with nothing sent; its review — the exact request — is kept under
 * the tool call id, and the call the AI SDK runs after the person's yes carries `approve(review)`,
 * so the client sends it only if it still renders exactly that request, once.
 */
import {
  approve,
  type RcpApproval,
  type RcpApprovalRequest,
  type RcpApprovalVerdict,
  type RcpClientTool,
  type RcpContextClient,
  type RcpToolSet,
} from 'rcp-client';

/**
 * Where the reviews of paused calls are kept, by the AI SDK's tool call id, until the person
 * answers — in another process too, when the store is shared (a review is plain JSON). A `Map`
 * is one (the default: `new Map()`, owned by the tools instance); pass your own to resume a
 * paused call elsewhere (a database row, a key-value store). A stored review is never replaced
 * by the adapter: what the person is shown is what the approval covers.
 *
 * @example
 * ```ts
 * const reviews = new Map<string, RcpApprovalRequest>();
 * const rcp = createAISDKTools(client, discovery, { approvalStore: reviews });
 * const store: AISDKApprovalStore = {
 *   get: async (toolCallId) => JSON.parse((await db.get(`review:${toolCallId}`)) ?? 'null') ?? undefined,
 *   set: (toolCallId, review) => db.set(`review:${toolCallId}`, JSON.stringify(review)),
 * };
 * ```
 */
export interface AISDKApprovalStore {
  get(toolCallId: string): RcpApprovalRequest | undefined | PromiseLike<RcpApprovalRequest | undefined>;
  set(toolCallId: string, review: RcpApprovalRequest): unknown;
}

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

/** One tools instance's approval flow (internal to the package). */
export function createApprovalFlow<Context>(
  client: RcpContextClient<Context>,
  store: AISDKApprovalStore,
  callOf: (experimentalContext: unknown) => AISDKCallScope<Context>,
) {
  /**
   * The client's review of a call about to run. A call already waiting on a person keeps its
   * review (the AI SDK asks again when it resumes: the review, not a new one, is what the person
   * saw). A review that cannot be made (a missing user, bad input, a tool outside the stage) is
   * none: the call runs into the same error, sends nothing, and the model reads it.
   */
  async function reviewOf(name: string, tool: RcpClientTool, input: unknown, toolCallId: string, context: unknown): Promise<RcpApprovalVerdict | undefined> {
    const pending = await store.get(toolCallId);
    if (pending !== undefined) return pending;
    const { ctx, scope } = callOf(context);
    if (!scope.names.includes(name)) return undefined;
    let review: RcpApprovalRequest;
    try {
      // The decision first (no resolver, no credential, no request built); the review only when a person decides.
      const verdict = await client.decide(tool, input, ctx);
      if (verdict.decision !== 'user-approval') return verdict;
      review = await client.review(tool, input, ctx);
    } catch {
      return undefined;
    }
    if (review.decision === 'user-approval') await store.set(toolCallId, review);
    return review;
  }

  /** AI SDK 6's `needsApproval` for one tool: true when the client's policy asks a person. */
  function needsApproval(name: string, tool: RcpClientTool) {
    return async (input: unknown, options: { toolCallId: string; experimental_context?: unknown }): Promise<boolean> =>
      (await reviewOf(name, tool, input, options.toolCallId, options.experimental_context))?.decision === 'user-approval';
  }

  /** AI SDK 7's per-tool `toolApproval` function for one tool: the client's decision, mapped. */
  function toolApprovalOf(name: string, tool: RcpClientTool): AISDKToolApprovalFunction {
    return async (input, options) => {
      const review = await reviewOf(name, tool, input, options.toolCallId, options.runtimeContext);
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

  /** The approval a call carries: the person's yes to its stored review (none when nothing waited). */
  async function approvalFor(toolCallId: string | undefined): Promise<RcpApproval | undefined> {
    if (toolCallId === undefined) return undefined;
    const review = await store.get(toolCallId);
    return review === undefined ? undefined : approve(review);
  }

  async function review(toolCallId: string): Promise<RcpApprovalRequest | undefined> {
    return store.get(toolCallId);
  }

  return { callOf, needsApproval, toolApprovalOf, approvalFor, review };
}
