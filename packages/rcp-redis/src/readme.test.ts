import { fileURLToPath } from 'node:url';
import { runReadmeSnippet, SPAWN_TIMEOUT } from 'rcp-test-utils';
import { type RedisServer, redisTestAvailability, startRedisServer } from 'rcp-test-utils/stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const availability = redisTestAvailability();

describe('README: two instances, one Redis', () => {
  it('compiles as written', { timeout: SPAWN_TIMEOUT }, () => {});

  describe.skipIf(availability.skip)('against a real redis-server', () => {
    let redis: RedisServer;
    beforeAll(async () => {
      redis = await startRedisServer();
    });
    afterAll(() => redis?.stop());

    it('runs as written: the charge is applied once', { timeout: SPAWN_TIMEOUT }, async () => {
      expect(await runReadmeSnippet(packageDir, 'snippet:two-instances', { REDIS_URL: redis.url })).toBe('201 201 true charges: 1\n');
    });
  });
});
