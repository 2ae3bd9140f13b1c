/**
 * Retry hints (SPEC §11 Retries, §14): a 429 / 503 whose Retry-After is longer than the client
 * waits reaches the application (`RcpHttpError.retryAfterSeconds`) and the model
 * (`error.retryAfterSeconds`) as data. Fake timers for every wait; the network is real.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient, RcpHttpError, toModelResult, toModelText } from 'rcp-client';
import { serveManifest } from './internal/testing';

let api: TestServer;
beforeEach(async () => {
  api = await startTestServer();
});
afterEach(async () => {
  vi.useRealTimers();
  await api.close();
});

const manifest = { rcpVersion: '0.1', tools: [{ name: 'get_quota', description: 'Reads the quota.', method: 'GET', url: '/quota' }] };

function answer(status: number, retryAfter: string | undefined) {
  return (_request: unknown, res: ServerResponse) =>
    sendJson(res, status, { error: 'slow down' }, retryAfter === undefined ? {} : { 'retry-after': retryAfter });
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('a Retry-After longer than the client waits', () => {
  it('is not waited for (one request) and reaches the error and the model result as seconds', async () => {
    api.route('GET /quota', answer(429, '120'));
    const client = createRcpClient();
    const discovery = await client.discover(serveManifest(api, manifest));
    api.reset();
    const outcome = await client.call(discovery, { name: 'get_quota', arguments: {} });
    if (outcome.ok) throw new Error('expected a failure');
    expect(outcome.error).toBeInstanceOf(RcpHttpError);
    expect((outcome.error as RcpHttpError).retryAfterSeconds).toBe(120);
    expect(api.count).toBe(1);
    const forModel = toModelResult(outcome);
    expect(forModel).toEqual({
      ok: false,
      error: {
        code: 'RCP_HTTP_ERROR',
        message: `The tool's server answered HTTP 429. It asks to be called again in 120 seconds. Response: {"error":"slow down"}`,
        retryAfterSeconds: 120,
      },
    });
    expect(JSON.parse(toModelText(forModel)).error.retryAfterSeconds).toBe(120);
  });

  it('as an HTTP date, is the seconds until then, rounded up (a fake clock)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-01T12:00:00.000Z'));
    api.route('GET /quota', answer(503, 'Sun, 01 Mar 2026 12:05:00 GMT'));
    const client = createRcpClient();
    const discovery = await client.discover(serveManifest(api, manifest));
    vi.setSystemTime(new Date('2026-03-01T12:00:00.400Z'));
    const outcome = await client.call(discovery, { name: 'get_quota', arguments: {} });
    expect(toModelResult(outcome)).toMatchObject({ ok: false, error: { code: 'RCP_HTTP_ERROR', retryAfterSeconds: 300 } });
  });

  it('a short one is waited for (fake timers) and, when the retries run out, the last answer still says when', async () => {
    api.route('GET /quota', answer(503, '2'));
    const client = createRcpClient({ retry: 1 });
    const discovery = await client.discover(serveManifest(api, manifest));
    api.reset();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const calling = client.call(discovery, { name: 'get_quota', arguments: {} });
    await until(() => api.count === 1);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(api.count).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const outcome = await calling;
    expect(api.count).toBe(2);
    expect(toModelResult(outcome)).toMatchObject({ ok: false, error: { retryAfterSeconds: 2, message: expect.stringContaining('again in 2 seconds.') } });
  });

  it('an answer without one, or with one that cannot be read, has no retryAfterSeconds', async () => {
    for (const retryAfter of [undefined, 'soon', '1.5']) {
      api.route('GET /quota', answer(429, retryAfter));
      const client = createRcpClient({ retry: 0 });
      const outcome = await client.call(await client.discover(serveManifest(api, manifest)), { name: 'get_quota', arguments: {} });
      if (outcome.ok) throw new Error('expected a failure');
      expect((outcome.error as RcpHttpError).retryAfterSeconds).toBeUndefined();
      const forModel = toModelResult(outcome);
      expect(forModel.ok === false && 'retryAfterSeconds' in forModel.error).toBe(false);
    }
  });
});
