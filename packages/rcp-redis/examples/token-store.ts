import { createRcpClient } from 'rcp-client';
import { clientCredentials } from 'rcp-oauth';
import { createRedisTokenStore } from 'rcp-redis';
import { createClient } from 'redis';

const redis = await createClient({ url: process.env.REDIS_URL }).connect();
// What every instance of the agent app does at start-up, with the same Redis, secret and prefix.
const instance = () =>
  createRcpClient({
    ...clientCredentials({
      tokenEndpoint: process.env.TOKEN_ENDPOINT!,
      clientId: 'basic-client',
      clientSecret: process.env.CLIENT_SECRET,
      store: createRedisTokenStore({ client: redis, secret: process.env.TOKEN_STORE_SECRET!, prefix: 'notes-agent:oauth:' }),
    }),
  });

const clients = [instance(), instance()];
const outcomes = await Promise.all(
  clients.flatMap((client) =>
    Array.from({ length: 8 }, async () => client.call(await client.discover(process.env.MANIFEST_URL!), { name: 'list_notes', arguments: {} })),
  ),
);
const keys = await redis.keys('notes-agent:oauth:*');
console.log(outcomes.filter((outcome) => outcome.ok).length, keys.map((key) => key.split(':')[2]).join(' '));
await redis.close();
