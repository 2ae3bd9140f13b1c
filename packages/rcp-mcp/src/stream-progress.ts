/**
 * A streamed answer's progress as MCP progress notifications (docs/behaviour.md, the gateway; SPEC
 * §20.6): when the host's `tools/call` carries `_meta.progressToken`, rcp-client's `onProgress`
 * becomes `notifications/progress` on that request — the first event at once, then at most one
 * per {@link PROGRESS_INTERVAL_MS}, and the last count before the result, never after it.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import type { RcpStreamProgress } from 'rcp-client';

/** The least time between two progress notifications of one call (the first and the last excepted). */
export const PROGRESS_INTERVAL_MS = 100;

/** What a call reports progress through: the client's hook, and the last word before the result. */
export interface ProgressReporter {
  /** rcp-client's `onProgress`: sends when the interval has passed since the last notification. */
  readonly onProgress: (progress: RcpStreamProgress) => void;
  /** Sends the latest count when it was not sent yet and waits until every notification is sent; then nothing is. */
  finish(): Promise<void>;
}

/** The notification's text: counts only (the stream's content is the tool's, never shown here). */
function progressMessage({ events, bytes }: RcpStreamProgress): string {
  return `${events} event${events === 1 ? '' : 's'} of the tool's stream read (${bytes} bytes)`;
}

/**
 * A reporter for one call, or `undefined` when the request carries no progress token (nothing
 * changes then). `total` is the tool's declared `maxEvents`, when it has one: the most events the
 * call reads (a stream may end before it). A notification that cannot be sent (the host went away) is dropped: progress is
 * observation, the call goes on and its result says how it ended.
 */
export function progressReporter(mcp: ServerContext, total?: number): ProgressReporter | undefined {
  const progressToken = mcp.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  let latest: RcpStreamProgress | undefined;
  let sentEvents = 0;
  let sentAt = Number.NEGATIVE_INFINITY;
  let finished = false;
  /** Every notification sent so far, settled: the result waits for all of them, not only the last. */
  let inFlight: Promise<unknown> = Promise.resolve();

  const send = (progress: RcpStreamProgress): void => {
    sentEvents = progress.events;
    sentAt = performance.now();
    const params = { progressToken, progress: progress.events, ...(total !== undefined && { total }), message: progressMessage(progress) };
    const sent = mcp.mcpReq.notify({ method: 'notifications/progress', params }).catch(() => undefined);
    inFlight = Promise.all([inFlight, sent]);
  };

  return {
    onProgress(progress) {
      if (finished) return;
      latest = progress;
      if (performance.now() - sentAt >= PROGRESS_INTERVAL_MS) send(progress);
    },
    async finish() {
      if (finished) return;
      finished = true;
      if (latest !== undefined && latest.events > sentEvents) send(latest);
      await inFlight;
    },
  };
}
