import { RcpError } from 'rcp-errors';
import type { Deadline } from '../send/deadline';
import { abortedError } from '../send/send';

/**
 * `work`, or `RCP_TIMEOUT` (with `timeoutMessage`) / `RCP_ABORTED` when the call's deadline or
 * the caller's signal ends first. No timer of its own: the call's one deadline bounds the wait;
 * the work then settles later, to nobody.
 */
export function withinDeadline<T>(work: Promise<T>, deadline: Deadline, signal: AbortSignal | undefined, timeoutMessage: () => string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      work.catch(() => {}); // settles later, to nobody
      reject(deadline.timedOut() ? new RcpError('RCP_TIMEOUT', timeoutMessage()) : abortedError(signal?.reason));
    };
    if (deadline.aborted) {
      onAbort();
      return;
    }
    deadline.once('abort', onAbort);
    void work.then(resolve, reject).finally(() => deadline.removeListener('abort', onAbort));
  });
}
