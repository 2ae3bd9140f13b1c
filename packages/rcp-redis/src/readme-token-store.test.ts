import { fileURLToPath } from 'node:url';
import { runReadmeSnippet, SPAWN_TIMEOUT } from 'rcp-test-utils';
import { CLIENT_SECRETS, startAuthorizationServer, type AuthorizationServer, startToolApi, type ToolApi } from 'rcp-test-utils/oauth';
import { type RedisServer, redisTestAvailability, startRedisServer } from 'rcp-test-utils/stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const availability = redisTestAvailability();

describe('README: OAuth tokens shared by every instance', () => {
  it('compiles as written', { timeout: SPAWN_TIMEOUT }, () => {});

  describe.skipIf(availability.skip)('against a real redis-server and authorization server', () => {
    let redis: RedisServer;
    let as: AuthorizationServer;
    let api: ToolApi;
    beforeAll(async () => {
      [redis, as] = await Promise.all([startRedisServer(), startAuthorizationServer()]);
      api = await startToolApi(as);
    });
    afterAll(() => Promise.all([redis?.stop(), api?.server.close(), as?.close()]));

    it('runs as written: 16 calls, one token request, one sealed key', { timeout: SPAWN_TIMEOUT }, async () => {
      const printed = await runReadmeSnippet(packageDir, 'snippet:token-store', {
        REDIS_URL: redis.url,
        TOKEN_ENDPOINT: as.tokenEndpoint,
        CLIENT_SECRET: CLIENT_SECRETS.basic,
        TOKEN_STORE_SECRET: 'the notes agent token-store secret, 32+ bytes',
        MANIFEST_URL: api.manifestUrl,
      });
      expect(printed).toBe('16 token\n');
      expect(as.tokenRequests).toHaveLength(1);
    });
  });
});
