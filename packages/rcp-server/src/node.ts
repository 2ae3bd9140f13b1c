import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { RcpServer } from './create-rcp-server';
import { problemResponse } from './problem';

/**
 * Methods the fetch standard forbids: `new Request()` throws for them, so no RCP tool or manifest
 * can be reached with one. Node's own parser lets `TRACE` through (it sends `CONNECT` to the
 * server's `connect` event and refuses `TRACK`); a custom server may pass any of them.
 */
const FORBIDDEN_METHODS: ReadonlySet<string> = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * Whether a request's method is one fetch refuses (`CONNECT`, `TRACE`, `TRACK`, any case): such a
 * request has no web-standard `Request`, so it is never an RCP call. The adapters hand it to the
 * host (`fallback`, Express's `next()`) or answer 405.
 *
 * @example
 * ```ts
 * import { isForbiddenMethod } from 'rcp-server/node';
 *
 * isForbiddenMethod('TRACE'); // true
 * isForbiddenMethod('POST'); // false
 * ```
 */
export function isForbiddenMethod(method: string | undefined): boolean {
  return method !== undefined && FORBIDDEN_METHODS.has(method.toUpperCase());
}

/**
 * A web-standard `Request` for a `node:http` request (its body streamed, not buffered). The
 * URL's origin comes from the `Host` header and only serves to parse the path and query;
 * `requestTarget` replaces `request.url` (a framework that strips a mount path keeps the original).
 * A method fetch forbids ({@link isForbiddenMethod}) has no `Request`: it throws a `TypeError`.
 *
 * @example
 * ```ts
 * import { toWebRequest } from 'rcp-server/node';
 *
 * http.createServer((req, res) => console.log(toWebRequest(req).url));
 * ```
 */
export function toWebRequest(request: IncomingMessage, requestTarget: string | undefined = request.url): Request {
  let origin = 'http://localhost';
  try {
    origin = new URL(`http://${request.headers.host ?? 'localhost'}`).origin;
  } catch {
    // A Host header that is not a host: the path still parses against localhost.
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.startsWith(':') || value === undefined) continue;
    for (const entry of Array.isArray(value) ? value : [value]) headers.append(name, entry);
  }
  const method = request.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  // Concatenated, not resolved: a request target such as `//other/x` stays a path.
  const target = requestTarget?.startsWith('/') ? requestTarget : `/${requestTarget ?? ''}`;
  return new Request(new URL(origin + target), {
    method,
    headers,
    ...(hasBody && { body: Readable.toWeb(request) as ReadableStream<Uint8Array>, duplex: 'half' }),
  } as RequestInit);
}

/**
 * Writes a web-standard `Response` to a `node:http` response (status, every header — each
 * `Set-Cookie` on its own line — and the body, streamed: each chunk written as it comes, the
 * body cancelled when the connection closes). A body that fails rejects (the response is left
 * open for the caller to destroy).
 *
 * @example
 * ```ts
 * import { writeWebResponse } from 'rcp-server/node';
 *
 * await writeWebResponse(Response.json({ ok: true }), res);
 * ```
 */
export async function writeWebResponse(response: Response, target: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  target.writeHead(response.status, headers);
  if (response.body === null) {
    target.end();
    return;
  }
  const reader = response.body.getReader();
  // The client went away (it stopped at a stream's maxEvents, or hung up): stop the body, so a
  // streamed handler's generator is returned instead of running on for nobody.
  const stop = (): void => void reader.cancel().catch(() => undefined);
  target.once('close', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || target.destroyed) break;
      // Each chunk is written as it comes (a streamed answer's event reaches the client then); a full buffer waits.
      if (!target.write(value)) await drained(target);
    }
  } finally {
    target.off('close', stop);
  }
  target.end();
}

/** Resolves when `target` can take more, or has closed. */
function drained(target: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      target.off('drain', done);
      target.off('close', done);
      resolve();
    };
    target.on('drain', done);
    target.on('close', done);
  });
}

/**
 * Options of {@link toNodeListener}.
 *
 * @example
 * ```ts
 * const options: NodeListenerOptions = { onError: (error) => log.error(error) };
 * ```
 */
export interface NodeListenerOptions {
  /** Your own listener for requests that are neither the manifest nor a tool. @default a 404 problem */
  readonly fallback?: (request: IncomingMessage, response: ServerResponse) => void;
  /** Told about a handler that threw (the caller gets a 500 problem). @default nothing */
  readonly onError?: (error: unknown) => void;
}

/**
 * A `node:http` request listener serving an RCP server: the manifest and every tool, and a 404
 * problem (or your `fallback`) for anything else. A method fetch forbids (`TRACE` …) goes to your
 * `fallback`, else it is a 405 problem; neither is an error.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { toNodeListener } from 'rcp-server/node';
 *
 * createServer(toNodeListener(server)).listen(8080, '127.0.0.1');
 * ```
 */
export function toNodeListener(server: RcpServer, options: NodeListenerOptions = {}): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    if (isForbiddenMethod(request.method)) {
      if (options.fallback !== undefined) return options.fallback(request, response);
      void writeWebResponse(methodNotAllowed(server, request.method!), response).catch((error: unknown) => options.onError?.(error));
      return;
    }
    void (async () => {
      const answer = await server.handle(toWebRequest(request));
      if (answer === undefined && options.fallback !== undefined) return options.fallback(request, response);
      await writeWebResponse(answer ?? problemResponse(404, 'RCP_UNKNOWN_TOOL', 'Nothing is served at this path'), response);
    })().catch((error: unknown) => {
      options.onError?.(error);
      if (!response.headersSent) {
        response.writeHead(500, { 'content-type': 'application/problem+json' });
        response.end(JSON.stringify({ type: 'about:blank', title: 'Internal Server Error', status: 500 }));
      } else response.destroy(); // a body cut by an error is never ended as if it were whole
    });
  };
}

/** The 405 for a method no RCP server serves, with `Allow`: the manifest's GET and HEAD, and each tool's method. */
function methodNotAllowed(server: RcpServer, method: string): Response {
  const allowed = new Set(['GET', 'HEAD', ...server.manifest.tools.map((tool) => tool.method)]);
  return problemResponse(405, 'RCP_METHOD_NOT_ALLOWED', `The ${method.toUpperCase()} method is not served here`, {
    headers: { allow: [...allowed].join(', ') },
  });
}
