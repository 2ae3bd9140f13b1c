// A resolver under the wrong name fails discovery instead of leaving userId to the model; the
// server checks ownership anyway, because a client without the resolver can send any userId.
import { createServer } from 'node:http';
import { createRcpClient, isRcpError } from 'rcp-client';

const tokens = new Map([['tok-alice', 'alice']]); // the API's own authentication
const server = createServer((req, res) => {
  const send = (status, body) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  if (req.url === '/rcp/manifest') {
    return send(200, {
      rcpVersion: '0.1',
      auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
      tools: [{ name: 'list_orders', description: "Lists a user's orders.", method: 'GET', url: '/users/{{userId}}/orders', params: [{ name: 'userId' }] }],
    });
  }
  const caller = tokens.get(req.headers.authorization?.replace(/^Bearer /, ''));
  const [, , userId] = req.url.split('/');
  if (caller === undefined) return send(401, { error: 'who are you?' });
  if (userId !== caller) return send(403, { error: 'not your orders' }); // the server's ownership check
  send(200, { orders: ['o-1'] });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const manifestUrl = `http://127.0.0.1:${server.address().port}/rcp/manifest`;
const credentials = () => 'tok-alice';

const misnamed = createRcpClient({ resolvers: { uid: (ctx) => ctx.user }, credentials });
await misnamed.discover(manifestUrl).catch((error) => console.log(isRcpError(error) && error.code, error.param));

const bound = createRcpClient({ resolvers: { userId: (ctx) => ctx.user }, credentials });
const outcome = await bound.call(await bound.discover(manifestUrl), { name: 'list_orders', arguments: {} }, { user: 'alice' });
console.log(outcome.ok && outcome.result.data);

// modelFilledParams is the escape hatch: the model may now choose userId, so only the server stops "bob".
const open = createRcpClient({ resolvers: { uid: (ctx) => ctx.user }, credentials, modelFilledParams: ['userId'] });
const forged = await open.call(await open.discover(manifestUrl), { name: 'list_orders', arguments: { userId: 'bob' } }, {});
console.log(forged.ok || forged.error.status);
server.close();
