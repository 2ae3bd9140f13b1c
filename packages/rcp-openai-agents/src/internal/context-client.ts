import type {
  RcpApprovalRequest,
  RcpApprovalVerdict,
  RcpCallOutcome,
  RcpClientTool,
  RcpExecuteOptions,
  RcpToolCall,
  RcpToolSet,
} from 'rcp-client';

/**
 * The client's calls this package makes, with the context as one typed argument: the adapter holds
 * the turn's `ctx` as a value and passes it as it is. `RcpClient<Context>` is one, for any
 * `Context` (its `...RcpContextArgs` accepts `ctx, options?`), so it is assigned, never cast.
 */
export interface ContextClient<Context> {
  call(source: RcpToolSet, toolCall: RcpToolCall, ctx: Context, options?: RcpExecuteOptions): Promise<RcpCallOutcome>;
  decide(tool: RcpClientTool, args: unknown, ctx: Context): Promise<RcpApprovalVerdict>;
  review(tool: RcpClientTool, args: unknown, ctx: Context): Promise<RcpApprovalRequest>;
}
