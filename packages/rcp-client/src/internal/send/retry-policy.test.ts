import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient } from 'rcp-client';
import { DEFAULT_RETRY_METHODS, DEFAULT_RETRY_STATUS_CODES, createRetryPolicy } from './retry-policy';
import { rejectsWith, serveManifest } from '../testing';

const defaults = { limit: 2, methods: DEFAULT_RETRY_METHODS, statusCodes: DEFAULT_RETRY_STATUS_CODES };

describe('createRetryPolicy', () => {
  it('retries idempotent methods on the default statuses, with backoff or Retry-After (up to 10 s)', () => {
    const policy = createRetryPolicy(defaults);
    expect(['GET', 'PUT', 'DELETE', 'POST', 'PATCH'].map((method) => policy.retries(method))).toEqual([true, true, true, false, false]);
    expect([503, 500, 404, 429].map((status) => policy.retriesStatus(status))).toEqual([true, false, false, true]);
    expect([1, 2, 3, 5].map((attempt) => policy.delay(attempt, { status: 503 }))).toEqual([100, 200, 400, 1000]);
    expect(policy.delay(1, { status: 503, retryAfter: 3_000 })).toBe(3_000);
    expect(policy.delay(1, { status: 503, retryAfter: 10_001 })).toBeUndefined();
    expect(createRetryPolicy({ ...defaults, limit: 0 }).retries('GET')).toBe(false);
  });

  it('a custom delay replaces the backoff; Retry-After still comes first; a bad answer falls back', () => {
    const seen: unknown[] = [];
    const policy = createRetryPolicy({
      ...defaults,
      delay: (attempt, reason) => {
        seen.push([attempt, reason]);
        return attempt === 3 ? Number.NaN : 7 * attempt;
      },
    });
    expect(policy.delay(1, { error: 'ECONNRESET' })).toBe(7);
    expect(policy.delay(2, { status: 502 })).toBe(14);
    expect(policy.delay(3, { status: 502 })).toBe(400);
    expect(policy.delay(1, { status: 429, retryAfter: 50 })).toBe(50);
    expect(seen).toEqual([
      [1, { error: 'ECONNRESET' }],
      [2, { status: 502 }],
      [3, { status: 502 }],
    ]);
  });
});

describe('the retry option as an object, through a client', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    await server.close();
  });
  const manifest = { rcpVersion: '0.1', tools: [{ name: 'work', description: 'Works.', method: 'POST', url: '/work', body: {} }] };

  it('{ limit, methods, statusCodes, delay } retries what it lists, as often as it says', async () => {
    let calls = 0;
    server.route('POST /work', (_request, res) => (++calls < 4 ? sendJson(res, 500, { busy: true }) : sendJson(res, 200, { ok: true })));
    const delays: number[] = [];
    const client = createRcpClient({
      retry: { limit: 3, methods: ['POST'], statusCodes: [500], delay: (attempt) => (delays.push(attempt), 0) },
    });
    const { tools } = await client.discover(serveManifest(server, manifest));
    server.reset();
    expect((await client.execute(tools[0]!, {})).data).toEqual({ ok: true });
    expect(server.count).toBe(4);
    expect(delays).toEqual([1, 2, 3]);
  });

  it('the defaults still never retry a POST', async () => {
    server.route('POST /work', (_request, res) => sendJson(res, 503, {}, { 'retry-after': '0' }));
    const client = createRcpClient({ retry: { limit: 3 } });
    const { tools } = await client.discover(serveManifest(server, manifest));
    server.reset();
    await rejectsWith(client.execute(tools[0]!, {}), 'RCP_HTTP_ERROR');
    expect(server.count).toBe(1);
  });

  it('bad values are RCP_INVALID_OPTIONS', () => {
    for (const retry of [-1, 1.5, { limit: -1 }, { methods: ['get'] }, { statusCodes: [200] }, { delay: 5 }, 'twice']) {
      expect(() => createRcpClient({ retry: retry as never }), JSON.stringify(retry)).toThrow(expect.objectContaining({ code: 'RCP_INVALID_OPTIONS' }));
    }
  });
});
