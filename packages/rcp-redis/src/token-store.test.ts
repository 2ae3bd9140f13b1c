import { createRcpClient, isRcpError } from 'rcp-client';
import { clientCredentials, createMemoryTokenStore, userTokens, type RcpTokenStore } from 'rcp-oauth';
import { sendJson, serveManifest, startTestServer } from 'rcp-test-utils';
import { describeTokenStoreContract, redisTestAvailability, startRedisServer } from 'rcp-test-utils/stores';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { REAL_TTL_MS, realWait, useRedisClient } from './internal/testing';
import { createRedisTokenStore } from './index';

const availability = redisTestAvailability();
const SECRET = 'the notes agent token-store secret, 32+ bytes';

describe('createRedisTokenStore: options', () => {
  const commands = { set: async (): Promise<null> => null, get: async (): Promise<null> => null, eval: async (): Promise<number> => 0 };
  it.each([
    ['no client', { secret: SECRET }],
    ['a client without eval', { client: { set: commands.set, get: commands.get }, secret: SECRET }],
    ['no secret', { client: commands }],
    ['a secret under 32 bytes', { client: commands, secret: 'short-secret-do-not-show' }],
    ['a prefix that is not a string', { client: commands, secret: SECRET, prefix: 1 }],
  ])('refuses %s with RCP_INVALID_OPTIONS, before any command, showing no secret', (_what, options) => {
    let error: unknown;
    try {
      createRedisTokenStore(options as never);
    } catch (caught) {
      error = caught;
    }
    expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
    expect((error as Error).message).not.toMatch(/short-secret|32\+ bytes/);
  });
});

describe.skipIf(availability.skip)('createRedisTokenStore on a real redis-server (loopback)', () => {
  const redis = useRedisClient();

  // Real TTLs: Redis keeps its own clock, so the expiry cases wait for it (REAL_TTL_MS says how long, and why).
  describeTokenStoreContract('createRedisTokenStore', {
    create: () => createRedisTokenStore({ client: redis.client, secret: SECRET, prefix: 'contract:' }),
    elapse: realWait,
    ttl: REAL_TTL_MS,
    instance: (store: RcpTokenStore) => {
      type Ctx = { key: string; fetch: () => Promise<{ accessToken: string; expiresIn?: number }> };
      const provider = userTokens<Ctx>({ subject: (ctx) => ctx.key, obtain: ({ ctx }) => ctx.fetch(), store });
      return async (key, fetch) =>
        provider.credentials({
          ctx: { key, fetch },
          origin: 'https://api.example.com',
          manifestUrl: 'https://api.example.com/rcp/manifest',
          tool: { name: 't' },
        });
    },
  });

  const KEY = JSON.stringify(['https://auth.example.com/oauth/token', 'notes-agent', ['notes:read'], ['https://api.example.com']]);
  const TOKEN = { accessToken: 'eyJhbGciOiJFUzI1NiJ9.the-access-token.sig', renewAt: Date.now() + 540_000, expiresAt: Date.now() + 600_000 };

  it('namespaces every key under its prefix, by a keyed hash, each with a TTL; nothing in clear', async () => {
    const store = createRedisTokenStore({ client: redis.client, secret: SECRET, prefix: 'ns-token:' });
    await store.set(KEY, TOKEN, 600_000);
    await store.lock(KEY, 15_000);
    const names = (await redis.client.keys('ns-token:*')).sort();
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(/^ns-token:lock:[\w-]{43}$/);
    expect(names[1]).toMatch(/^ns-token:token:[\w-]{43}$/);
    expect(await redis.client.pTTL(names[0]!)).toBeGreaterThan(10_000);
    expect(await redis.client.pTTL(names[1]!)).toBeGreaterThan(500_000);
    const text = [...names, ...(await Promise.all(names.map((name) => redis.client.get(name))))].join('\n');
    for (const clear of ['the-access-token', 'notes-agent', 'notes:read', 'api.example.com', SECRET]) expect(text, clear).not.toContain(clear);
    await createRedisTokenStore({ client: redis.client, secret: SECRET }).set(KEY, TOKEN, 60_000);
    expect(await redis.client.keys('rcp:oauth:*')).toEqual([expect.stringMatching(/^rcp:oauth:token:/)]);
  });

  it('a value that does not open under the secret is no token: another secret, a value moved to another key, garbage', async () => {
    const store = createRedisTokenStore({ client: redis.client, secret: SECRET, prefix: 'sealed:' });
    await store.set(KEY, TOKEN, 600_000);
    expect(await store.get(KEY)).toEqual(TOKEN);
    expect(await createRedisTokenStore({ client: redis.client, secret: `${SECRET} (rotated)`, prefix: 'sealed:' }).get(KEY)).toBeUndefined();
    const [name] = await redis.client.keys('sealed:token:*');
    const sealed = (await redis.client.get(name!))!;
    await store.set('another key', { accessToken: 'other' }, 600_000);
    const [other] = (await redis.client.keys('sealed:token:*')).filter((each) => each !== name);
    await redis.client.set(other!, sealed);
    expect(await store.get('another key')).toBeUndefined();
    await redis.client.set(name!, `${sealed.slice(0, -2)}AA`);
    expect(await store.get(KEY)).toBeUndefined();
    await redis.client.set(name!, 'not a token');
    expect(await store.get(KEY)).toBeUndefined();
  });

  it('keeps what the in-memory store keeps (the same provider code runs on both)', async () => {
    const [memory, shared] = [createMemoryTokenStore(), createRedisTokenStore({ client: redis.client, secret: SECRET, prefix: 'same:' })];
    for (const store of [memory, shared]) {
      await store.set('k', { accessToken: 'no-expiry' }, 60_000);
      expect(await store.get('k')).toEqual({ accessToken: 'no-expiry' });
    }
  });

  it('a Redis that is down: the call fails typed, with nothing sent to the token endpoint or the tool', async () => {
    const down = await startRedisServer();
    const offline = createClient({ url: down.url, disableOfflineQueue: true });
    offline.on('error', () => undefined);
    await offline.connect();
    const [auth, api] = [await startTestServer(), await startTestServer()];
    try {
      const manifestUrl = serveManifest(api, {
        rcpVersion: '0.1',
        auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
        tools: [{ name: 'list_notes', description: 'Lists the notes.', method: 'GET', url: '/notes', params: [] }],
      });
      auth.route('POST /token', (_request, res) => sendJson(res, 200, { access_token: 'at-1', token_type: 'Bearer', expires_in: 600 }));
      const store = createRedisTokenStore({ client: offline, secret: SECRET, prefix: 'down:' });
      const rcp = createRcpClient(clientCredentials({ tokenEndpoint: auth.url('/token'), clientId: 'c', clientSecret: 's', store }));
      const discovery = await rcp.discover(manifestUrl);
      api.reset();
      await down.stop();
      const outcome = await rcp.call(discovery, { name: 'list_notes', arguments: {} });
      expect(outcome).toMatchObject({ ok: false, error: { code: 'RCP_MISSING_CREDENTIALS' } });
      expect(auth.requests).toEqual([]);
      expect(api.requests).toEqual([]);
    } finally {
      await Promise.all([auth.close(), api.close()]);
      offline.destroy();
    }
  });
});
