/**
 * The `rcp-mcp <manifest>` command line (also `rcp mcp`): any RCP server's tools in any MCP host.
 * stdio by default (one fixed context per process), `--http` for stateless streamable HTTP. Logs
 * go to the run's stderr: its stdout belongs to the MCP protocol.
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { createToolSet, type RcpClientOptions, type RcpToolSet } from 'rcp-client';
import { terminalText } from 'rcp-internal';
import { createRcpMcpGateway, createRcpMcpHttpHandler, serveRcpMcpStdio, warningsNotice } from 'rcp-mcp';
import {
  BINDING_HELP,
  BINDING_OPTIONS,
  CREDENTIAL_OPTIONS,
  NETWORK_HELP,
  NETWORK_OPTIONS,
  RcpUsageError,
  bindingsOf,
  checkBindingNames,
  commandLineMessage,
  credentialsOf,
  isManifestUrl,
  isRcpUsageError,
  namingTheFlags,
  networkOf,
  openManifestSource,
  parseCommandLine,
  refuseUnboundIdentity,
  refuseUnreachableCredential,
  usageLine,
  type CommandLineBindings,
  type CommandLineOptions,
  type ParsedCommandLine,
} from './command-line';
import { SHARED_STATE_HELP, SHARED_STATE_OPTIONS, prepareSharedState, sharedStatePlan } from './mcp-shared-state';
import type { CliIo } from './run-cli';
import { stopped } from './stopped';

const usage = (program: string) => `Usage: ${program} <url|file> [options]

Serves an RCP manifest's tools as an MCP server. A manifest file is a local source (its tools may
call loopback and private addresses). It refuses to start while a param that looks like an identity
(userId, tenant_id ...) stays unbound: give its value with --ctx, or mark it --model-filled; and when
a credential is given that no served tool may receive (give their origin with --trusted-origin).
Warnings about the manifest go to stderr and into the server's MCP instructions, which hosts show,
one line per cause and origin.

${BINDING_HELP}  --token-env NAME        the tools' credential, from environment variable NAME
  --oauth-env PREFIX      the tools' credential: OAuth 2 client credentials from PREFIX_TOKEN_ENDPOINT,
                          PREFIX_CLIENT_ID, PREFIX_CLIENT_SECRET (and PREFIX_SCOPE, PREFIX_RESOURCE,
                          PREFIX_ISSUER, PREFIX_CLIENT_AUTH): tokens fetched, cached and renewed (rcp-oauth)
${NETWORK_HELP}  --only a,b              serve only these tools
  --dynamic               serve three tools instead of every tool: search_tools, describe_tool, call_tool
                          (and list_groups when the manifest groups its tools; for hosts without tool
                          search and manifests past their tool limit); a call through call_tool is
                          approved per tool, as a listed tool's call is
${SHARED_STATE_HELP}  --http                  serve streamable HTTP instead of stdio (stateless)
  --port N                HTTP port (default 3000)
  --host NAME             HTTP bind address (default 127.0.0.1)
  --auth-token-env NAME   HTTP: the bearer token clients must send, from environment variable NAME (required)
  --allow-origin HOST     HTTP: a browser Origin host name to accept besides the gateway's own (localhost,
                          127.0.0.1, [::1], --host); repeatable. Other Origins are refused with 403
  --help                  this text
`;

const OPTIONS = {
  ...BINDING_OPTIONS,
  ...CREDENTIAL_OPTIONS,
  ...NETWORK_OPTIONS,
  ...SHARED_STATE_OPTIONS,
  only: { type: 'string' },
  dynamic: { type: 'boolean', default: false },
  http: { type: 'boolean', default: false },
  port: { type: 'string', default: '3000' },
  host: { type: 'string', default: '127.0.0.1' },
  'auth-token-env': { type: 'string' },
  'allow-origin': { type: 'string', multiple: true, default: [] as string[] },
  help: { type: 'boolean', default: false },
} satisfies CommandLineOptions;

/**
 * Runs the gateway's command line (`rcp-mcp`, or `rcp mcp`: `program` names it in every line) on
 * the run's streams and environment, and resolves with its exit code when serving ends: stdio
 * serves until the host closes the run's stdin, `--http` until the run's signal aborts (without
 * one, SIGINT or SIGTERM). Usage errors are 2 with a line that points at `--help`, anything else
 * that fails is 1, each one line on stderr; nothing is served then.
 *
 * @example
 * ```ts
 * const code = await runMcpCommand(['https://notes.example.com/rcp/manifest', '--ctx', 'userId=u-1'], io, 'rcp-mcp');
 * ```
 */
