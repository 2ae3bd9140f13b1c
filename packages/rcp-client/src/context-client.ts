import type { RcpApprovalRequest, RcpApprovalVerdict } from './approval';
import type { RcpCallOutcome, RcpExecuteResult, RcpToolCall } from './call-outcome';
import type { RcpDecideOptions, RcpExecuteOptions, RcpResumeOptions, RcpReviewOptions, RcpToolSource } from './client-types';
import type { RcpClientTool } from './client-tool';

/**
 * The client's calls an adapter makes, with the context as one typed argument: the adapter holds
 * a run's `ctx` as a value and passes it as it is, never spreading a cast `RcpContextArgs` tuple.
 * `RcpClient<Context>` is one for any `Context` (its `...RcpContextArgs` accepts `ctx, options?`),
 * so it is assigned to this type once, never cast.
 *
 * @example
 * ```ts
 * function runTool<Context>(client: RcpClient<Context>, discovery: RcpDiscovery, toolCall: RcpToolCall, ctx: Context) {
 *   const calls: RcpContextClient<Context> = client;
 *   return calls.call(discovery, toolCall, ctx, { signal: AbortSignal.timeout(10_000) });
 * }
 * ```
 */
export interface RcpContextClient<Context> {
  /** `RcpClient.call` with `ctx` as one argument. */
  call(source: RcpToolSource, toolCall: RcpToolCall, ctx: Context, options?: RcpExecuteOptions): Promise<RcpCallOutcome>;
  /** `RcpClient.decide` with `ctx` as one argument. */
  decide(tool: RcpClientTool, args: unknown, ctx: Context, options?: RcpDecideOptions): Promise<RcpApprovalVerdict>;
  /** `RcpClient.review` with `ctx` as one argument. */
  review(tool: RcpClientTool, args: unknown, ctx: Context, options?: RcpReviewOptions): Promise<RcpApprovalRequest>;
  /** `RcpClient.storedReview`. */
  storedReview(key: string): Promise<RcpApprovalRequest | undefined>;
  /** `RcpClient.resume` with `ctx` as one argument. */
  resume(source: RcpToolSource, handle: string, ctx: Context, options?: RcpResumeOptions): Promise<RcpExecuteResult>;
}
