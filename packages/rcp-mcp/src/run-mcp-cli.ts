/**
 * The `rcp-mcp <manifest-url>` command line: any RCP server's tools in any MCP host. stdio by default (one fixed
 * context per process), `--http` for stateless streamable HTTP. Logs go to stderr: stdout
 * belongs to the MCP protocol.
 */
import { createServer } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createRcpClient, isRcpError, terminalText, type RcpResolver } from 'rcp-client';
import { clientCredentialsFromEnv } from 'rcp-oauth';
import { createRcpMcpHttpHandler } from './http-gateway';
import { createRcpMcpGateway } from './mcp-server';
import { serveRcpMcpStdio } from './stdio-gateway';

const USAGE = `Usage: rcp-mcp <manifest-url> [options]

Serves an RCP manifest's tools as an MCP server.

  --ctx key=value        a trusted value: fills the param "key" (hidden from the model); repeatable
  --token-env NAME       the tools' credential, from environment variable NAME
  --oauth-env PREFIX     the tools' credential: OAuth 2 client credentials from PREFIX_TOKEN_ENDPOINT,
                         PREFIX_CLIENT_ID, PREFIX_CLIENT_SECRET (and PREFIX_SCOPE, PREFIX_RESOURCE,
                         PREFIX_ISSUER, PREFIX_CLIENT_AUTH): tokens fetched, cached and renewed (rcp-oauth)
  --only a,b             serve only these tools
  --http                 serve streamable HTTP instead of stdio (stateless)
  --port N               HTTP port (default 3000)
  --host NAME            HTTP bind address (default 127.0.0.1)
  --auth-token-env NAME  HTTP: the bearer token clients must send, from environment variable NAME (required)
  --allow-origin HOST    HTTP: a browser Origin host name to accept besides the gateway's own (localhost,
                         127.0.0.1, [::1], --host); repeatable. Other Origins are refused with 403
  --help                 this text
`;

class UsageError extends Error {}

function fail(program: string, message: string, code: number): never {
  process.stderr.write(`${program}: ${terminalText(message)}\n`);
  process.exit(code);
}

function parseContext(entries: readonly string[]): Record<string, string> {
  const ctx: Record<string, string> = {};
  for (const entry of entries) {
    const at = entry.indexOf('=');
    if (at <= 0) throw new UsageError(`--ctx takes key=value, got "${entry.slice(0, 40)}"`);
    ctx[entry.slice(0, at)] = entry.slice(at + 1);
  }
  return ctx;
}

function envValue(name: string | undefined, flag: string): string | undefined {
  if (name === undefined) return undefined;
  const value = process.env[name];
  if (value === undefined || value === '') throw new UsageError(`${flag} ${name}: the environment variable is not set`);
  return value;
}

/**
 * Runs the `rcp-mcp` command line (also `rcp mcp`): serves until the process ends. Usage errors
 * exit 2, everything else that fails exits 1, each with one line on stderr.
 *
 * @example
 * ```ts
 * await runMcpCli(['https://notes.example.com/rcp/manifest', '--ctx', 'userId=u-1']);
 * ```
 */
export async function runMcpCli(argv: string[], program = 'rcp-mcp'): Promise<void> {
  try {
    await main(argv, program);
  } catch (error) {
    if (error instanceof UsageError) fail(program, error.message, 2);
    if (isRcpError(error)) fail(program, `${error.code}: ${error.message}`, 1);
    if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) fail(program, error.message, 2);
    fail(program, error instanceof Error ? error.message : String(error), 1);
  }
}

async function main(argv: string[], program: string): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ctx: { type: 'string', multiple: true, default: [] },
      'token-env': { type: 'string' },
      'oauth-env': { type: 'string' },
      only: { type: 'string' },
      http: { type: 'boolean', default: false },
      port: { type: 'string', default: '3000' },
      host: { type: 'string', default: '127.0.0.1' },
      'auth-token-env': { type: 'string' },
      'allow-origin': { type: 'string', multiple: true, default: [] },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE.replaceAll('rcp-mcp', program));
    return;
  }
  if (positionals.length !== 1) throw new UsageError('give exactly one manifest URL (see --help)');
  const ctx = parseContext(values.ctx);
  const token = envValue(values['token-env'], '--token-env');
  const oauthEnv = values['oauth-env'];
  if (token !== undefined && oauthEnv !== undefined) throw new UsageError('give --token-env or --oauth-env, not both');
  const resolvers: Record<string, RcpResolver<Record<string, string>>> = {};
  for (const key of Object.keys(ctx)) resolvers[key] = (context) => context[key];
  const client = createRcpClient<Record<string, string>>({
    resolvers,
    ...(token !== undefined && { credentials: () => token }),
    // Secrets come from the environment only, never argv (where ps and shell history show them).
    ...(oauthEnv !== undefined && clientCredentialsFromEnv<Record<string, string>>(oauthEnv)),
  });
  const discovery = await client.discover(positionals[0]!);
  const only = values.only?.split(',').map((name) => name.trim()).filter(Boolean);
  const gateway = { client, source: discovery, ...(only !== undefined && { only }) };
  const { toolSet, warnings } = createRcpMcpGateway(gateway);
  for (const warning of [...discovery.warnings.map((w) => `${w.path}: ${w.message}`), ...warnings]) {
    // A manifest's text never drives the host's terminal or log: shown escaped, one line each.
    process.stderr.write(`${program}: warning: ${terminalText(warning)}\n`);
  }

  if (!values.http) {
    serveRcpMcpStdio({ ...gateway, source: toolSet }, ctx);
    process.stderr.write(`${program}: serving ${toolSet.names.length} tool(s) over stdio\n`);
    return;
  }
  const expected = envValue(values['auth-token-env'], '--auth-token-env');
  if (expected === undefined) throw new UsageError('--http needs --auth-token-env NAME: the bearer token clients must send');
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port takes a port number, got "${values.port}"`);
  const wanted = Buffer.from(`Bearer ${expected}`);
  const hosts = ['localhost', '127.0.0.1', '[::1]', values.host];
  const handler = createRcpMcpHttpHandler({
    ...gateway,
    source: toolSet,
    authenticate: (request) => {
      const given = Buffer.from(request.headers.authorization ?? '');
      return given.length === wanted.length && timingSafeEqual(given, wanted) ? ctx : undefined;
    },
    allowedHosts: hosts,
    allowedOrigins: [...hosts, ...values['allow-origin']],
  });
  const server = createServer((req, res) => void handler(req, res));
  server.listen(port, values.host, () => {
    const address = server.address();
    const bound = typeof address === 'object' && address !== null ? address.port : port;
    process.stderr.write(`${program}: serving ${toolSet.names.length} tool(s) at http://${values.host}:${bound}/mcp\n`);
  });
}
