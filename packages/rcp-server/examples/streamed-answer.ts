import { once } from 'node:events';
import { createServer } from 'node:http';
import { createRcpClient } from 'rcp-client';
import { createRcpServer } from 'rcp-server';
import { toNodeListener } from 'rcp-server/node';

const server = createRcpServer({
  tools: [
    {
      name: 'tell_story',
      description: 'Tells a short story, word by word.',
      method: 'POST',
      path: '/story',
      // The manifest's shape: SSE events, each one's `delta` joined into one text.
      stream: { format: 'sse', collect: 'concat', field: '@delta' },
      // Each yielded value is one event, written when it is yielded.
      handler: async function* () {
        for (const word of ['Once ', 'upon ', 'a ', 'time.']) yield { delta: word };
      },
    },
  ],
});
console.log(server.manifest.rcpVersion);

// rcp-client collects the stream into one result and reports its progress.
const http = createServer(toNodeListener(server)).listen(0, '127.0.0.1');
await once(http, 'listening');
const address = http.address();
const port = typeof address === 'object' && address !== null ? address.port : 0;
const client = createRcpClient();
const discovery = await client.discover(`http://127.0.0.1:${port}/rcp/manifest`);
let events = 0;
const result = await client.execute(discovery.tool('tell_story'), {}, undefined, { onProgress: (progress) => (events = progress.events) });
console.log(result.data, `(${result.events} events, ${events} reported)`);
http.close();
