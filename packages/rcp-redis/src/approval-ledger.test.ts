import { approve, createRcpClient, isRcpError } from 'rcp-client';
import { describeApprovalLedgerContract, redisTestAvailability } from 'rcp-test-utils/stores';
import { sendJson, serveManifest, startTestServer, type TestServer } from 'rcp-test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REAL_TTL_MS, realWait, useRedisClient } from './internal/testing';
import { createRedisApprovalLedger } from './index';

const availability = redisTestAvailability();

describe('createRedisApprovalLedger: options', () => {
  it.each([
    ['no client', {}],
    ['a client without get', { client: { set: async (): Promise<null> => null } }],
    ['a prefix that is not a string', { client: { set: async (): Promise<null> => null, get: async (): Promise<null> => null }, prefix: 1 }],
  ])('refuses %s with RCP_INVALID_OPTIONS, before any command', (_what, options) => {
    let error: unknown;
    try {
      createRedisApprovalLedger(options as never);
    } catch (caught) {
      error = caught;
    }
    expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
  });
});

describe.skipIf(availability.skip)('createRedisApprovalLedger on a real redis-server (loopback)', () => {
  const redis = useRedisClient();

  // Real TTLs: Redis keeps its own clock, so the expiry cases wait for it (REAL_TTL_MS says how long, and why).
  describeApprovalLedgerContract('createRedisApprovalLedger', {
    create: () => createRedisApprovalLedger({ client: redis.client, prefix: 'contract:' }),
    elapse: realWait,
    ttl: REAL_TTL_MS,
  });

  it('namespaces every key under its prefix, each with a TTL', async () => {
    const ledger = createRedisApprovalLedger({ client: redis.client, prefix: 'ns-ledger:' });
    await ledger.save('call_1', { id: 'x' } as never, 60_000);
    await ledger.claim('approval-1', 3_600_000);
    expect((await redis.client.keys('ns-ledger:*')).sort()).toEqual(['ns-ledger:review:call_1', 'ns-ledger:used:approval-1']);
    expect(await redis.client.pTTL('ns-ledger:review:call_1')).toBeGreaterThan(50_000);
    expect(await redis.client.pTTL('ns-ledger:used:approval-1')).toBeGreaterThan(3_500_000);
    await createRedisApprovalLedger({ client: redis.client }).claim('approval-2', 60_000);
    expect(await redis.client.keys('rcp:approval:*')).toEqual(['rcp:approval:used:approval-2']);
  });

  it('a value under the prefix that is not JSON: load fails (and a call resuming it is refused, nothing sent)', async () => {
    await redis.client.set('garbled:review:call_1', '{not json');
    await expect(createRedisApprovalLedger({ client: redis.client, prefix: 'garbled:' }).load('call_1')).rejects.toThrow(/not a review/);
  });

  describe('two clients (two instances) sharing the ledger, against a real API', () => {
    let api: TestServer;
    beforeAll(async () => {
      api = await startTestServer();
      api.route('DELETE /users/u-1/notes/n-1', (_request, res) => sendJson(res, 200, { deleted: 'n-1' }));
    });
    afterAll(() => api?.close());

    const manifest = {
      rcpVersion: '0.1',
      tools: [
        {
          name: 'delete_note',
          description: 'Deletes.',
          method: 'DELETE',
          url: '/users/{{userId}}/notes/{{noteId}}',
          params: [
            { name: 'userId', required: true },
            { name: 'noteId', required: true },
          ],
        },
      ],
    };
    const instance = async () => {
      const rcp = createRcpClient<{ userId: string }>({
        resolvers: { userId: (ctx) => ctx.userId },
        approval: 'writes',
        approvalSecret: 'the notes app approval secret, 32+ bytes',
        approvalLedger: createRedisApprovalLedger({ client: redis.client, prefix: 'two-instances:' }),
        retry: 0,
      });
      return { rcp, discovery: await rcp.discover(serveManifest(api, manifest)) };
    };

    it('a review kept by one is resumed by the other once; a replay on either is refused, nothing sent', async () => {
      const [a, b] = [await instance(), await instance()];
      api.reset();
      const call = { name: 'delete_note', arguments: { noteId: 'n-1' } };
      const paused = await a.rcp.call(a.discovery, call, { userId: 'u-1' });
      expect(paused).toMatchObject({ ok: false, error: { code: 'RCP_APPROVAL_REQUIRED' } });
      await a.rcp.review(a.discovery.tool('delete_note'), { noteId: 'n-1' }, { userId: 'u-1' }, { key: 'call_1' });
      expect((await b.rcp.storedReview('call_1'))?.request.url).toBe(api.url('/users/u-1/notes/n-1'));
      const outcomes = await Promise.all([
        b.rcp.call(b.discovery, call, { userId: 'u-1' }, { approvalKey: 'call_1' }),
        a.rcp.call(a.discovery, call, { userId: 'u-1' }, { approvalKey: 'call_1' }),
      ]);
      expect(outcomes.map((outcome) => outcome.ok).sort()).toEqual([false, true]);
      const review = (await a.rcp.storedReview('call_1'))!;
      expect(await a.rcp.call(a.discovery, call, { userId: 'u-1' }, { approval: approve(review) })).toMatchObject({ ok: false });
      expect(api.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['DELETE /users/u-1/notes/n-1']);
    });
  });
});
