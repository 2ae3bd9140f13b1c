/**
 * A text answer longer than `maxResponseBytes` is cut at the cap and says so (SPEC §11 step 6);
 * JSON, media and other answers still fail. The connection is closed at the cap either way.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient, toModelResult, toModelText, type RcpClientOptions } from 'rcp-client';
import { rejectsWith, serveManifest } from './internal/testing';

let api: TestServer;
beforeEach(async () => {
  api = await startTestServer();
});
afterEach(async () => {
  await api.close();
});

function serveText(path: string, text: string, contentType: string, chunked = false): void {
  api.route(`GET ${path}`, (_request, res) => {
    const body = Buffer.from(text, 'utf8');
    res.writeHead(200, { 'content-type': contentType, ...(!chunked && { 'content-length': body.byteLength }) });
    res.end(body);
  });
}

async function discover(options: RcpClientOptions, auth?: unknown) {
  const client = createRcpClient({ retry: 0, ...options });
  const discovery = await client.discover(
    serveManifest(api, {
      rcpVersion: '0.1',
      ...(auth !== undefined && { auth }),
      tools: [
        { name: 'get_log', description: 'Reads the log.', method: 'GET', url: '/log' },
        { name: 'get_data', description: 'Reads the data.', method: 'GET', url: '/data' },
      ],
    }),
  );
  api.reset();
  return { client, discovery };
}

describe('a text answer over maxResponseBytes', () => {
  it.each([false, true])('is its start, cut at the cap, and says truncated (chunked: %s)', async (chunked) => {
    serveText('/log', 'line\n'.repeat(100), 'text/plain; charset=utf-8', chunked);
    const { client, discovery } = await discover({ maxResponseBytes: 42 });
    const outcome = await client.call(discovery, { name: 'get_log', arguments: {} });
    if (!outcome.ok) throw outcome.error;
    expect(outcome.result).toMatchObject({ data: `${'line\n'.repeat(8)}li`, truncated: true });
    expect(JSON.parse(toModelText(toModelResult(outcome)))).toEqual({ ok: true, data: `${'line\n'.repeat(8)}li`, truncated: true });
  });

  it('never ends in half a character', async () => {
    serveText('/log', 'é'.repeat(30), 'text/plain');
    const { client, discovery } = await discover({ maxResponseBytes: 11 });
    expect((await client.execute(discovery.tool('get_log'), {})).data).toBe('é'.repeat(5));
  });

  it('at exactly the cap is whole, not truncated', async () => {
    serveText('/log', 'x'.repeat(42), 'text/plain');
    const { client, discovery } = await discover({ maxResponseBytes: 42 });
    const result = await client.execute(discovery.tool('get_log'), {});
    expect(result).toEqual({ status: 200, data: 'x'.repeat(42), contentType: 'text/plain' });
  });

  it('does not end in part of a credential the server echoed across the cut', async () => {
    const token = 'tok-0123456789abcdef';
    serveText('/log', `${'x'.repeat(50)}${token}${'y'.repeat(200)}`, 'text/plain');
    const { client, discovery } = await discover(
      { maxResponseBytes: 60, credentials: () => token },
      { type: 'header', name: 'Authorization', scheme: 'Bearer' },
    );
    const { data, truncated } = await client.execute(discovery.tool('get_log'), {});
    expect(truncated).toBe(true);
    expect(typeof data === 'string' && !data.includes('tok-')).toBe(true);
  });

  it('JSON over the cap still fails: a cut JSON document is not data', async () => {
    api.route('GET /data', (_request, res) => sendJson(res, 200, { items: 'z'.repeat(500) }));
    const { client, discovery } = await discover({ maxResponseBytes: 100 });
    await rejectsWith(client.execute(discovery.tool('get_data'), {}), 'RCP_RESPONSE_TOO_LARGE');
  });
});
