/**
 * Test support only (not published: `src/internal/testing.ts` is outside the package's build): one real
 * `redis-server` on a free loopback port and a connected node-redis client for the `describe` block that calls it,
 * stopped after it. The Redis store tests of this package share it instead of repeating the setup.
 */
import { type RedisServer, startRedisServer } from 'rcp-test-utils/stores';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll } from 'vitest';

/** The server and client of one `describe` block; set before its first test runs. */
export interface RedisUnderTest {
  server: RedisServer;
  client: RedisClientType;
}

/**
 * Starts a `redis-server` and connects a client before the block's tests; closes both after them.
 *
 * @example
 * ```ts
 * describe('a store on a real redis-server', () => {
 *   const redis = useRedisClient();
 *   it('sets', async () => expect(await redis.client.set('k', 'v')).toBe('OK'));
 * });
 * ```
 */
export function useRedisClient(): RedisUnderTest {
  const redis = {} as RedisUnderTest;
  beforeAll(async () => {
    redis.server = await startRedisServer();
    redis.client = createClient({ url: redis.server.url });
    await redis.client.connect();
  });
  afterAll(async () => {
    await redis.client?.close();
    await redis.server?.stop();
  });
  return redis;
}

/**
 * The store contracts' expiry cases on a real `redis-server`: Redis keeps its own clock, so a case saves with this
 * time to live, checks the entry is there (up to three round trips), then really waits 1.5× it. 150 ms was too short
 * on a loaded CI (load 24 on 2 cores: a second claim answered after the first had expired, "expected false, got
 * true"); a second leaves room for slow round trips and costs ~1.5 s of waiting per expiry case.
 */
export const REAL_TTL_MS = 1_000;

/**
 * A real wait, for a real engine's clock.
 *
 * @example
 * ```ts
 * await realWait(REAL_TTL_MS * 1.5);
 * ```
 */
export const realWait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
