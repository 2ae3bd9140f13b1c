import { isRcpError } from 'rcp-errors';
import type { RcpExecuteResult } from '../../call-outcome';
import type { RcpClientTool } from '../../client-tool';
import { RcpResponseError } from '../../response-error';
import { withinDeadline } from '../execution/within-deadline';
import type { ResolvedClientOptions } from '../options/resolve-options';
import type { Deadline } from '../send/deadline';

/**
 * The operator's `inspectResult`, within the call's deadline: nothing → the result stands; a
 * refusal or a throw (failing closed) → `RCP_INVALID_RESPONSE` the model reads.
 */
export async function inspected<Context>(
  inspect: ResolvedClientOptions['inspectResult'],
  tool: RcpClientTool,
  result: RcpExecuteResult,
  ctx: Context | undefined,
  deadline: Deadline,
  signal: AbortSignal | undefined,
): Promise<RcpExecuteResult> {
  if (inspect === undefined) return result;
  const refused = (reason: string | undefined, cause?: unknown): RcpResponseError =>
    new RcpResponseError('refused-by-inspector', `The client's inspectResult refused the response of tool "${tool.name}"`, {
      tool: tool.name,
      ...(reason !== undefined && { reason }),
      ...(cause !== undefined && { cause }),
    });
  let verdict: unknown;
  try {
    const work = Promise.resolve().then(() => inspect({ tool, result: Object.freeze({ ...result }), ctx }));
    verdict = await withinDeadline(work, deadline, signal, () => `Tool "${tool.name}": inspectResult did not answer within ${deadline.timeout} ms`);
  } catch (error) {
    if (isRcpError(error, 'RCP_TIMEOUT') || isRcpError(error, 'RCP_ABORTED')) throw error;
    throw refused(undefined, error);
  }
  if (verdict === undefined || verdict === null) return result;
  // Anything but nothing, `{ refuse: true | reason }` or `{ refuse: false }` refuses: it fails closed.
  const refuse = typeof verdict === 'object' ? (verdict as { refuse?: unknown }).refuse : true;
  if (refuse === undefined || refuse === false) return result;
  throw refused(typeof refuse === 'string' && refuse !== '' ? refuse : undefined);
}
