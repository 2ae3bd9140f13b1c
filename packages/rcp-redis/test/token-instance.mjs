// One instance of an agent app, for token-store.processes.test.ts: an rcp-client whose OAuth
// provider keeps its tokens in the shared Redis token store. It prints "ready", then for each
// line "go N" on stdin makes N concurrent calls and prints how many succeeded; "exit" ends it.
import { createInterface } from 'node:readline';
import { createRcpClient } from 'rcp-client';
import { clientCredentials, refreshTokenGrant, userTokens } from 'rcp-oauth';
import { createRedisTokenStore } from 'rcp-redis';
import { createClient } from 'redis';

const env = process.env;
const redis = await createClient({ url: env.REDIS_URL }).connect();
const store = createRedisTokenStore({ client: redis, secret: env.TOKEN_STORE_SECRET, prefix: env.PREFIX });

function perUser() {
  const refresh = refreshTokenGrant({ tokenEndpoint: env.TOKEN_ENDPOINT, issuer: env.ISSUER, clientId: 'user-client', clientSecret: env.CLIENT_SECRET });
  return userTokens({
    subject: (ctx) => ctx.userId,
    store,
    // The application's own step: its refresh tokens live in its database (here a Redis key).
    async obtain({ subject }) {
      const stored = await redis.get(`app:refresh-token:${subject}`);
      if (stored === null) return undefined;
      const tokens = await refresh(stored);
      if (tokens.refreshToken !== undefined) await redis.set(`app:refresh-token:${subject}`, tokens.refreshToken);
      return tokens;
    },
  });
}

const provider =
  env.GRANT === 'refresh_token'
    ? perUser()
    : clientCredentials({ tokenEndpoint: env.TOKEN_ENDPOINT, clientId: 'basic-client', clientSecret: env.CLIENT_SECRET, store });
const client = createRcpClient(provider);
const discovery = await client.discover(env.MANIFEST_URL);
const ctx = { userId: 'alice' };
console.log('ready');

for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'exit') break;
  const count = Number(line.replace(/^go /, ''));
  const outcomes = await Promise.all(Array.from({ length: count }, () => client.call(discovery, { name: 'list_notes', arguments: {} }, ctx)));
  const failed = outcomes.filter((outcome) => !outcome.ok).map((outcome) => outcome.error.code);
  console.log(JSON.stringify({ ok: outcomes.length - failed.length, failed }));
}
await redis.close();
process.exit(0); // stdin stays open otherwise
