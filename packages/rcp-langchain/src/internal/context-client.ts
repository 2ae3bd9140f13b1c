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
 * the run's `ctx` as a value and passes it as it is. `RcpClient<Context>` is one, for any
 * `Context` (its `...RcpContextArgs` accepts `ctx, options?`), so it is assigned, never cast.
 */
export interface ContextClient<Context> {
  call(source: RcpToolSet, toolCall: RcpToolCall, ctx: Context, options?: RcpExecuteOptions): Promise<RcpCallOutcome>;
  decide(tool: RcpClientTool, args: unknown, ctx: Context): Promise<RcpApprovalVerdict>;
  review(tool: RcpClientTool, args: unknown, ctx: Context): Promise<RcpApprovalRequest>;
}

/**
 * The context of a run: `context(configurable)`, or — without a `context` option, the documented
 * default — the `configurable` object itself (then `Context` is its shape).
 */
export function contextOf<Context>(
  context: ((configurable: Record<string, unknown>) => Context) | undefined,
  configurable: Record<string, unknown> | undefined,
): Context {
  return context === undefined ? ((configurable ?? {}) as Context) : context(configurable ?? {});
}
