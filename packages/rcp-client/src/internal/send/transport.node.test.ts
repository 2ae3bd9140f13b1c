/**
 * Node's transport on its own (undici `dispatch()` with the transport's handler): what the
 * sender's tests cannot see — the body queue pausing and resuming the connection, `cancel`
 * closing it, an abort before and during the response, 1xx answers skipped.
 */
import type { Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from 'rcp-test-utils';
import { createPlatformTransport } from './transport.node';
import type { AbortState } from './deadline';
import type { BodyReader, TransportRequest } from './transport-types';

const servers: TestServer[] = [];
const transports: ReturnType<typeof createPlatformTransport>[] = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(routes: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const server = await startTestServer(routes);
  servers.push(server);
  return server;
}

function transport() {
  const created = createPlatformTransport();
  transports.push(created);
  return created;
}

/** A hand-driven abort state: `abort(reason)` fires it. */
function abortState(): AbortState & { abort(reason: unknown): void } {
  const listeners: (() => void)[] = [];
  const state = {
    aborted: false,
    reason: undefined as unknown,
    get signal(): AbortSignal {
      throw new Error('the Node transport never needs a real AbortSignal');
    },
    on: (_event: 'abort', listener: () => void) => void listeners.push(listener),
    once: (_event: 'abort', listener: () => void) => void listeners.push(listener),
    removeListener: (_event: 'abort', listener: () => void) => {
      const index = listeners.indexOf(listener);
      if (index !== -1) listeners.splice(index, 1);
    },
    abort(reason: unknown) {
      state.aborted = true;
      state.reason = reason;
      for (const listener of listeners.splice(0)) listener();
    },
  };
  return state;
}

function get(server: TestServer, path: string, abort: AbortState = abortState()): TransportRequest {
  return { method: 'GET', url: server.url(path), origin: server.origin, headers: {}, body: undefined, abort };
}

async function readAll(body: BodyReader, pause?: () => Promise<void>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for (;;) {
    const chunk = await body.read();
    if (chunk === undefined) return Buffer.concat(chunks);
    chunks.push(chunk);
    await pause?.();
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("Node's transport (undici dispatch)", () => {
  it('delivers a 4 MB body read slowly intact: the queue pauses the connection and resumes it as it drains', async () => {
    const payload = Buffer.alloc(4 * 1024 * 1024, 0);
    for (let i = 0; i < payload.length; i += 4096) payload.writeUInt32BE(i, i);
    const server = await serve({
      'GET /big': (_request, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(payload.length) });
        res.end(payload);
      },
    });
    const response = await transport()(get(server, '/big'));
    expect(response.status).toBe(200);
    // One turn of the event loop per chunk: the server writes far faster than this reads.
    const received = await readAll(response.body!, nextTurn);
    expect(received.equals(payload)).toBe(true);
  });

  it('cancel() closes the connection mid-body; a read after it ends', async () => {
    const closed = new Promise<void>((resolve) => {
      void serve({
        'GET /endless': (_request, res, req) => {
          req.socket.once('close', () => resolve());
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.write('x'.repeat(1024));
        },
      }).then(async (server) => {
        const response = await transport()(get(server, '/endless'));
        await response.body!.read();
        response.body!.cancel();
        await expect(response.body!.read()).resolves.toBeUndefined();
      });
    });
    await closed;
  });

  it('an abort before the request is sent rejects with its reason and nothing reaches the server', async () => {
    const server = await serve({ 'GET /x': (_request, res) => void res.end('{}') });
    const abort = abortState();
    abort.abort(new Error('stopped early'));
    await expect(transport()(get(server, '/x', abort))).rejects.toThrow('stopped early');
    expect(server.requests).toEqual([]);
  });

  it('an abort while the body streams rejects the pending read and closes the connection', async () => {
    const sockets: Socket[] = [];
    const server = await serve({
      'GET /slow': (_request, res, req) => {
        sockets.push(req.socket);
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('first part');
      },
    });
    const abort = abortState();
    const response = await transport()(get(server, '/slow', abort));
    expect(Buffer.from((await response.body!.read())!).toString()).toBe('first part');
    const pending = response.body!.read();
    abort.abort(new Error('deadline'));
    await expect(pending).rejects.toThrow('deadline');
    await expect.poll(() => sockets[0]!.destroyed).toBe(true);
  });

  it('an abort while waiting for the headers rejects the response', async () => {
    let reached!: () => void;
    const arrived = new Promise<void>((resolve) => (reached = resolve));
    const server = await serve({ 'GET /hang': () => reached() });
    const abort = abortState();
    const pending = transport()(get(server, '/hang', abort));
    await arrived;
    abort.abort(new Error('gave up'));
    await expect(pending).rejects.toThrow('gave up');
  });

  it('skips a 1xx answer (103 Early Hints) and returns the final response with its headers', async () => {
    const server = await serve({
      'GET /hints': (_request, res) => {
        res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
        res.writeHead(200, 'Fine', { 'content-type': 'application/json', 'x-one': 'a', 'set-cookie': ['a=1', 'b=2'] });
        res.end('{"ok":true}');
      },
    });
    const response = await transport()(get(server, '/hints'));
    expect(response.status).toBe(200);
    expect(response.statusText).toBe('Fine');
    expect(response.headers.get('X-One')).toBe('a');
    expect(response.headers.get('set-cookie')).toBe('a=1, b=2');
    expect(response.headers.get('constructor')).toBeNull();
    expect(Object.fromEntries(response.headers.entries())).toMatchObject({ 'content-type': 'application/json', 'x-one': 'a' });
    expect((await readAll(response.body!)).toString()).toBe('{"ok":true}');
  });

  it('decodes a gzip body through the same queue, and cancelling the decoded body closes the connection', async () => {
    const packed = gzipSync(Buffer.from('{"hello":"world"}'));
    const server = await serve({
      'GET /gz': (_request, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(packed);
      },
    });
    const response = await transport()(get(server, '/gz'));
    expect((await readAll(response.body!)).toString()).toBe('{"hello":"world"}');

    const sockets: Socket[] = [];
    server.route('GET /gz-endless', (_request, res, req) => {
      sockets.push(req.socket);
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      res.write(gzipSync(Buffer.alloc(16 * 1024, 1)).subarray(0, 200));
    });
    const endless = await transport()(get(server, '/gz-endless'));
    endless.body!.cancel();
    await expect.poll(() => sockets[0]?.destroyed).toBe(true);
  });

  it('builds no decoder for a response naming more than 5 codings: its body is refused, unread, the connection closed (issue 38)', async () => {
    const sockets: Socket[] = [];
    const server = await serve({
      'GET /many': (_request, res, req) => {
        sockets.push(req.socket);
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip,gzip,gzip,gzip,gzip,gzip' });
        res.write(gzipSync(Buffer.from('{"a":1}'))); // and the body never ends
      },
    });
    const response = await transport()(get(server, '/many'));
    await expect(response.body!.read()).rejects.toMatchObject({ code: 'RCP_INVALID_RESPONSE' });
    await expect.poll(() => sockets[0]?.destroyed).toBe(true);
  });
});
