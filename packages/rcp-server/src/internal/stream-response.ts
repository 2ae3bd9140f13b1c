/**
 * A streamed tool's answer (RCP 0.4 `stream`, SPEC §20.6): the events a handler yields, written as
 * Server-Sent Events or NDJSON, one chunk per event as it comes (docs/behaviour.md, streamed answers).
 */
import type { RcpStream } from 'rcp-manifest';

/** The media type each format is answered with: the first of the client's accepted ones. */
const STREAM_CONTENT_TYPES: Readonly<Record<RcpStream['format'], string>> = {
  sse: 'text/event-stream; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

/** What an SSE stream sends when its handler fails: an `error` event, whose data says nothing of the failure. */
const SSE_ERROR_FRAME = 'event: error\ndata: {"error":"the stream failed"}\n\n';

/** Whether a handler's result is events to stream: an iterable or async iterable that is not text. */
export function isEventSource(result: unknown): result is AsyncIterable<unknown> | Iterable<unknown> {
  if (typeof result !== 'object' || result === null) return false;
  return Symbol.asyncIterator in result || Symbol.iterator in result;
}

/** One event's text: a string as it is (SSE) or any value as JSON. */
function eventText(value: unknown, asJson: boolean): string {
  const text = !asJson && typeof value === 'string' ? value : JSON.stringify(value);
  if (text === undefined) throw new TypeError(`A streamed tool's handler yielded ${typeof value}, which has no JSON form`);
  return text;
}

/** One event as the format writes it: SSE `data:` lines (one per line of the text) and a blank line, or one NDJSON line. */
function frame(format: RcpStream['format'], value: unknown): string {
  if (format === 'ndjson') return `${eventText(value, true)}\n`;
  return `${eventText(value, false)
    .split(/\r\n|\r|\n/)
    .map((line) => `data: ${line}`)
    .join('\n')}\n\n`;
}

/**
 * The `200` response streaming `events`: each one encoded and enqueued as its own chunk when the
 * handler yields it (a transport flushes it then), `Cache-Control: no-cache`. When the reader
 * goes away (the client stopped at its `maxEvents`, or hung up) the iterator is returned, so a
 * generator's `finally` runs. A handler that throws mid-stream ends an SSE answer with an `error`
 * event (a client fails the call, SPEC M27.12) and cuts an NDJSON answer (the body errors, so no
 * client takes what came before for the whole).
 */
export function streamResponse(format: RcpStream['format'], events: AsyncIterable<unknown> | Iterable<unknown>): Response {
  const iterator: AsyncIterator<unknown> | Iterator<unknown> =
    Symbol.asyncIterator in events ? (events as AsyncIterable<unknown>)[Symbol.asyncIterator]() : (events as Iterable<unknown>)[Symbol.iterator]();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await iterator.next();
          if (next.done === true) return controller.close();
          controller.enqueue(encoder.encode(frame(format, next.value)));
        } catch (error) {
          if (format === 'sse') {
            controller.enqueue(encoder.encode(SSE_ERROR_FRAME));
            controller.close();
            return;
          }
          // The handler's own error stays the operator's (its cause): a framework may show the message to the caller.
          controller.error(new Error("A streamed tool's handler failed mid-stream", { cause: error }));
        }
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    // One event at a time: the next is asked for only when the last was taken.
    { highWaterMark: 0 },
  );
  return new Response(body, { status: 200, headers: { 'content-type': STREAM_CONTENT_TYPES[format], 'cache-control': 'no-cache' } });
}
