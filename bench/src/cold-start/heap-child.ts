/**
 * Child process of the retained-heap rows (run with `--expose-gc`): discovers a generated manifest
 * of each size with an in-memory `fetch` and reports the heap still used while the discovery is
 * held, after full collections (median of five, each discovery held), and for reference the parsed JSON
 * and `parseManifest`'s frozen copy alone; then the heap per idle client (created, never used).
 * Prints one JSON line on stdout.
 */
import { createRcpClient, type RcpDiscovery } from 'rcp-client';
import { parseManifest } from 'rcp-manifest';
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
interface Retained {
  tools: number;
  manifestBytes: number;
  /** A client and its discovery (what the target is about). */
  retainedBytes: number;
  /** For reference: `JSON.parse` of the manifest text alone, then `parseManifest`'s validated, frozen copy alone. */
  parsedJsonBytes: number;
  manifestCopyBytes: number;
}
const result: { discovery: Retained[]; idleClientBytes: number } = { discovery: [], idleClientBytes: 0 };

/**
 * The heap `make` adds while what it returns is held: six samples, each kept (`held`), because a
 * dropped value is not reliably gone by the next sample (a suspended async frame may still point
 * at it); the first sample is left out for the same reason. The median of the other five.
 */
async function retained(make: () => Promise<unknown> | unknown): Promise<number> {
  const held: unknown[] = [];
  const samples: number[] = [];
  for (let i = 0; i < 6; i++) {
    const before = await settledHeap();
    held.push(await make());
    const after = await settledHeap();
    if (i > 0) samples.push(after - before);
  }
  if (held.length !== 6) throw new Error('the held values are what is measured'); // read, so no bundler drops `held`
  samples.sort((a, b) => a - b);
  return samples[2]!;
}

for (const tools of sizes) {
  const body = JSON.stringify(generateManifest(tools)); // held throughout: counted neither before nor after
  const manifestBytes = Buffer.byteLength(body);
  const fetch = (async () => new Response(body, { status: 200, headers: { 'content-type': 'application/json' } })) as unknown as typeof globalThis.fetch;
  const options = { fetch, maxManifestBytes: 256 * 2 ** 20, onWarning: () => {} };
  // Two unmeasured discoveries warm the code up first, so compiled code is not counted.
  for (let i = 0; i < 2; i++) await createRcpClient(options).discover(manifestUrl);
  const retainedBytes = await retained(async () => {
    const client = createRcpClient(options);
    const discovery: RcpDiscovery = await client.discover(manifestUrl);
    if (discovery.tools.length !== tools) throw new Error(`discovered ${discovery.tools.length} of ${tools} tools`);
    return [client, discovery];
  });
  const parsedJsonBytes = await retained(() => JSON.parse(body));
  const manifestCopyBytes = await retained(() => parseManifest(body, { maxBytes: options.maxManifestBytes, maxTools: tools }));
  result.discovery.push({ tools, manifestBytes, retainedBytes, parsedJsonBytes, manifestCopyBytes });
}

const clients: unknown[] = [];
const before = await settledHeap();
for (let i = 0; i < idleClients; i++) clients.push(createRcpClient({}));
const after = await settledHeap();
result.idleClientBytes = (after - before) / clients.length;
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
