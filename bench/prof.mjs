import { generateManifest } from '/tmp/gen.mjs';
import { parseManifest } from 'rcp-manifest';
import { createRcpClient, describeManifest } from 'rcp-client';
const m = generateManifest(1000);
const text = JSON.stringify(m.manifest ?? m);
const fetchImpl = async () => new Response(text, { headers: { 'content-type': 'application/json' } });
const client = createRcpClient({ fetch: fetchImpl, resolvers: { learnerId: () => 'x' } });
for (let i = 0; i < 20; i++) { parseManifest(text); const d = await client.discover('https://api.example.com/rcp/manifest'); describeManifest(d.manifest, d.tools); }
let t = performance.now(); for (let i = 0; i < 20; i++) parseManifest(text); console.log('parse', ((performance.now() - t) / 20).toFixed(1));
t = performance.now(); for (let i = 0; i < 20; i++) { const d = await client.discover('https://api.example.com/rcp/manifest'); describeManifest(d.manifest, d.tools); } console.log('discover+describe', ((performance.now() - t) / 20).toFixed(1));
