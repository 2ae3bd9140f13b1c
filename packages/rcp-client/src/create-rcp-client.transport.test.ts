import ky from 'ky';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import type { RcpClientOptions } from './client-options';
import { createRcpClient } from './create-rcp-client';
import { RcpHttpError } from './http-error';
import { errorText, rejectsWith, serveManifest } from './internal/testing';

const TOKEN = 'tok-TRANSPORT-5150';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

async function toolsFor(options: RcpClientOptions, path = '/work') {
  const client = createRcpClient(options);
  const { tools } = await client.discover(
    serveManifest(server, {
      rcpVersion: '0.1',
      auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
      tools: METHODS.map((method) => ({
        name: method.toLowerCase(),
        description: `${method} it.`,
        method,
        url: path,
        ...(method === 'GET' || method === 'DELETE' ? {} : { body: { n: 1 } }),
      })),
    }),
  );
  server.reset();
  const byMethod = Object.fromEntries(METHODS.map((method, index) => [method, tools[index]!]));
  return { client, byMethod };
}

describe('responses', () => {
  it('returns text for a non-JSON response without mappings', async () => {
    server.route('GET /work', (_request, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('plain answer');
    });
    const { client, byMethod } = await toolsFor({ credentials: () => TOKEN });
    expect(await client.execute(byMethod.GET!, {})).toEqual({ status: 200, data: 'plain answer', contentType: 'text/plain; charset=utf-8' });
  });

  it('non-2xx → RcpHttpError with status and the server text, never the credential', async () => {
    server.route('GET /work', (request, res) => sendJson(res, 422, { error: 'quota exceeded', echo: request.headers.authorization }));
    const { client, byMethod } = await toolsFor({ credentials: () => TOKEN, retry: 0 });
    const error = await rejectsWith(client.execute(byMethod.GET!, {}), 'RCP_HTTP_ERROR');
    expect(error).toBeInstanceOf(RcpHttpError);
    expect(error).toMatchObject({ status: 422 });
    expect((error as RcpHttpError).bodyExcerpt).toContain('quota exceeded');
    expect(errorText(error)).not.toContain(TOKEN);
  });

  it('bad JSON labelled application/json → RCP_INVALID_RESPONSE', async () => {
    server.route('GET /work', (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"a":');
    });
    const { client, byMethod } = await toolsFor({ credentials: () => TOKEN });
    await rejectsWith(client.execute(byMethod.GET!, {}), 'RCP_INVALID_RESPONSE');
  });

  it('a closed port → RCP_NETWORK_ERROR', async () => {
    const closed = await startTestServer();
    await closed.close();
    const client = createRcpClient({ retry: 0 });
    const { tools } = await client.discover(
      serveManifest(server, {
        rcpVersion: '0.1',
        tools: [{ name: 'gone', description: 'Gone.', method: 'GET', url: `${closed.origin}/x` }],
      }),
    );
    await rejectsWith(client.execute(tools[0]!, {}), 'RCP_NETWORK_ERROR');
  });
});

describe('limits', () => {
  it('a server that stalls mid-body → RCP_TIMEOUT', async () => {
    let stalled = false;
    server.route('GET /work', (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial": ');
      stalled = true;
    });
    // The deadline's timer is fake (the network stays real): discovery, under the same 250 ms
    // option, cannot time out on a loaded machine, and the call times out when the test says so.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { client, byMethod } = await toolsFor({ credentials: () => TOKEN, timeout: 250, retry: 0 });
      const pending = rejectsWith(client.execute(byMethod.GET!, {}), 'RCP_TIMEOUT');
      await vi.waitUntil(() => stalled, { timeout: 30_000, interval: 5 });
      await vi.advanceTimersByTimeAsync(250);
      await pending;
    } finally {
      vi.useRealTimers();
    }
  });

  it('an oversized body (declared length) → RCP_RESPONSE_TOO_LARGE', async () => {
    server.route('GET /work', (_request, res) => sendJson(res, 200, { blob: 'x'.repeat(200_000) }));
    const { client, byMethod } = await toolsFor({ credentials: () => TOKEN, maxResponseBytes: 64 * 1024 });
    await rejectsWith(client.execute(byMethod.GET!, {}), 'RCP_RESPONSE_TOO_LARGE');
  });

  it('an endless body without Content-Length → RCP_RESPONSE_TOO_LARGE', async () => {
    server.route('GET /work', (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk)) {
          // keep writing until the socket pushes back
        }
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    const { client, byMethod } = await toolsFor({ credentials: () => TOKEN, maxResponseBytes: 256 * 1024 });
    await rejectsWith(client.execute(byMethod.GET!, {}), 'RCP_RESPONSE_TOO_LARGE');
  });
});