export async function runMcpCommand(argv: readonly string[], io: CliIo, program: string): Promise<number> {
  const given = { credentials: false };
  try {
    return await serve(argv, io, program, given);
  } catch (error) {
    // Messages quote servers (a reason phrase, an excerpt): one line, nothing raw.
    const line = isRcpUsageError(error) ? usageLine(error) : commandLineMessage(error, given);
    io.stderr.write(`${program}: ${terminalText(line)}\n`);
    return isRcpUsageError(error) ? error.exitCode : 1;
  }
}

/** Serves until done; `state.credentials` says whether a credential flag was given (for the failure's wording). */
async function serve(argv: readonly string[], io: CliIo, program: string, state: { credentials: boolean }): Promise<number> {
  const { values, positionals } = parseCommandLine(program, argv, OPTIONS);
  if (values.help) {
    io.stdout.write(usage(program));
    return 0;
  }
  if (positionals.length !== 1) throw new RcpUsageError('give exactly one manifest URL or file', { command: program });
  const bindings = bindingsOf(values, program);
  if (bindings.withoutValue.length > 0) {
    const param = bindings.withoutValue[0]!;
    throw new RcpUsageError(`--resolve "${param}": the gateway has no value for it; give it with --ctx ${param}=VALUE`, { command: program });
  }
  const plan = sharedStatePlan(values, io.env, program);
  const shared = await prepareSharedState(plan, program, (line) => io.stderr.write(`${program}: warning: ${terminalText(line)}\n`));
  const credentialOptions = credentialsOf<Record<string, string>>(values, program, io.env, shared.tokenStore);
  state.credentials = credentialOptions.credentials !== undefined;
  // Every flag is checked above; from here on, the shared state (a Redis connection) is let go of however serving ends.
  await shared.connect();
  try {
    return await serveWith(values, positionals[0]!, bindings, { ...credentialOptions, ...shared.clientOptions }, io, program);
  } finally {
    await shared.close();
  }
}

