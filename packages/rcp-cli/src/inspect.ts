import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  RcpApprovalMismatchError,
  approve,
  describeAuth,
  isRcpError,
  type RcpApproval,
  type RcpApprovalRequiredError,
  type RcpClient,
  type RcpClientOptions,
  type RcpClientTool,
  type RcpDiscovery,
  type RcpObservedResponse,
  type RcpResolver,
} from 'rcp-client';
import { describeFailure, openManifestSource } from 'rcp-mcp/command-line';

/** Where the built inspector page is (copied into dist/inspector by the build). */
const PAGE_DIR = fileURLToPath(new URL('./inspector/', import.meta.url));
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};
/** Characters of a tool response the page is shown (the client's own cap still applies to the call). */
const SHOWN_RESPONSE_CHARS = 64 * 1024;
const MAX_REQUEST_BYTES = 256 * 1024;
/**
 * On every response, page and API. The page is one module script, one stylesheet and fetches to
 * this server, all same-origin ('self'); its icon is `data:`. Nothing may frame it, post a form
 * from it, change its base URL or embed a plugin; no referrer leaves it; no type is sniffed.
 */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

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
   * changes data shows the exact request and asks first (SPEC §26).
   */
  readonly clientOptions: RcpClientOptions;
}

/** A running inspector. */
export interface Inspector {
  readonly url: string;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}

/** A failure as the page shows it: in the command line's words (the flags, the server's reason). */
function errorOf(error: unknown, credentials: boolean, tool?: RcpClientTool): { code: string; message: string } {
  const { code, message } = describeFailure(error, { credentials, ...(tool !== undefined && { tool }) });
  return { code: code ?? 'UNKNOWN_ERROR', message };
}

async function readJson(req: IncomingMessage): Promise<Json> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > MAX_REQUEST_BYTES) throw new Error('request too large');
    chunks.push(chunk);
  }
  const value = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('expected a JSON object');
  return value as Json;
}

function stringMap(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
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
  const { clientOptions } = options;
  const hasCredentials = clientOptions.credentials !== undefined;
  const fixed = clientOptions.resolvers ?? {};
  // Each API request opens its own client: one signing key for them all, so a review made for
  // the page's Send is honoured by the client of its Yes, and one record of the approvals used,
  // so each is good for one call (SPEC §26: a second use across clients is the host's to refuse).
  const approvalOptions = {
    approval: clientOptions.approval ?? 'writes',
    approvalSecret: clientOptions.approvalSecret ?? randomBytes(32),
  } satisfies RcpClientOptions;
  const usedApprovals = new Set<string>();
  const open = (resolve: Record<string, string>): Promise<{ client: RcpClient; discovery: RcpDiscovery }> => {
    const resolvers: Record<string, RcpResolver<Record<string, string>>> = {};
    for (const [param, key] of Object.entries(resolve)) resolvers[param] = (ctx) => ctx[key];
    return openManifestSource(options.source, { ...clientOptions, ...approvalOptions, resolvers: { ...resolvers, ...fixed } });
  };

  const page = async (path: string, res: ServerResponse): Promise<void> => {
    const file = normalize(join(PAGE_DIR, path === '/' ? 'index.html' : path.slice(1)));
    if (!file.startsWith(PAGE_DIR)) return send(res, 404, { error: 'not found' });
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch {
      return send(res, 404, { error: 'not found' });
    }
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    const body = file.endsWith('index.html') ? Buffer.from(bytes.toString('utf8').replace('%RCP_SESSION%', session)) : bytes;
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': type, 'cache-control': 'no-store' });
    res.end(body);
  };

  const server = createServer((req, res) => {
    void (async () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      if (req.headers.host !== `127.0.0.1:${port}` && req.headers.host !== `localhost:${port}`) return send(res, 403, { error: 'wrong host' });
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
      if (!url.pathname.startsWith('/api/')) return page(url.pathname, res);
      if (req.headers['x-rcp-session'] !== session) return send(res, 403, { error: 'no session' });
      if (req.method === 'GET' && url.pathname === '/api/manifest') {
        try {
          const resolve = Object.fromEntries(
            (url.searchParams.get('resolve') ?? '')
              .split(',')
              .map((entry) => entry.split('=').map((part) => part.trim()))
              .filter((entry): entry is [string, string] => entry.length === 2 && entry[0] !== '' && entry[1] !== ''),
          );
          const { discovery } = await open(resolve);
          return send(res, 200, {
            source: options.source,
            rcpVersion: discovery.manifest.rcpVersion,
            tools: discovery.tools.map((tool) => ({
              name: tool.name,
              description: tool.description,
              method: tool.method,
              url: tool.url,
              params: tool.params,
              inputSchema: tool.inputSchema,
              // What a login needs (RCP 0.3 OAuth hint) and what a call does (effects): shown, never acted on.
              auth: describeAuth(tool.auth),
              effects: tool.effects,
            })),
            warnings: discovery.warnings,
            token: { env: options.tokenEnv ?? null, set: hasCredentials },
          });
        } catch (error) {
          return send(res, 200, { error: errorOf(error, hasCredentials) });
        }
      }
      if (req.method === 'POST' && (url.pathname === '/api/prepare' || url.pathname === '/api/call')) {
        if (!String(req.headers['content-type']).startsWith('application/json')) return send(res, 415, { error: 'JSON only' });
        let body: Json;
        try {
          body = await readJson(req);
        } catch (error) {
          return send(res, 400, { error: errorOf(error, hasCredentials) });
        }
        const answer: Json = {};
        let tool: RcpClientTool | undefined;
        try {
          const { client, discovery } = await open(stringMap(body['resolve']));
          tool = discovery.tool(String(body['tool']));
          const ctx = stringMap(body['ctx']);
          answer['prepared'] = await client.prepare(tool, body['args'], ctx);
          if (url.pathname === '/api/call') {
            // The client's own transport and checks make the call; the page is shown the final
            // response as the client read it, the credential redacted by the client.
            const observeResponse = (response: RcpObservedResponse): void => {
              answer['response'] = {
                status: response.status,
                contentType: response.headers['content-type'] ?? '',
                text: response.body.slice(0, SHOWN_RESPONSE_CHARS),
              };
            };
            // The page's Yes carries the review it was shown: exactly that request, once, or nothing.
            let approval: RcpApproval | undefined;
            if (body['approval'] !== undefined) {
              approval = approve(body['approval'] as RcpApproval);
              if (usedApprovals.has(approval.id)) throw new RcpApprovalMismatchError(tool.name, 'the approval was already used');
              usedApprovals.add(approval.id);
            }
            const result = await client.execute(tool, body['args'], ctx, { observeResponse, ...(approval !== undefined && { approval }) });
            answer['result'] = { status: result.status, data: result.data };
          }
        } catch (error) {
          // A call that changes data: nothing was sent; the page shows the request and asks.
          if (isRcpError(error, 'RCP_APPROVAL_REQUIRED')) answer['approval'] = (error as RcpApprovalRequiredError).approval;
          else answer['error'] = errorOf(error, hasCredentials, tool);
        }
        return send(res, 200, answer);
      }
      return send(res, 404, { error: 'not found' });
    })().catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { error: errorOf(error, hasCredentials) });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
