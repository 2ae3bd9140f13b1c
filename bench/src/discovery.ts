/**
 * Scenario 2: discovery cost for generated manifests of 10, 1,000 and 10,000 tools.
 *  - `parseManifest` alone (JSON text → validated, frozen manifest),
 *  - `client.discover(url)` with an in-memory `fetch` (everything after the HTTP fetch: body read,
 *    parse, validate, compile templates, build model-facing schemas) + `describeManifest`,
 *  - `client.discover(url)` over loopback HTTP + `describeManifest`, and the bare loopback fetch of
 *    the same bytes for reference.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeManifest, createRcpClient } from 'rcp-client';
import { parseManifest } from 'rcp-manifest';
import { generateManifest } from './lib/generate-manifest.js';
import { median } from './lib/stats.js';

export type DiscoveryOp = 'parseManifest' | 'discover (in-memory fetch) + describe' | 'discover (loopback HTTP) + describe' | 'loopback fetch only';

export interface DiscoveryOpResult {
  op: DiscoveryOp;
  status: 'ok' | 'n/a';
  reason?: string;
  /** Median over rounds of milliseconds per operation. */
  ms?: number;
  /** `ms` ÷ tool count, in microseconds. */
  microsPerTool?: number;
  rounds?: number[];
}

export interface DiscoverySize {
  tools: number;
  manifestBytes: number;
  repetitionsPerRound: number;
  rounds: number;
  ops: DiscoveryOpResult[];
}

export interface DiscoveryResult {
  rounds: number;
  sizes: DiscoverySize[];
  notes: string[];
}

const MANIFEST_PATH = '/manifest.json';

export async function runDiscovery(options: { rounds: number; sizes: number[] }): Promise<DiscoveryResult> {
  const notes: string[] = [];
  let current = Buffer.alloc(0);
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': current.length });
    res.end(current);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const manifestUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${MANIFEST_PATH}`;
  const limits = { maxBytes: 256 * 2 ** 20, maxTools: 1_000_000 };
  const memoryFetch = (async () => new Response(current, { status: 200, headers: { 'content-type': 'application/json' } })) as unknown as typeof fetch;
  const memoryClient = createRcpClient({ fetch: memoryFetch, maxManifestBytes: limits.maxBytes, maxManifestTools: limits.maxTools });
  const httpClient = createRcpClient({ maxManifestBytes: limits.maxBytes, maxManifestTools: limits.maxTools });

  const sizes: DiscoverySize[] = [];
  try {
    for (const count of options.sizes) {
      const text = JSON.stringify(generateManifest(count));
      current = Buffer.from(text);
      const ops: { op: DiscoveryOp; run: () => Promise<unknown> | unknown }[] = [
        { op: 'parseManifest', run: () => parseManifest(text, limits) },
        {
          op: 'discover (in-memory fetch) + describe',
          run: async () => {
            const discovery = await memoryClient.discover(manifestUrl);
            return describeManifest(discovery.manifest, discovery.tools);
          },
        },
        {
          op: 'discover (loopback HTTP) + describe',
          run: async () => {
            const discovery = await httpClient.discover(manifestUrl);
            return describeManifest(discovery.manifest, discovery.tools);
          },
        },
        {
          op: 'loopback fetch only',
          run: async () => (await fetch(manifestUrl)).arrayBuffer(),
        },
      ];
      const failures = new Map<DiscoveryOp, string>();
      // Warm-up: three runs per op (also finds ops that cannot handle this size, e.g. a tool cap);
      // the last one sizes the repetitions so one round of one op takes about 150 ms.
      let slowest = 0;
      for (const { op, run } of ops) {
        try {
          let last = 0;
          for (let k = 0; k < 3; k++) {
            const start = performance.now();
            await run();
            last = performance.now() - start;
          }
          slowest = Math.max(slowest, last);
        } catch (error) {
          const code = (error as { code?: string }).code;
          failures.set(
            op,
            `${code ?? 'error'}: ${String((error as Error).message ?? error)
              .split('\n')[0]!
              .slice(0, 200)}`,
          );
        }
      }
      const repetitions = Math.max(1, Math.min(200, Math.round(150 / Math.max(slowest, 0.01))));
      // Bounded: big sizes whose rounds would take over ~4 s per op run 3 rounds instead of all.
      const rounds = slowest * repetitions * options.rounds > 4_000 ? Math.min(3, options.rounds) : options.rounds;
      if (rounds !== options.rounds)
        notes.push(`${count.toLocaleString('en-US')} tools: ${rounds} rounds (instead of ${options.rounds}) to bound the run time.`);
      const perRound = new Map<DiscoveryOp, number[]>(ops.map((o) => [o.op, []]));
      for (let round = 0; round < rounds; round++) {
        for (let k = 0; k < ops.length; k++) {
          const { op, run } = ops[(k + round) % ops.length]!;
          if (failures.has(op)) continue;
          const start = performance.now();
          for (let r = 0; r < repetitions; r++) await run();
          perRound.get(op)!.push((performance.now() - start) / repetitions);
        }
      }
      sizes.push({
        tools: count,
        manifestBytes: current.length,
        repetitionsPerRound: repetitions,
        rounds,
        ops: ops.map(({ op }) => {
          const reason = failures.get(op);
          if (reason !== undefined) return { op, status: 'n/a', reason };
          const rounds = perRound.get(op)!;
          const ms = median(rounds);
          return { op, status: 'ok', ms, microsPerTool: (ms * 1000) / count, rounds };
        }),
      });
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return { rounds: options.rounds, sizes, notes };
}
