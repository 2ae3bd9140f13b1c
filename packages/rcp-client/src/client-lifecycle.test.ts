/**
 * One deadline per call, started before the resolvers run (timer counts on fake timers show it), and
 * `close()`, which lets the client's connections go (the server counts open sockets).
 */
import type { Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient } from 'rcp-client';
import { rejectsWith, serveManifest } from './internal/testing';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
  server.route('GET /users/u-1', (_request, res) => sendJson(res, 200, { ok: true }));
});
afterEach(async () => {
  vi.restoreAllMocks(); // first: a spy made on fake timers would otherwise put the fake back
  vi.useRealTimers();
  await server.close();
});

const manifest = {
  rcpVersion: '0.1',
  tools: [{ name: 'get_user', description: 'Gets.', method: 'GET', url: '/users/{{userId}}', params: [{ name: 'userId', required: true }] }],
};
/** A timeout no other timer of the test or the transport uses. */
const TIMEOUT = 43_210;

describe('one deadline per call', () => {
  it('a call with an async resolver starts exactly one timer of the call timeout, shared by resolvers, request and body', async () => {
    const client = createRcpClient({ resolvers: { userId: async () => 'u-1' }, timeout: TIMEOUT, retry: 0 });
    const tool = (await client.discover(serveManifest(server, manifest))).tools[0]!;
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    expect((await client.execute(tool, {})).data).toEqual({ ok: true });
    const deadlines = setTimeoutSpy.mock.calls.filter(([, delay]) => typeof delay === 'number' && delay > TIMEOUT - 1_000 && delay <= TIMEOUT);
    expect(deadlines).toHaveLength(1);
  });

  it('a whole call on fake timers starts one timer — before the resolver, kept while the server and the body are awaited — and clears it', async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    server.route('GET /users/u-2', (_request, res) => void answered.then(() => sendJson(res, 200, { ok: true })));
    let userId = 'u-1';
    const client = createRcpClient({ resolvers: { userId: async () => userId }, timeout: TIMEOUT, retry: 0 });
    const tool = (await client.discover(serveManifest(server, manifest))).tools[0]!;
    await client.execute(tool, {}); // the transport is loaded and its connection open: what is counted is the call's
    userId = 'u-2';
    server.reset();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const created = vi.spyOn(globalThis, 'setTimeout');
    const cleared = vi.spyOn(globalThis, 'clearTimeout');
    const pending = client.execute(tool, {});
    expect(vi.getTimerCount()).toBe(1); // started before the (async) resolver answers
    await vi.waitFor(() => expect(server.count).toBe(1));
    release();
    expect((await pending).data).toEqual({ ok: true });
    // The call's timer: one (the deadline), cleared once the call ended. (One other timer, of 3 s, is
    // set meanwhile by the HTTP stack below the client, on both transports; rcp-client sets none.)
    const deadlines = created.mock.results.filter((_result, index) => created.mock.calls[index]![1] === TIMEOUT);
    expect(deadlines).toHaveLength(1);
    expect(cleared.mock.calls.map(([timer]) => timer)).toContain(deadlines[0]!.value);
  });

  it('resolvers that do not answer in time are RCP_TIMEOUT on fake timers; nothing is sent', async () => {
    const client = createRcpClient({ resolvers: { userId: () => new Promise(() => {}) }, timeout: 1_000, retry: 0 });
    const tool = (await client.discover(serveManifest(server, manifest))).tools[0]!;
    server.reset();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const pending = rejectsWith(client.execute(tool, {}), 'RCP_TIMEOUT');
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await pending).message).toContain('did not answer within 1000 ms; nothing was sent');
    expect(server.count).toBe(0);
  });

  it("the caller's signal ends the wait for a resolver with RCP_ABORTED, and the timer is gone", async () => {
    const client = createRcpClient({ resolvers: { userId: () => new Promise(() => {}) }, timeout: 5_000 });
    const tool = (await client.discover(serveManifest(server, manifest))).tools[0]!;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const controller = new AbortController();
    const pending = rejectsWith(client.execute(tool, {}, undefined, { signal: controller.signal }), 'RCP_ABORTED');
    controller.abort();
    await pending;
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('close()', () => {
  // On the fetch transport the platform owns the connections; only Node's are the client's.
  it.skipIf(process.env.RCP_TEST_TRANSPORT === 'fetch')(
    'closes the keep-alive sockets of every agent the client opened; later calls are RCP_ABORTED',
    async () => {
      const open = new Set<Socket>();
      server.server.on('connection', (socket: Socket) => {
        open.add(socket);
        socket.on('close', () => open.delete(socket));
      });
      const client = createRcpClient({ resolvers: { userId: () => 'u-1' } });
      const discovery = await client.discover(serveManifest(server, manifest));
      await client.execute(discovery.tools[0]!, {});
      expect(open.size).toBeGreaterThan(0); // the manifest's and the tool's agents keep theirs alive
      await client.close();
      await vi.waitFor(() => expect(open.size).toBe(0));
      await rejectsWith(client.execute(discovery.tools[0]!, {}), 'RCP_ABORTED');
      await rejectsWith(client.discover(server.url('/rcp/manifest')), 'RCP_ABORTED');
      await client.close(); // twice is fine
    },
  );
});
