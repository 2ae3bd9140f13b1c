import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostHeaderValidation, originValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type AuthInfo } from '@modelcontextprotocol/server';
import { createRcpMcpGateway, type RcpMcpGatewayOptions } from './mcp-server';

/** Host names a local bind accepts by default (DNS-rebinding protection). */
const LOCAL_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Options of {@link createRcpMcpHttpHandler}.
 *
 * @example
 * ```ts
 * const options: RcpMcpHttpOptions<{ userId: string }> = {
 *   client,
 *   source: discovery,
 *   authenticate: async (request) => verifySession(request.headers.authorization),
 * };
 * ```
 */
export interface RcpMcpHttpOptions<Context = any> extends RcpMcpGatewayOptions<Context> {
  /**
   * Verifies the HTTP request (a bearer token, a session cookie ...) and returns the context
   * the client's resolvers read — the verified user, the tenant — or `undefined` to refuse it
   * with 401 before any tool runs. The context never comes from tool arguments.
   */
  readonly authenticate: (request: IncomingMessage) => Context | undefined | Promise<Context | undefined>;
  /**
   * Host names the `Host` header may carry (DNS-rebinding protection). A request for any other
   * host is answered 403.
   * @default ['localhost', '127.0.0.1', '[::1]'] (a local bind); list your public host names when you deploy
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Host names a browser's `Origin` header may name (DNS-rebinding and cross-site protection, as
   * the MCP transport requires). A request whose `Origin` names any other host — or is `null` or
   * unparsable — is answered 403 before authentication and before the MCP server sees it; a
   * request without `Origin` (every non-browser client) passes. The SDK's convention
   * (`originValidation` of `@modelcontextprotocol/node`): host names only, port-agnostic,
   * `[::1]` in brackets, `chrome-extension://*` for every origin of a non-web scheme.
   * @default `allowedHosts` (the gateway's own host names: a same-origin page passes)
   */
  readonly allowedOrigins?: readonly string[];
}

/** The key under which the verified context rides in the MCP SDK's pass-through `authInfo`. */
const CONTEXT_KEY = 'rcpContext';

function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message } });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/**
 * A stateless streamable-HTTP MCP endpoint over RCP tools, as a `node:http` request listener:
 * the `Host` and `Origin` headers are checked (403), the request is authenticated by your hook (401 when it
 * returns no context, before any tool runs), then served by a fresh MCP server instance for
 * that context. Nothing is kept between requests, so instances scale out behind any load
 * balancer.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createRcpMcpHttpHandler } from 'rcp-mcp';
 *
 * const handler = createRcpMcpHttpHandler({
 *   client,
 *   source: await client.discover(manifestUrl),
 *   authenticate: (request) => sessions.get(request.headers.authorization ?? ''), // { userId } or undefined
 * });
 * createServer(handler).listen(3000, '127.0.0.1');
 * ```
 */
export function createRcpMcpHttpHandler<Context>(options: RcpMcpHttpOptions<Context>): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const gateway = createRcpMcpGateway(options);
  const hosts = [...(options.allowedHosts ?? LOCAL_HOSTS)];
  const checkHost = hostHeaderValidation(hosts);
  const checkOrigin = originValidation([...(options.allowedOrigins ?? hosts)]);
  const mcp = createMcpHandler(({ authInfo }) => gateway.serverFor(authInfo?.extra?.[CONTEXT_KEY] as Context));
  return async (req, res) => {
    if (!checkHost(req, res)) return; // answered 403
    if (!checkOrigin(req, res)) return; // answered 403: a page of another site, or a rebound name
    let ctx: Context | undefined;
    try {
      ctx = await options.authenticate(req);
    } catch {
      ctx = undefined;
    }
    if (ctx === undefined || ctx === null) {
      refuse(res, 401, 'Unauthorized', { 'www-authenticate': 'Bearer' });
      return;
    }
    const authInfo: AuthInfo = { token: '', clientId: 'rcp-mcp', scopes: [], extra: { [CONTEXT_KEY]: ctx } };
    await toNodeHandler({ fetch: (request: Request) => mcp.fetch(request, { authInfo }) })(req, res);
  };
}
