import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient } from 'rcp-client';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  vi.useRealTimers();
  await server.close();
});

const manifest = (description: string) => ({
  rcpVersion: '0.1',
  tools: [{ name: 'ping', description, method: 'GET', url: '/ping' }],
});

describe('rediscovery with the previous discovery (state the caller owns)', () => {
  it('reuses it while max-age lasts, then revalidates with If-None-Match; a 304 keeps the same tools', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-01T10:00:00Z'));
    let version = 'v1';
    server.route('GET /rcp/manifest', (request, res) => {
      if (request.headers['if-none-match'] === `"${version}"`) {
        res.writeHead(304, { etag: `"${version}"`, 'cache-control': 'max-age=60' });
        res.end();
        return;
      }
      sendJson(res, 200, manifest(`Pings (${version}).`), { etag: `"${version}"`, 'cache-control': 'max-age=60' });
    });
    server.route('GET /ping', (_request, res) => sendJson(res, 200, { pong: true }));
    const client = createRcpClient();
    const url = server.url('/rcp/manifest');
    const first = await client.discover(url);
    expect(first.cache).toMatchObject({ etag: '"v1"', freshUntil: Date.parse('2026-12-01T10:01:00Z') });

    const fresh = await client.discover(url, { previous: first });
    expect(fresh).toBe(first);
    expect(server.count).toBe(1); // not asked again

    vi.setSystemTime(new Date('2026-12-01T10:01:30Z'));
    const revalidated = await client.discover(url, { previous: first });
    expect(server.requests.at(-1)!.headers['if-none-match']).toBe('"v1"');
    expect(revalidated.tools[0]).toBe(first.tools[0]);
    expect((await client.execute(revalidated.tool('ping'), {})).data).toEqual({ pong: true });
    expect(revalidated.cache.freshUntil).toBe(Date.parse('2026-12-01T10:02:30Z'));

    version = 'v2';
    vi.setSystemTime(new Date('2026-12-01T10:05:00Z'));
    const changed = await client.discover(url, { previous: revalidated });
    expect(changed.tools[0]!.description).toBe('Pings (v2).');
    expect(changed.cache.etag).toBe('"v2"');
  });

  it('no-cache, no validators, another URL or another client: fetched again, plainly', async () => {
    server.route('GET /rcp/manifest', (_request, res) => sendJson(res, 200, manifest('Pings.'), { 'cache-control': 'no-cache' }));
    server.route('GET /other', (_request, res) => sendJson(res, 200, manifest('Other.')));
    const client = createRcpClient();
    const first = await client.discover(server.url('/rcp/manifest'));
    expect(first.cache).toEqual({ freshUntil: expect.any(Number) });
    await client.discover(server.url('/rcp/manifest'), { previous: first });
    expect(server.requests.at(-1)!.headers['if-none-match']).toBeUndefined();
    expect((await client.discover(server.url('/other'), { previous: first })).tools[0]!.description).toBe('Other.');
    await createRcpClient().discover(server.url('/rcp/manifest'), { previous: first });
    expect(server.count).toBe(4);
  });

  it("a fresh client per request (a stateless route, several instances): each fetches the manifest itself — another client's discovery is never its `previous`, and a 304 to its plain request is refused", async () => {
    let answer304 = false;
    server.route('GET /rcp/manifest', (request, res) => {
      if (answer304 || request.headers['if-none-match'] === '"v1"') {
        res.writeHead(304, { etag: '"v1"', 'cache-control': 'max-age=60' });
        res.end();
        return;
      }
      sendJson(res, 200, manifest('Pings.'), { etag: '"v1"', 'cache-control': 'max-age=60' });
    });
    const url = server.url('/rcp/manifest');
    const first = await createRcpClient().discover(url);
    // The next request's client, handed the discovery another instance made (as a shared cache would): fresh as it
    // is, it is not reused and its validators are not sent — the manifest is fetched and judged again.
    const second = await createRcpClient().discover(url, { previous: first });
    expect(second).not.toBe(first);
    expect(second.tools[0]!.description).toBe('Pings.');
    expect(server.requests.map((request) => request.headers['if-none-match'])).toEqual([undefined, undefined]);
    // A server (or a cache in front of it) that answers 304 to a request that was not conditional: no old tools stand.
    answer304 = true;
    await expect(createRcpClient().discover(url, { previous: first })).rejects.toMatchObject({ code: 'RCP_DISCOVERY_FAILED' });
    expect(server.count).toBe(3);
  });
});
