/**
 * Scenario 12: what collecting a streamed answer costs per event (issue 42, RCP 0.4 streams, SPEC
 * §20.6). A loopback `node:http` server in this process answers the same 10,000-event SSE body
 * (each event `{"index":N,"delta":"word "}`, then `[DONE]`) two ways, interleaved per round with the
 * order rotated:
 *
 * - a plain read: `fetch` and `arrayBuffer()` of the bytes (the floor: transport, no parsing);
 * - rcp-client: `execute` of a tool with `stream: { format: 'sse', collect: 'concat', field:
 *   '@delta' }` — every event parsed (SSE lines, the data's JSON, the field) and joined, progress
 *   counted.
 *
 * Per event = (rcp − plain) ÷ events. Reported, never asserted.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRcpClient } from 'rcp-client';
import { median, rotate } from './lib/stats.js';

export interface StreamCollectResult {
  events: number;
  /** Bytes of the SSE body. */
  bodyBytes: number;
  reads: number;
  rounds: number;
  /** Medians over rounds of milliseconds per read. */
  plainMs: number;
  rcpMs: number;
  /** Median over rounds of (rcp ÷ plain). */
  rcpPerPlain: number;
  /** Median over rounds of (rcp − plain) ÷ events, in nanoseconds: the parse-and-collect cost of one event. */
  parseNsPerEvent: number;
  /** Whether rcp-client's collected text is every event's delta, in order. */
  sameOutput: boolean;
}

type ContenderId = 'plain' | 'rcp';

export async function runStreamCollect(options: { rounds: number; reads: number; events: number }): Promise<StreamCollectResult> {
  const words = Array.from({ length: options.events }, (_, index) => `w${index} `);
  const body = Buffer.from(`${words.map((word, index) => `data: ${JSON.stringify({ index, delta: word })}\n\n`).join('')}data: [DONE]\n\n`);
  const manifest = JSON.stringify({
    rcpVersion: '0.4',
    tools: [{ name: 'stream', description: 'Streams words.', method: 'GET', url: '/stream', stream: { format: 'sse', collect: 'concat', field: '@delta' } }],
  });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/manifest') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(manifest) });
      res.end(manifest);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const client = createRcpClient({ retry: 0, maxResponseBytes: 64 * 1024 * 1024 });
    const tool = (await client.discover(`${origin}/manifest`)).tool('stream');
    const expected = words.join('');
    let sameOutput = true;
    let progressSink = 0;
    const readOnce: Record<ContenderId, () => Promise<void>> = {
      plain: async () => {
        const response = await fetch(`${origin}/stream`, { headers: { accept: 'text/event-stream' } });
        if ((await response.arrayBuffer()).byteLength !== body.byteLength) throw new Error('plain: short read');
      },
      rcp: async () => {
        const result = await client.execute(tool, {}, undefined, { onProgress: ({ events }) => void (progressSink += events) });
        if (result.data !== expected) sameOutput = false;
      },
    };
    const run = async (id: ContenderId, reads: number): Promise<number> => {
      const start = performance.now();
      for (let i = 0; i < reads; i++) await readOnce[id]();
      return (performance.now() - start) / reads;
    };
    for (const id of ['plain', 'rcp'] as const) await run(id, Math.max(2, options.reads >> 2));
    const perRound: Record<ContenderId, number[]> = { plain: [], rcp: [] };
    for (let round = 0; round < options.rounds; round++) {
      for (const id of rotate(['plain', 'rcp'] as const, round)) perRound[id].push(await run(id, options.reads));
    }
    if (progressSink === 0) sameOutput = false;
    return {
      events: options.events,
      bodyBytes: body.byteLength,
      reads: options.reads,
      rounds: options.rounds,
      plainMs: median(perRound.plain),
      rcpMs: median(perRound.rcp),
      rcpPerPlain: median(perRound.rcp.map((value, k) => value / perRound.plain[k]!)),
      parseNsPerEvent: median(perRound.rcp.map((value, k) => ((value - perRound.plain[k]!) * 1e6) / options.events)),
      sameOutput,
    };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
