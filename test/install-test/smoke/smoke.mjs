// ESM: discover + call through the package named on the command line (rcp-sdk/client or rcp-client).
import { createRequire } from 'node:module';

const { serve } = createRequire(import.meta.url)('./serve.cjs');
const specifier = process.argv[2];
const { createRcpClient, toModelResult } = await import(specifier);
const server = await serve();
const client = createRcpClient({ resolvers: { userId: (ctx) => ctx.userId }, credentials: () => 'tok' });
const discovery = await client.discover(server.url);
const outcome = await client.call(discovery, { name: 'get_note', arguments: '{"noteId":"n-1"}' }, { userId: 'u-1' });
server.close();
console.log(JSON.stringify({ specifier, format: 'esm', result: toModelResult(outcome), received: server.received }));
