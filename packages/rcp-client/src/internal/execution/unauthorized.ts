import { isRcpError } from 'rcp-errors';
import type { RcpClientTool } from '../../client-tool';
import type { RcpUnauthorizedHandler } from '../../client-options';
import type { AbortState } from '../send/deadline';
import type { CompiledTool } from '../discovery/tool-registry';

/**
 * Whether a failed call is sent once more after a 401 (client option `onUnauthorized`): only a
 * 401 `RcpHttpError` of a tool that sends a credential, and only when the handler answers
 * exactly `true` before the call's deadline ends. A throw or a late answer is a "no".
 */
export async function retriesAfterUnauthorized(
  onUnauthorized: RcpUnauthorizedHandler | undefined,
  error: unknown,
  compiled: CompiledTool,
  tool: RcpClientTool,
  ctx: unknown,
  credential: string | undefined,
  deadline: AbortState,
): Promise<boolean> {
  if (onUnauthorized === undefined || compiled.auth === undefined) return false;
  if (!isRcpError(error, 'RCP_HTTP_ERROR') || error.status !== 401) return false;
  let onAbort: (() => void) | undefined;
  try {
    const answer = Promise.resolve(
      onUnauthorized({
        ctx,
        tool,
        origin: tool.origin,
        manifestUrl: tool.manifestUrl,
        challenge: error.challenge,
        // The refused credential itself never leaves the client: only whether a value is it.
        wasSent: (value: string) => credential !== undefined && value === credential,
      }),
    );
    // No timer of its own: the call's one deadline bounds the wait.
    const late = new Promise<false>((resolve) => {
      onAbort = () => resolve(false);
      if (deadline.aborted) resolve(false);
      else deadline.once('abort', onAbort);
    });
    return (await Promise.race([answer, late])) === true;
  } catch {
    return false;
  } finally {
    if (onAbort !== undefined) deadline.removeListener('abort', onAbort);
  }
}
