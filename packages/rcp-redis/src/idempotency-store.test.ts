import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRcpServer, defineTool, isRcpError, type RcpServer } from 'rcp-server';
import { toNodeListener } from 'rcp-server/node';
import { describeIdempotencyStoreContract, redisTestAvailability } from 'rcp-test-utils/stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REAL_TTL_MS, realWait, useRedisClient } from './internal/testing';
import { createRedisIdempotencyStore } from './index';

const availability = redisTestAvailability();

describe('createRedisIdempotencyStore: options', () => {
  it.each([
    ['no client', {}],
    ['a client without eval', { client: { set: async (): Promise<null> => null } }],
    ['a prefix that is not a string', { client: { set: async (): Promise<null> => null, eval: async (): Promise<number> => 0 }, prefix: 1 }],
  ])('refuses %s with RCP_INVALID_OPTIONS, before any command', (_what, options) => {
    let error: unknown;
    try {
      createRedisIdempotencyStore(options as never);
    } catch (caught) {
      error = caught;
    }
    expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
  });
});

describe.skipIf(availability.skip)('createRedisIdempotencyStore on a real redis-server (loopback)', () => {
  const redis = useRedisClient();

  // Real TTLs: Redis keeps its own clock, so the expiry cases wait for it (REAL_TTL_MS says how long, and why).
  describeIdempotencyStoreContract('createRedisIdempotencyStore', {
    create: () => createRedisIdempotencyStore({ client: redis.client, prefix: 'contract:' }),
    elapse: realWait,
    ttl: REAL_TTL_MS,
  });

  it('namespaces every key under its prefix, each with a TTL', async () => {
    const store = createRedisIdempotencyStore({ client: redis.client, prefix: 'ns-test:' });
    await store.begin('k-1', { fingerprint: 'f', lease: 'l' }, 60_000);
    await store.begin('k-2', { fingerprint: 'f', lease: 'l' }, 60_000);
    await store.complete('k-2', 'l', { fingerprint: 'f', response: 'r' }, 3_600_000);
    expect((await redis.client.keys('ns-test:*')).sort()).toEqual(['ns-test:k-1', 'ns-test:k-2']);
    const [inFlight, completed] = [await redis.client.pTTL('ns-test:k-1'), await redis.client.pTTL('ns-test:k-2')];
    expect(inFlight).toBeGreaterThan(50_000);
    expect(inFlight).toBeLessThanOrEqual(60_000);
    expect(completed).toBeGreaterThan(3_500_000);
  });

  it('stores with the default prefix "rcp:idempotency:"', async () => {
    await createRedisIdempotencyStore({ client: redis.client }).begin('default-prefix', { fingerprint: 'f', lease: 'l' }, 60_000);
    expect(await redis.client.exists('rcp:idempotency:default-prefix')).toBe(1);
  });

  it('refuses a value under its prefix that it did not write', async () => {
    await redis.client.set('foreign:k', 'not a record');
    await expect(
      createRedisIdempotencyStore({ client: redis.client, prefix: 'foreign:' }).begin('k', { fingerprint: 'f', lease: 'l' }, 60_000),
    ).rejects.toThrow(/not an idempotency record/);
  });

  describe('two instances of one API sharing the store (rcp-server, real HTTP)', () => {
    const applied: number[] = [];
    const https: Server[] = [];
    const origins: string[] = [];
    const api = (): RcpServer =>
      createRcpServer({
        idempotency: { store: createRedisIdempotencyStore({ client: redis.client, prefix: 'payments-api:' }) },
        tools: [
          defineTool({
            name: 'charge',
            description: 'Charges an amount.',
            method: 'POST',
            path: '/charges',
            params: [{ name: 'amount', type: 'integer', required: true }],
            body: { amount: '{{amount}}', note: 'charged by the API for customer 4242' },
            idempotency: { header: 'Idempotency-Key' },
            handler: ({ values }) => {
              applied.push(values.amount as number);
              return Response.json({ id: `ch-${applied.length}`, secret: 'receipt-token-9f8e' }, { status: 201 });
            },
          }),
        ],
      });
    beforeAll(async () => {
      for (const server of [api(), api()]) {
        const http = createServer(toNodeListener(server));
        await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
        https.push(http);
        origins.push(`http://127.0.0.1:${(http.address() as AddressInfo).port}`);
      }
    });
    afterAll(() => Promise.all(https.map((http) => new Promise<void>((resolve) => http.close(() => resolve())))));

    const charge = (origin: string, key: string, amount = 12) =>
      fetch(`${origin}/charges`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': `"${key}"` },
        body: JSON.stringify({ amount, note: 'charged by the API for customer 4242' }),
      });

    it('a retry on the other instance is replayed: the write is applied once', async () => {
      const key = crypto.randomUUID();
      const first = await charge(origins[0]!, key);
      const retry = await charge(origins[1]!, key);
      expect([first.status, retry.status, retry.headers.get('idempotent-replayed')]).toEqual([201, 201, 'true']);
      expect(await retry.json()).toEqual(await first.json());
      expect(applied).toEqual([12]);
      const reused = await charge(origins[1]!, key, 13);
      expect(reused.status).toBe(422);
      expect(applied).toEqual([12]);
    });

    it('concurrent duplicates on both instances: one runs, each other is a 409 or the replay', async () => {
      const key = crypto.randomUUID();
      const before = applied.length;
      const answers = await Promise.all([0, 1, 0, 1, 0, 1].map((index) => charge(origins[index]!, key, 7)));
      expect(applied.length - before).toBe(1);
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(1);
      expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    });

    it('Redis holds no key, request or response in clear', async () => {
      const key = crypto.randomUUID();
      await charge(origins[0]!, key);
      const names = await redis.client.keys('payments-api:*');
      const values = await Promise.all(names.map((name) => redis.client.get(name)));
      const text = [...names, ...values].join('\n');
      for (const secret of [key, 'customer 4242', 'receipt-token-9f8e', '"amount"']) expect(text, secret).not.toContain(secret);
    });
  });
});
