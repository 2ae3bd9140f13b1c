import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createMemoryApprovalLedger, type RcpClientOptions, type RcpResolver } from 'rcp-client';
import { openManifestSource } from './command-line';
import { callAnswer, errorOf, manifestAnswer, type ApiAnswer, type InspectorApi } from './inspect-api';
import { send, sendPage } from './inspect-http';

/** What `rcp inspect` needs. */
export interface InspectorOptions {
  /** A manifest URL or file. */
  readonly source: string;
  /** Port on 127.0.0.1 (0: any free one). */
  readonly port: number;
  /** The environment variable holding the credential, if any (the page is shown its name, never its value). */
  readonly tokenEnv: string | undefined;
  /**
   * The process's client options, made once from the flags: the credential (`--token-env` or
   * `--oauth-env`), the `--ctx` / `--resolve` / `--model-filled` bindings and the network flags.
   * The page may bind more params; a param bound here stays bound as here. Without an
   * `approval` policy the inspector uses `'writes'`, as `rcp call` does: Send on a call that
   * changes data shows the exact request and asks first (SPEC §19; docs/behaviour.md).
   */
  readonly clientOptions: RcpClientOptions;
}

/** A running inspector. */
export interface Inspector {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts the inspector page on 127.0.0.1: the real rcp-client runs here (discovery, prepare,
 * the call, the credential); the page only shows what it answers. Requests must name this
 * server as their Host (no DNS rebinding) and carry the page's session key (no other page can
 * make this process call anything).
 *
 * @example
 * ```ts
 * const inspector = await startInspector({
 *   source: 'http://127.0.0.1:4000/rcp/manifest',
 *   port: 0,
 *   tokenEnv: 'NOTES_TOKEN',
 *   clientOptions: { credentials: () => process.env.NOTES_TOKEN },
 * });
 * console.log(inspector.url);
 * ```
 */
export async function startInspector(options: InspectorOptions): Promise<Inspector> {
  const session = randomBytes(18).toString('base64url');
  const api = inspectorApi(options);
  const server = createServer((req, res) => {
    handle(server, session, api, req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { error: errorOf(error, api.hasCredentials) });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${portOf(server, options.port)}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The API's clients: each request opens its own, with one signing key and one approval ledger for
 * them all, so a review made for the page's Send is honoured by the client of its Yes, and each
 * approval is good for one call — the client's own single-use rule, claimed in the shared ledger
 * (SPEC §19).
 */
function inspectorApi(options: InspectorOptions): InspectorApi {
  const { clientOptions } = options;
  const fixed = clientOptions.resolvers ?? {};
  const approvalOptions = {
    approval: clientOptions.approval ?? 'writes',
    approvalSecret: clientOptions.approvalSecret ?? randomBytes(32),
    approvalLedger: clientOptions.approvalLedger ?? createMemoryApprovalLedger(),
  } satisfies RcpClientOptions;
  return {
    source: options.source,
    tokenEnv: options.tokenEnv,
    hasCredentials: clientOptions.credentials !== undefined,
    open: (resolve) => {
      const resolvers: Record<string, RcpResolver<Record<string, string>>> = {};
      for (const [param, key] of Object.entries(resolve)) resolvers[param] = (ctx) => ctx[key];
      return openManifestSource(options.source, { ...clientOptions, ...approvalOptions, resolvers: { ...resolvers, ...fixed } });
    },
  };
}

function portOf(server: Server, fallback: number): number {
  const address = server.address();
  return typeof address === 'object' && address !== null ? address.port : fallback;
}

/** One request: this server's own Host only (no DNS rebinding), the page, and the API with the session key only. */
async function handle(server: Server, session: string, api: InspectorApi, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const port = portOf(server, 0);
  if (req.headers.host !== `127.0.0.1:${port}` && req.headers.host !== `localhost:${port}`) return send(res, 403, { error: 'wrong host' });
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
  if (!url.pathname.startsWith('/api/')) return sendPage(url.pathname, session, res);
  if (req.headers['x-rcp-session'] !== session) return send(res, 403, { error: 'no session' });
  let answer: ApiAnswer = { status: 404, body: { error: 'not found' } };
  if (req.method === 'GET' && url.pathname === '/api/manifest') answer = await manifestAnswer(api, url);
  else if (req.method === 'POST' && (url.pathname === '/api/prepare' || url.pathname === '/api/call'))
    answer = await callAnswer(api, req, url.pathname === '/api/call');
  send(res, answer.status, answer.body);
}
