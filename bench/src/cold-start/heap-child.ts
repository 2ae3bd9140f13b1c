/**
 * Child process of the retained-heap rows (run with `--expose-gc`): discovers a generated manifest
 * of each size with an in-memory `fetch` and reports the heap still used while the discovery is
 * held, after full collections; then the heap per idle client (created, never used).
 * Prints one JSON line on stdout.
 */
import { createRcpClient, type RcpDiscovery } from 'rcp-client';
import { generateManifest } from '../lib/generate-manifest.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');
const settledHeap = () => {
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
  // A client and discovery of another size warm up the code first, so compiled code is not counted.
  const options = { fetch, maxManifestBytes: 256 * 2 ** 20 };
  await createRcpClient(options).discover(manifestUrl);
  const before = settledHeap();
  let client: ReturnType<typeof createRcpClient> | undefined = createRcpClient(options);
  let discovery: RcpDiscovery | undefined = await client.discover(manifestUrl);
  const after = settledHeap();
  if (discovery.tools.length !== tools) throw new Error(`discovered ${discovery.tools.length} of ${tools} tools`);
  result.discovery.push({ tools, manifestBytes, retainedBytes: after - before });
  client = undefined;
  discovery = undefined;
}

const clients: unknown[] = [];
const before = settledHeap();
for (let i = 0; i < idleClients; i++) clients.push(createRcpClient({}));
const after = settledHeap();
result.idleClientBytes = (after - before) / clients.length;
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
