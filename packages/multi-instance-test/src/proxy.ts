/**
 * A small HTTP reverse proxy on 127.0.0.1 for the multi-instance test: it hands each request to
 * the next of its upstreams in turn (round robin, as a load balancer without affinity does),
 * records which one served it (and names it in the answer's `x-proxy-upstream`), and — when the test arms it — loses a response: the request goes
 * through and is answered upstream, then the connection to the caller is cut before any of the
 * answer reaches it.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the proxy passed on. */
export interface ProxiedRequest {
  /** The index of the upstream that served it. */
  readonly upstream: number;
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The status the upstream answered, or `'lost'` when the proxy cut the caller off instead. */
  status?: number | 'lost';
}

export interface RoundRobinProxy {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Every request passed on, in the order they came. */
  readonly log: ProxiedRequest[];
  /** Loses the answer to the next request `matches` accepts (once): the upstream still applies it. */
  loseNextAnswer(matches: (request: ProxiedRequest) => boolean): void;
  close(): Promise<void>;
}

/** The response header that names the upstream (its index) that served the request. */
export const UPSTREAM_HEADER = 'x-proxy-upstream';

/** Headers a proxy does not pass on hop by hop. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection']);

/**
 * Starts the proxy in front of `upstreams` (`http://127.0.0.1:<port>` each).
 *
 * @example
 * ```ts
 * const proxy = await startRoundRobinProxy([first.url, second.url]);
 * await fetch(`${proxy.url}/chat`, { method: 'POST', body }); // served by first, the next by second
 * ```
 */
export async function startRoundRobinProxy(upstreams: readonly string[]): Promise<RoundRobinProxy> {
  const log: ProxiedRequest[] = [];
  let next = 0;
  let lose: ((request: ProxiedRequest) => boolean) | undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const upstream = next++ % upstreams.length;
      const body = Buffer.concat(chunks);
      const entry: ProxiedRequest = { upstream, method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body: body.toString('utf8') };
      log.push(entry);
      const losing = lose?.(entry) === true;
      if (losing) lose = undefined;
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
      const target = new URL(entry.path, upstreams[upstream]);
      const forwarded = httpRequest(
        target,
        { method: entry.method, headers: { ...headers, 'content-length': String(body.length) }, agent: false },
        (answer) => {
          if (losing) {
            // Read the whole answer (the upstream finished its work), then cut the caller off.
            answer.resume();
            answer.on('end', () => {
              entry.status = 'lost';
              req.socket.destroy();
            });
            return;
          }
          entry.status = answer.statusCode ?? 0;
          const passed = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
          res.writeHead(answer.statusCode ?? 502, { ...passed, [UPSTREAM_HEADER]: String(upstream) } as Record<string, string | string[]>);
          answer.pipe(res);
        },
      );
      forwarded.on('error', () => {
        entry.status = 502;
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    loseNextAnswer(matches) {
      lose = matches;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
