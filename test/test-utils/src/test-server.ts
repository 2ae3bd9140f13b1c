import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request exactly as the server received it. */
export interface RecordedRequest {
  method: string;
  /** Raw request target, e.g. `/learners/a%2Fb/profile?x=1`. */
  url: string;
  /** Path part of the raw target (still percent-encoded). */
  path: string;
  /** Raw query string without `?` ('' when absent). */
  rawQuery: string;
  /** Decoded query entries in order (keys may repeat). */
  query: [string, string][];
  /** Lower-cased header names. */
  headers: Record<string, string | string[] | undefined>;
  /** Raw header pairs as sent. */
  rawHeaders: string[];
  body: string;
  /** The body's bytes as received (a binary upload: `body` is them decoded as UTF-8). */
  bytes: Uint8Array;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
}

/** What a route handler gets: the recorded request plus the raw node objects. */
export type TestRouteHandler = (request: RecordedRequest, res: ServerResponse, req: IncomingMessage) => void | Promise<void>;

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `origin + path` */
  url(path: string): string;
  /** Every request received so far, in order. */
  requests: RecordedRequest[];
  /** Number of requests received so far. */
  readonly count: number;
  /** Replace or add a route: key is `"METHOD /path"` (path without query) or `"* /path"`. */
  route(key: string, handler: TestRouteHandler): void;
  /** Clear recorded requests. */
  reset(): void;
  close(): Promise<void>;
  server: Server;
}

/** Helper to answer JSON. */
export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/**
 * Starts a real `node:http` server on 127.0.0.1 with an OS-assigned port. Every request is
 * recorded (method, raw URL, headers, body) before its handler runs. Unrouted requests get 404.
 */
export async function startTestServer(routes: Record<string, TestRouteHandler> = {}): Promise<TestServer> {
  const table = new Map<string, TestRouteHandler>(Object.entries(routes));
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    const body = bytes.toString('utf8');
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const rawQuery = q === -1 ? '' : url.slice(q + 1);
    let json: unknown;
    try {
      json = body ? JSON.parse(body) : undefined;
    } catch {
      json = undefined;
    }
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      url,
      path,
      rawQuery,
      query: [...new URLSearchParams(rawQuery)],
      headers: { ...req.headers },
      rawHeaders: [...req.rawHeaders],
      body,
      bytes,
      json,
    };
    requests.push(recorded);
    const handler = table.get(`${recorded.method} ${path}`) ?? table.get(`* ${path}`) ?? table.get('*');
    try {
      if (handler) await handler(recorded, res, req);
      else sendJson(res, 404, { error: 'not found' });
    } catch (error) {
      if (!res.headersSent) sendJson(res, 500, { error: String(error) });
      else res.destroy();
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (path) => origin + path,
    requests,
    get count() {
      return requests.length;
    },
    route: (key, handler) => void table.set(key, handler),
    reset: () => void requests.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
    server,
  };
}

/**
 * Serves `manifest` as JSON at `path` (default `/rcp/manifest`) on a test server and returns
 * its URL — the one way every package's tests publish a manifest.
 */
export function serveManifest(server: TestServer, manifest: unknown, path = '/rcp/manifest'): string {
  server.route(`GET ${path}`, (_request, res) => sendJson(res, 200, manifest));
  return server.url(path);
}