/** Discovers the manifest with the gateway's client and serves it until done. */
async function serveWith(
  values: ParsedCommandLine<typeof OPTIONS>['values'],
  given: string,
  bindings: CommandLineBindings,
  clientOptions: RcpClientOptions<Record<string, string>>,
  io: CliIo,
  program: string,
): Promise<number> {
  const source = isManifestUrl(given) || io.cwd === undefined ? given : resolve(io.cwd, given);
  const { client, discovery } = await openManifestSource<Record<string, string>>(source, {
    resolvers: bindings.resolvers,
    modelFilledParams: bindings.modelFilledParams,
    // Its own refusals come after discovery, in the flags' words (refuseUnboundIdentity below).
    requireResolved: false,
    ...networkOf(values),
    ...clientOptions,
  });
  const only = values.only
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const served = { client, source: discovery, dynamic: values.dynamic, ...(only !== undefined && { only }) };
  // The tools the gateway will serve (the core's selection, as the gateway makes it), judged before any of its
  // work: a Stripe-sized gateway compiles hundreds of MCP schemas, for nothing when it refuses.
  const tools = createToolSet(discovery, only === undefined ? {} : { only }).entries.map((entry) => entry.tool);
  // A value that fills nothing, or an identity the host's model would choose: refused before serving.
  checkBindingNames(bindings, tools, program);
  refuseUnboundIdentity(tools, program);
  // A credential no served tool may receive: every call would fail, so nothing is served (issue 41).
  if (clientOptions.credentials !== undefined) refuseUnreachableCredential(tools, discovery.warnings, credentialFlag(values), program);
  const { toolSet, warnings } = createRcpMcpGateway(served);
  // The warnings in the flags' words, on stderr and in the instructions hosts show.
  const worded = warnings.map(namingTheFlags);
  const instructions = warningsNotice(worded);
  const gateway = { ...served, ...(instructions !== undefined && { instructions }) };
  for (const warning of worded) {
    // A manifest's text never drives the host's terminal or log: shown escaped, one line each.
    io.stderr.write(`${program}: warning: ${terminalText(warning)}\n`);
  }
  // The resolvers read nothing from the context: the --ctx values are in them.
  const ctx: Record<string, string> = {};

  if (!values.http) {
    const ended = new Promise<void>((done) => {
      io.stdin.once('end', done);
      io.stdin.once('close', done);
    });
    const handle = serveRcpMcpStdio(gateway, ctx, { stdin: io.stdin, stdout: io.stdout });
    io.stderr.write(`${program}: serving ${servedCount(toolSet, values.dynamic)} over stdio\n`);
    await Promise.race([ended, ...(io.signal === undefined ? [] : [stopped(io.signal)])]);
    await handle.close();
    return 0;
  }
  const authTokenEnv = values['auth-token-env'];
  if (authTokenEnv === undefined) throw new RcpUsageError('--http needs --auth-token-env NAME: the bearer token clients must send', { command: program });
  const expected = io.env[authTokenEnv];
  if (expected === undefined || expected === '')
    throw new RcpUsageError(`--auth-token-env ${authTokenEnv}: the environment variable is not set`, { command: program });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new RcpUsageError(`--port takes a port number, got "${values.port.slice(0, 20)}"`, { command: program });
  const wanted = Buffer.from(`Bearer ${expected}`);
  const hosts = ['localhost', '127.0.0.1', '[::1]', values.host];
  const handler = createRcpMcpHttpHandler({
    ...gateway,
    authenticate: (request) => {
      const given = Buffer.from(request.headers.authorization ?? '');
      return given.length === wanted.length && timingSafeEqual(given, wanted) ? ctx : undefined;
    },
    allowedHosts: hosts,
    allowedOrigins: [...hosts, ...values['allow-origin']],
  });
  const server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(port, values.host, () => listening());
  });
  const address = server.address();
  const bound = typeof address === 'object' && address !== null ? address.port : port;
  io.stderr.write(`${program}: serving ${servedCount(toolSet, values.dynamic)} at http://${values.host}:${bound}/mcp\n`);
  await stopped(io.signal);
  server.closeAllConnections();
  await new Promise((closed) => server.close(closed));
  return 0;
}

/** The flag that gave the credential, as the refusal names it. */
function credentialFlag(values: { readonly 'token-env'?: string | undefined; readonly 'oauth-env'?: string | undefined }): string {
  return values['token-env'] !== undefined ? `--token-env ${values['token-env']}` : `--oauth-env ${values['oauth-env'] ?? ''}`;
}

/**
 * What the start line says is served: `12 tool(s)`, or in dynamic mode `12 tool(s) through search_tools, describe_tool
 * and call_tool`, with `list_groups` too when the served tools have groups (the gateway serves it then).
 */
function servedCount(toolSet: RcpToolSet, dynamic: boolean): string {
  const count = toolSet.names.length;
  if (!dynamic) return `${count} tool(s)`;
  const grouped = toolSet.groups.length > 0;
  return `${count} tool(s) in ${grouped ? `${toolSet.groups.length} group(s) ` : ''}through search_tools, describe_tool${grouped ? ', call_tool and list_groups' : ' and call_tool'}`;
}
