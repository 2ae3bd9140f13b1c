import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { rcpExpress } from './express';
import { createRcpServer, defineTool } from './index';
import { toNodeListener } from './node';

/**
 * Issue 38 item 9: a `TRACE` request (a method fetch's `Request` refuses) reached `new Request()`
 * in the Node bridge, which threw: a 500 and the operator's `onError` for any path, the host
 * app's own routes included. Sent here by a raw HTTP client (`fetch` itself cannot send TRACE).
 */
const server = createRcpServer({
  tools: [
    defineTool({ name: 'ping', description: 'Pings.', method: 'GET', path: '/ping', handler: () => ({ pong: true }) }),
    defineTool({ name: 'save', description: 'Saves.', method: 'POST', path: '/items', handler: () => ({ saved: true }) }),
  ],
});

/** One raw HTTP/1.1 request on a fresh connection; resolves with the status line, headers and body as received. */
function rawRequest(origin: string, method: string, path: string): Promise<{ status: number; headers: string; body: string }> {
  const { port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    });
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const split = text.indexOf('\r\n\r\n');
      const head = text.slice(0, split).toLowerCase();
      const raw = text.slice(split + 4);
      const body = head.includes('transfer-encoding: chunked') ? unchunk(raw) : raw;
      resolve({ status: Number(/^http\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body });
    });
  });
}

/** A chunked body's data (RFC 9112 §7.1), extensions and trailers ignored. */
function unchunk(raw: string): string {
  let body = '';
  let at = 0;
  for (;;) {
    const end = raw.indexOf('\r\n', at);
    const size = Number.parseInt(raw.slice(at, end), 16);
    if (!(size > 0)) return body;
    body += raw.slice(end + 2, end + 2 + size);
    at = end + 2 + size + 2;
  }
}

let http: Server | undefined;
async function listen(listener: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  http = createServer(listener);
  await new Promise<void>((resolve) => http!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
}
afterEach(async () => {
  await new Promise<void>((resolve) => (http === undefined ? resolve() : http.close(() => resolve())));
  http = undefined;
});

describe('a method fetch refuses (TRACE), sent by a raw HTTP client', () => {
  it.each(['/ping', '/items', '/rcp/manifest', '/elsewhere'])('toNodeListener answers TRACE %s with a 405 problem and never calls onError', async (path) => {
    const errors: unknown[] = [];
    const origin = await listen(toNodeListener(server, { onError: (error) => errors.push(error) }));
    const response = await rawRequest(origin, 'TRACE', path);
    expect(response.status).toBe(405);
    expect(response.headers).toContain('content-type: application/problem+json');
    expect(response.headers).toContain('allow: get, head, post');
    expect(JSON.parse(response.body)).toMatchObject({ status: 405, code: 'RCP_METHOD_NOT_ALLOWED' });
    expect(errors).toEqual([]);
    // The server is still serving.
    expect(await (await fetch(`${origin}/ping`)).json()).toEqual({ pong: true });
  });

  it("toNodeListener hands TRACE to the host's fallback when there is one", async () => {
    const errors: unknown[] = [];
    const seen: string[] = [];
    const origin = await listen(
      toNodeListener(server, {
        onError: (error) => errors.push(error),
        fallback: (request, response) => {
          seen.push(`${request.method} ${request.url}`);
          response.writeHead(501).end('not here');
        },
      }),
    );
    const response = await rawRequest(origin, 'TRACE', '/ping');
    expect([response.status, response.body]).toEqual([501, 'not here']);
    expect(seen).toEqual(['TRACE /ping']);
    expect(errors).toEqual([]);
  });

  it("rcpExpress passes TRACE to the host app's own routes (next()), never to its error handler", async () => {
    const errors: unknown[] = [];
    const app = express();
    app.use(rcpExpress(server));
    app.trace('/debug', (_request, response) => void response.status(200).send('the app traced it'));
    app.use((error: unknown, _request: express.Request, response: express.Response, _next: express.NextFunction) => {
      errors.push(error);
      response.status(500).send('error handler');
    });
    const origin = await listen(app);
    const own = await rawRequest(origin, 'TRACE', '/debug');
    expect([own.status, own.body]).toEqual([200, 'the app traced it']);
    const tool = await rawRequest(origin, 'TRACE', '/ping');
    expect(tool.status).toBe(404); // Express's own answer for a route it does not have
    expect(errors).toEqual([]);
    expect(await (await fetch(`${origin}/ping`)).json()).toEqual({ pong: true });
  });
});
