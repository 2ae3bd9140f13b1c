// A ky instance as the client's fetch: ky's hooks see every request (here: a request id);
// ky's own retries and HTTP errors are off, so the client's redirect, retry and error rules
// apply once. A local server plays the API.
import { createServer } from 'node:http';
import ky from 'ky';
import { createRcpClient } from 'rcp-client';

const server = createServer((req, res) => {
  const body = req.url === '/rcp/manifest'
    ? { rcpVersion: '0.1', tools: [{ name: 'ping', description: 'Ping.', method: 'GET', url: '/ping' }] }
    : { pong: true, requestId: req.headers['x-request-id'] };
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

let next = 0;
const api = ky.create({
  retry: 0,
  throwHttpErrors: false,
  hooks: { beforeRequest: [(request) => request.headers.set('x-request-id', `req-${++next}`)] },
});
const client = createRcpClient({ fetch: api });
const { tools } = await client.discover(`http://127.0.0.1:${server.address().port}/rcp/manifest`);
console.log(JSON.stringify((await client.execute(tools[0], {})).data));
server.close();
