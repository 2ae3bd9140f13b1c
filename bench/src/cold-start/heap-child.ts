/**
 * Child process of the retained-heap rows (run with `--expose-gc`): discovers a generated manifest
 * of each size with an in-memory `fetch` and reports the heap still used while the discovery is
 * held, after full collections (median of five, each discovery held); then the heap per idle client (created, never used).
 * Prints one JSON line on stdout.
 */
import { createRcpClient, type RcpDiscovery } from 'rcp-client';
import { generateManifest } from '../lib/generate-manifest.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');
// After a macrotask turn, then full collections.
const settledHeap = async () => {
  await new Promise((resolve) => setTimeout(resolve, 10));
  for (let i = 0; i < 4; i++) gc();
  return process.memoryUsage().heapUsed;
};

const sizes = JSON.parse(process.argv[2] ?? '[1000,5000]') as number[];
const idleClients = Number(process.argv[3] ?? 200);
const manifestUrl = 'http://127.0.0.1:9/manifest.json'; // never fetched: the fetch below answers in memory
const result: { discovery: { tools: number; manifestBytes: number; retainedBytes: number }[]; idleClientBytes: number } = { discovery: [], idleClientBytes: 0 };

for (const tools of sizes) {
  const body = JSON.stringify(generateManifest(tools)); // held throughout: counted neither before nor after
  const manifestBytes = Buffer.byteLength(body);
  const fetch = (async () => new Response(body, { status: 200, headers: { 'content-type': 'application/json' } })) as unknown as typeof globalThis.fetch;
  const options = { fetch, maxManifestBytes: 256 * 2 ** 20, onWarning: () => {} };
  // Two unmeasured discoveries warm the code up first, so compiled code is not counted. Then six
  // fresh clients, each discovery kept (`held`): a sample is the heap it adds. Everything stays
  // held because a dropped discovery is not reliably gone by the next sample (a suspended async
  // frame may still point at it); the first sample is left out for the same reason (the warm-up's
  // last discovery). The median of the other five.
  for (let i = 0; i < 2; i++) await createRcpClient(options).discover(manifestUrl);
  const held: unknown[] = [];
  const samples: number[] = [];
  for (let i = 0; i < 6; i++) {
    const before = await settledHeap();
    const client = createRcpClient(options);
    const discovery: RcpDiscovery = await client.discover(manifestUrl);
    if (discovery.tools.length !== tools) throw new Error(`discovered ${discovery.tools.length} of ${tools} tools`);
    held.push(client, discovery);
    const after = await settledHeap();
    if (i > 0) samples.push(after - before);
  }
  if (held.length !== 12) throw new Error('the held discoveries are what is measured'); // read, so no bundler drops `held`
  samples.sort((a, b) => a - b);
  result.discovery.push({ tools, manifestBytes, retainedBytes: samples[2]! });
}

const clients: unknown[] = [];
const before = await settledHeap();
for (let i = 0; i < idleClients; i++) clients.push(createRcpClient({}));
const after = await settledHeap();
result.idleClientBytes = (after - before) / clients.length;
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
