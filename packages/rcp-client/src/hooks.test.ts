import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient, type RcpHooks } from 'rcp-client';
import { rejectsWith, serveManifest } from './internal/testing';

const TOKEN = 'tok_hooks_SECRET';
const USER = 'u-hidden-77';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

const manifest = {
  rcpVersion: '0.1',
  auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
  tools: [{ name: 'get_profile', description: 'Gets.', method: 'GET', url: '/users/{{userId}}', params: [{ name: 'userId', required: true }] }],
};

function recording() {
  const events: [string, { readonly [key: string]: unknown }][] = [];
  const hooks: RcpHooks = {
    onRequest: (event) => void events.push(['request', { ...event, frozen: Object.isFrozen(event) }]),
    onResponse: (event) => void events.push(['response', { ...event }]),
    onRetry: (event) => void events.push(['retry', { ...event }]),
    onRedirect: (event) => void events.push(['redirect', { ...event }]),
    onError: (event) => void events.push(['error', { ...event }]),
  };
  return { events, hooks };
}

describe('hooks', () => {
  it('report each attempt, response, retry and redirect with the URL template, never a secret', async () => {
    let calls = 0;
    server.route(`GET /users/${USER}`, (_request, res) => {
      calls += 1;
      if (calls === 1) sendJson(res, 503, {}, { 'retry-after': '0' });
      else if (calls === 2) {
        res.writeHead(302, { location: '/moved' });
        res.end();
      } else sendJson(res, 200, {});
    });
    server.route('GET /moved', (_request, res) => sendJson(res, 200, { ok: true }));
    const { events, hooks } = recording();
    const client = createRcpClient({ resolvers: { userId: () => USER }, credentials: () => TOKEN, hooks });
    const { tools } = await client.discover(serveManifest(server, manifest));
    await client.execute(tools[0]!, {});
    expect(events.map(([kind, event]) => [kind, event.attempt ?? event.hop, event.status])).toEqual([
      ['request', 1, undefined],
      ['response', 1, 503],
      ['retry', 1, 503],
      ['request', 2, undefined],
      ['response', 2, 302],
      ['redirect', 1, 302],
      ['request', 3, undefined],
      ['response', 3, 200],
    ]);
    expect(events[0]![1]).toMatchObject({ tool: 'get_profile', method: 'GET', urlTemplate: `${server.origin}/users/{{userId}}` });
    expect(events.every(([, event]) => typeof event.elapsedMs === 'number')).toBe(true);
    expect(events.filter(([kind]) => kind === 'request').every(([, event]) => event.frozen === true)).toBe(true);
    const text = JSON.stringify(events);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(USER);
  });

  it('onError has the stable code, also for a call that failed before sending; a throwing hook changes nothing', async () => {
    server.route('GET /users/x', (_request, res) => sendJson(res, 200, { ok: true }));
    const { events, hooks } = recording();
    const client = createRcpClient({
      resolvers: { userId: (ctx: { userId?: string }) => ctx.userId },
      credentials: () => TOKEN,
      hooks: {
        ...hooks,
        onRequest: () => {
          throw new Error('broken hook');
        },
      },
    });
    const { tools } = await client.discover(serveManifest(server, manifest));
    server.reset();
    await rejectsWith(client.execute(tools[0]!, {}, {}), 'RCP_UNRESOLVED');
    expect(events).toEqual([['error', expect.objectContaining({ tool: 'get_profile', code: 'RCP_UNRESOLVED' })]]);
    expect(server.count).toBe(0);
    expect((await client.execute(tools[0]!, {}, { userId: 'x' })).data).toEqual({ ok: true });
  });

  it('unknown hooks and non-functions are RCP_INVALID_OPTIONS', () => {
    expect(() => createRcpClient({ hooks: { onSend: () => {} } as never })).toThrow(/no hook "onSend"/);
    expect(() => createRcpClient({ hooks: { onError: 1 } as never })).toThrow(/must be a function/);
  });
});
