import type { ServerResponse } from 'node:http';
import { sendJson, serveManifest, startTestServer, type TestServer } from './test-server';

/** How many events `stream_answer`'s SSE answer has. */
export const STREAM_EVENTS = 1_000;

/** The text `stream_answer` collects: the `delta.text` of its {@link STREAM_EVENTS} events, joined. */
export const STREAM_TEXT = Array.from({ length: STREAM_EVENTS }, (_, index) => `w${index} `).join('');

/**
 * The manifest {@link startStreamApi} serves (RCP 0.4): `stream_answer`, an SSE answer collected
 * by `concat` of each event's `delta.text` (SPEC §20.6), and `get_status`, a plain JSON answer —
 * so an adapter test can show that only a streamed tool reports progress.
 */
export const streamManifest = {
  rcpVersion: '0.4',
  tools: [
    {
      name: 'stream_answer',
      description: 'Streams an answer.',
      method: 'POST',
      url: '/answer',
      stream: { format: 'sse', collect: 'concat', field: '@delta.text' },
    },
    { name: 'get_status', description: 'Gets the status.', method: 'GET', url: '/status' },
  ],
} as const;

/** Writes `chunks` one per turn of the event loop (the client reads them as they come), then ends. */
function writeOverTime(res: ServerResponse, chunks: readonly string[]): void {
  let index = 0;
  const next = (): void => {
    if (res.destroyed) return;
    if (index === chunks.length) {
      res.end();
      return;
    }
    res.write(chunks[index]!);
    index += 1;
    setImmediate(next);
  };
  next();
}

/**
 * Starts the streamed-answer API on loopback: `POST /answer` writes {@link STREAM_EVENTS} SSE
 * events (`data: {"index":i,"delta":{"text":"w<i> "}}`) and `[DONE]` over many turns of the
 * event loop, in chunks that split events; `GET /status` answers `{ "status": "ok" }`. Every
 * adapter's streams test uses it, so each stack collects the same 1,000 events.
 */
export async function startStreamApi(): Promise<{ server: TestServer; manifestUrl: string }> {
  const server = await startTestServer();
  const manifestUrl = serveManifest(server, streamManifest);
  const events = Array.from({ length: STREAM_EVENTS }, (_, index) => `data: ${JSON.stringify({ index, delta: { text: `w${index} ` } })}\n\n`);
  const body = `${events.join('')}data: [DONE]\n\n`;
  server.route('POST /answer', (_request, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    writeOverTime(res, body.match(/[\s\S]{1,1999}/g)!);
  });
  server.route('GET /status', (_request, res) => sendJson(res, 200, { status: 'ok' }));
  return { server, manifestUrl };
}
