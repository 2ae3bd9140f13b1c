// A person approves the exact request, not a tool name: with approval 'writes', a call that
// changes data comes back as RCP_APPROVAL_REQUIRED with the request it would send; approving
// that review lets exactly that request go, once. A local server plays the API.
import { createServer } from 'node:http';
import { approve, createRcpClient, toModelResult } from 'rcp-client';

const server = createServer((req, res) => {
  const body = req.url === '/rcp/manifest'
    ? { rcpVersion: '0.1', tools: [{ name: 'delete_note', description: 'Deletes a note.', method: 'DELETE', url: '/users/{{userId}}/notes/{{noteId}}', params: [{ name: 'userId', required: true }, { name: 'noteId', required: true }] }] }
    : { deleted: req.url };
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

const client = createRcpClient({ resolvers: { userId: (ctx) => ctx.userId }, approval: 'writes' });
const discovery = await client.discover(`${origin}/rcp/manifest`);
const call = { name: 'delete_note', arguments: '{"noteId":"n-1"}' };

const paused = await client.call(discovery, call, { userId: 'u-1' });
const review = paused.error.approval; // what a person is shown: resolver value in, nothing sent yet
console.log(paused.error.code, review.request.method, review.request.url.replace(origin, ''));
console.log(JSON.stringify(toModelResult(paused)));

const done = await client.call(discovery, call, { userId: 'u-1' }, { approval: approve(review) });
console.log(JSON.stringify(toModelResult(done)));
const again = await client.call(discovery, call, { userId: 'u-1' }, { approval: approve(review) });
console.log(again.error.code); // an approval is good for one call
server.close();
