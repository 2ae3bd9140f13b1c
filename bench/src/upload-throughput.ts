/**
 * Scenario 13: what uploading a file through rcp-client costs (issue 42, RCP 0.4 files, SPEC
 * §20.7). A loopback `node:http` server in this process reads each request body to its end and
 * answers `{ bytes }`; the same 10 MB file (random bytes, made once) is posted two ways,
 * interleaved per round with the order rotated:
 *
 * - a hand-written upload: `fetch` with a `FormData` of the file (a `Blob`) and one text field;
 * - rcp-client: `execute` of a tool with a `file` param and `bodyEncoding: "multipart"`, the file
 *   given by its `files` resolver (checked, hashed for the review digest, sent as chunks).
 *
 * Throughput is file bytes ÷ time per upload; rcp ÷ fetch is the ratio of times. Reported, never asserted.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRcpClient } from 'rcp-client';
import { median, rotate } from './lib/stats.js';

export interface UploadThroughputResult {
  fileBytes: number;
  uploads: number;
  rounds: number;
  /** Medians over rounds of milliseconds per upload. */
  fetchMs: number;
  rcpMs: number;
  /** File megabytes (10^6 bytes) per second, from the medians. */
  fetchMBps: number;
  rcpMBps: number;
  /** Median over rounds of (rcp ÷ fetch) time per upload. */
  rcpPerFetch: number;
  /** Whether every upload's body reached the server whole (at least the file's bytes, the same size each way). */
  complete: boolean;
}

type ContenderId = 'fetch' | 'rcp';

export async function runUploadThroughput(options: { rounds: number; uploads: number; fileBytes: number }): Promise<UploadThroughputResult> {
  const file = new Uint8Array(randomBytes(options.fileBytes));
  const manifest = JSON.stringify({
    rcpVersion: '0.4',
    tools: [
      {
        name: 'upload',
        description: 'Uploads a file.',
        method: 'POST',
        url: '/upload',
        params: [
          { name: 'file', type: 'file', required: true },
          { name: 'purpose', required: true },
        ],
        body: { file: '{{file}}', purpose: '{{purpose}}' },
        bodyEncoding: 'multipart',
      },
    ],
  });
  const received: Record<ContenderId, number[]> = { fetch: [], rcp: [] };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/manifest') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(manifest) });
      res.end(manifest);
      return;
    }
    let size = 0;
    req.on('data', (chunk: Buffer) => void (size += chunk.byteLength));
    req.on('end', () => {
      // rcp-client's boundary is `rcp-` and 32 hex digits; undici's FormData writes its own.
      received[/boundary=rcp-/.test(String(req.headers['content-type'])) ? 'rcp' : 'fetch'].push(size);
      const answer = JSON.stringify({ bytes: size });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
      res.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const client = createRcpClient({ retry: 0, files: () => ({ bytes: file, mediaType: 'application/octet-stream', filename: 'big.bin' }) });
    const tool = (await client.discover(`${origin}/manifest`)).tool('upload');
    const uploadOnce: Record<ContenderId, () => Promise<void>> = {
      fetch: async () => {
        const form = new FormData();
        form.append('file', new Blob([file], { type: 'application/octet-stream' }), 'big.bin');
        form.append('purpose', 'bench');
        const response = await fetch(`${origin}/upload`, { method: 'POST', body: form });
        await response.arrayBuffer();
      },
      rcp: async () => {
        await client.execute(tool, { file: 'att-1', purpose: 'bench' });
      },
    };
    const run = async (id: ContenderId, uploads: number): Promise<number> => {
      const start = performance.now();
      for (let i = 0; i < uploads; i++) await uploadOnce[id]();
      return (performance.now() - start) / uploads;
    };
    for (const id of ['fetch', 'rcp'] as const) await run(id, 2);
    const perRound: Record<ContenderId, number[]> = { fetch: [], rcp: [] };
    for (let round = 0; round < options.rounds; round++) {
      for (const id of rotate(['fetch', 'rcp'] as const, round)) perRound[id].push(await run(id, options.uploads));
    }
    const sizes = [...received.fetch, ...received.rcp];
    const complete = received.rcp.length > 0 && received.fetch.length > 0 && sizes.every((size) => size >= options.fileBytes);
    const fetchMs = median(perRound.fetch);
    const rcpMs = median(perRound.rcp);
    return {
      fileBytes: options.fileBytes,
      uploads: options.uploads,
      rounds: options.rounds,
      fetchMs,
      rcpMs,
      fetchMBps: options.fileBytes / 1e6 / (fetchMs / 1000),
      rcpMBps: options.fileBytes / 1e6 / (rcpMs / 1000),
      rcpPerFetch: median(perRound.rcp.map((value, k) => value / perRound.fetch[k]!)),
      complete,
    };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