describe('retries', () => {
  it.each([
    ['GET', 3],
    ['PUT', 3],
    ['DELETE', 3],
    ['POST', 1],
    ['PATCH', 1],
  ] as const)('%s on 503 is attempted %i time(s) with retry: 2', async (method, attempts) => {
    server.route('* /work', (_request, res) => sendJson(res, 503, { error: 'busy' }, { 'retry-after': '0' }));
    const { client, byMethod } = await toolsFor({ credentials: () => TOKEN, retry: 2 });
    const error = await rejectsWith(client.execute(byMethod[method]!, {}), 'RCP_HTTP_ERROR');
    expect(error).toMatchObject({ status: 503 });
    expect(server.count).toBe(attempts);
    expect(server.requests.every((request) => request.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('a GET succeeds after a transient 503', async () => {
    let calls = 0;
    server.route('GET /work', (_request, res) => (++calls === 1 ? sendJson(res, 503, {}, { 'retry-after': '0' }) : sendJson(res, 200, { ok: true })));
    const { client, byMethod } = await toolsFor({ credentials: () => TOKEN });
    expect((await client.execute(byMethod.GET!, {})).data).toEqual({ ok: true });
    expect(server.count).toBe(2);
  });

  it('never retries a 4xx other than 408 and 429', async () => {
    server.route('GET /work', (_request, res) => sendJson(res, 400, {}));
    const { client, byMethod } = await toolsFor({ credentials: () => TOKEN, retry: 2 });
    await rejectsWith(client.execute(byMethod.GET!, {}), 'RCP_HTTP_ERROR');
    expect(server.count).toBe(1);
  });

  it('retry: 0 means one attempt', async () => {
    server.route('GET /work', (_request, res) => sendJson(res, 503, {}, { 'retry-after': '0' }));
    const { client, byMethod } = await toolsFor({ credentials: () => TOKEN, retry: 0 });
    await rejectsWith(client.execute(byMethod.GET!, {}), 'RCP_HTTP_ERROR');
    expect(server.count).toBe(1);
  });
});

describe('responseMappings', () => {
  async function mapped(responseMappings: Record<string, string>) {
    const client = createRcpClient();
    const { tools } = await client.discover(
      serveManifest(server, {
        rcpVersion: '0.1',
        tools: [{ name: 'courses', description: 'Courses.', method: 'GET', url: '/courses', responseMappings }],
      }),
    );
    return (await client.execute(tools[0]!, {})).data;
  }

  beforeEach(() => {
    server.route('GET /courses', (_request, res) =>
      sendJson(res, 200, {
        data: { total: 2, courses: [{ title: 'Algebra', level: 1 }, { title: 'Calculus' }] },
      }),
    );
  });

  it('maps singular queries to values and wildcards to arrays', async () => {
    expect(
      await mapped({
        total: '@data.total',
        first: '@data.courses[0].title',
        titles: '@data.courses[*].title',
        levels: '@data.courses[*].level',
        none: '@data.nothing[*]',
        everything: '@',
      }),
    ).toEqual({
      total: 2,
      first: 'Algebra',
      titles: ['Algebra', 'Calculus'],
      levels: [1],
      none: [],
      everything: { data: { total: 2, courses: [{ title: 'Algebra', level: 1 }, { title: 'Calculus' }] } },
    });
  });

  it('leaves out a singular field that matches nothing', async () => {
    const data = await mapped({ total: '@data.total', missing: '@data.courses[5].title', absent: '@data.nope' });
    expect(data).toEqual({ total: 2 });
    expect(data).not.toHaveProperty('missing');
  });

  it('a non-JSON response to a tool with mappings → RCP_INVALID_RESPONSE', async () => {
    server.route('GET /courses', (_request, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<p>maintenance</p>');
    });
    await rejectsWith(mapped({ total: '@data.total' }), 'RCP_INVALID_RESPONSE');
  });
});

describe("the operator's fetch", () => {
  it('a ky instance works as `fetch`: its hooks see each request, the client keeps redirects, retries and errors', async () => {
    server.route('GET /work', (request, res) => {
      if (!request.url.includes('moved')) {
        res.writeHead(302, { location: '/work?moved=1' });
        res.end();
        return;
      }
      sendJson(res, 200, { ok: true, from: request.headers['x-from-ky'] });
    });
    const seen: string[] = [];
    // ky's own retries and HTTP errors are off: the client's policies decide, once.
    const api = ky.create({
      retry: 0,
      throwHttpErrors: false,
      hooks: {
        beforeRequest: [
          (request) => {
            seen.push(request.url);
            request.headers.set('x-from-ky', 'yes');
          },
        ],
      },
    });
    const { client, byMethod } = await toolsFor({ credentials: () => TOKEN, fetch: api });
    expect(await client.execute(byMethod.GET!, {})).toMatchObject({ status: 200, data: { ok: true, from: 'yes' } });
    expect(seen.map((url) => new URL(url).pathname + new URL(url).search)).toEqual(['/rcp/manifest', '/work', '/work?moved=1']);
    expect(server.requests.map((request) => request.headers.authorization)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);

    server.route('GET /work', (_request, res) => sendJson(res, 404, { error: 'gone' }));
    await rejectsWith(client.execute(byMethod.GET!, {}), 'RCP_HTTP_ERROR');
  });
});
