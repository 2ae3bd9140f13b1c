// A manifest you already have (a file, a fixture) is loaded, not served from memory by a fake
// fetch; a response is watched through observeResponse, not a recording fetch. The client keeps
// its own transport and checks, and redacts the credential wherever the server echoes it.
import { createServer } from 'node:http';
import { createRcpClient } from 'rcp-client';

const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ youSent: req.headers.authorization }));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

const text = JSON.stringify({
  rcpVersion: '0.1',
  auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
  tools: [{ name: 'whoami', description: 'Says who you are.', method: 'GET', url: '/whoami' }],
});
const client = createRcpClient({ credentials: () => 'tok_live_123' });
const discovery = await client.load(text, { manifestUrl: `${origin}/rcp/manifest` });
const result = await client.execute(discovery.tool('whoami'), {}, undefined, {
  observeResponse: (response) => console.log(response.status, response.body),
});
console.log(JSON.stringify(result.data));
server.close();
