import { afterEach, describe, expect, it } from 'vitest';
import { seedManifest, sendJson, serveManifest, startTestServer, type TestServer } from './index';

let server: TestServer | undefined;
afterEach(async () => server?.close());

describe('startTestServer', () => {
  it('records what it receives, raw', async () => {
    server = await startTestServer({ 'POST /x': (_r, res) => sendJson(res, 201, { ok: true }) });
    const res = await fetch(server.url('/x?a=1&a=2&b=%2F'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-test': 'yes' },
      body: '{"k":1}',
    });
    expect(res.status).toBe(201);
    expect(server.count).toBe(1);
    const [r] = server.requests;
    expect(r?.path).toBe('/x');
    expect(r?.rawQuery).toBe('a=1&a=2&b=%2F');
    expect(r?.query).toEqual([
      ['a', '1'],
      ['a', '2'],
      ['b', '/'],
    ]);
    expect(r?.headers['x-test']).toBe('yes');
    expect(r?.json).toEqual({ k: 1 });
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('answers 404 for unrouted paths', async () => {
    server = await startTestServer();
    expect((await fetch(server.url('/nope'))).status).toBe(404);
  });

  it('serves a manifest as JSON at /rcp/manifest', async () => {
    server = await startTestServer();
    const url = serveManifest(server, seedManifest);
    expect(url).toBe(`${server.origin}/rcp/manifest`);
    const res = await fetch(url);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual(seedManifest);
  });
});
