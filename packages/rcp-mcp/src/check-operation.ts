/**
 * Long-running operations through the gateway (docs/behaviour.md, the gateway; SPEC §20.8): the
 * gateway serves rcp-client's `check_operation` beside tools that are `longRunning`, and a pending
 * result tells the model when and how to call it. MCP Tasks are not used: the v2 SDK the gateway
 * serves with has no runtime for them.
 */
import { CHECK_OPERATION_TOOL, checkOperationOffer, type ModelResult, type RcpToolSet } from 'rcp-client';

/**
 * Whether a gateway over `toolSet` serves `check_operation`: when one of its tools is
 * `longRunning` and none of them already has the name (then the API's own tool keeps it, and no
 * check tool is served).
 *
 * @example
 * ```ts
 * servesCheckOperation(toolSet); // true for a set with a tool that declares an `operation`
 * ```
 */
export function servesCheckOperation(toolSet: RcpToolSet): boolean {
  return checkOperationOffer(toolSet.entries).offer;
}

/**
 * The sentence a pending result adds for the model, after the result's own text: call
 * `check_operation` with this handle after `checkAfterSeconds`. `undefined` when the result is
 * not pending. The handle is the client's sealed text (`rcp1.` and base64url), never a server's.
 *
 * @example
 * ```ts
 * pendingHint({ ok: true, data: null, pending: { handle: 'rcp1.q2Vb', checkAfterSeconds: 5 } });
 * // 'The work is still running. Call check_operation with {"handle":"rcp1.q2Vb"} after 5 seconds to get its result.'
 * ```
 */
export function pendingHint(result: ModelResult): string | undefined {
  if (!result.ok || result.pending === undefined) return undefined;
  const { handle, checkAfterSeconds } = result.pending;
  const seconds = `${checkAfterSeconds} second${checkAfterSeconds === 1 ? '' : 's'}`;
  return `The work is still running. Call ${CHECK_OPERATION_TOOL.name} with ${JSON.stringify({ handle })} after ${seconds} to get its result.`;
}
