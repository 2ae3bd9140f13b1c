import { createRcpServer, defineTool, type RcpServer } from 'rcp-server';
import { createRedisIdempotencyStore } from 'rcp-redis';
import { createClient } from 'redis';

const redis = await createClient({ url: process.env.REDIS_URL }).connect();
const store = createRedisIdempotencyStore({ client: redis, prefix: 'payments-api:idempotency:' });

let charges = 0;
const instance = (): RcpServer =>
  createRcpServer({
    idempotency: { store, expiresAfterSeconds: 86_400 },
    tools: [
      defineTool({
        name: 'charge',
        description: 'Charges the customer an amount, in cents.',
        method: 'POST',
        path: '/charges',
        params: [{ name: 'amount', type: 'integer', required: true, minimum: 1 }],
        body: { amount: '{{amount}}' },
        idempotency: { header: 'Idempotency-Key' },
        handler: ({ values }) => Response.json({ id: `ch_${++charges}`, amount: values.amount }, { status: 201 }),
      }),
    ],
  });
const [first, second] = [instance(), instance()];

// One call, one key (a Structured Fields string), sent to one instance and retried on the other.
const key = `"${crypto.randomUUID()}"`;
const charge = (server: RcpServer) =>
  server.fetch(
    new Request('http://127.0.0.1/charges', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ amount: 1200 }),
    }),
  );
const answered = await charge(first);
const retried = await charge(second);
console.log(answered.status, retried.status, retried.headers.get('idempotent-replayed'), `charges: ${charges}`);
await redis.close();
