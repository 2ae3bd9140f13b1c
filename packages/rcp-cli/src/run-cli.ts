import { writeFile, access, readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import pc from 'picocolors';
import { approve, describeManifest, isRcpError, type RcpApprovalRequiredError, type RcpApprovalRequest, type RcpClientOptions, type RcpResolver } from 'rcp-client';
import { createInterface } from 'node:readline/promises';
import { clientCredentialsFromEnv } from 'rcp-oauth';
import { safeParseManifest, type ManifestIssue } from 'rcp-manifest';
import { runMcpCli } from 'rcp-mcp';
import { formatSummary, fromOpenApi } from 'rcp-openapi';
import { discoverSource, isUrl, openSource, readManifestFile } from './load-manifest';
import { startInspector } from './inspect';
import { starterManifest } from './starter-manifest';
import { annotationMessage, annotationProperty, terminalJson, terminalLines, terminalStrings, terminalText } from 'rcp-client';
import { UsageError } from './usage-error';

/** The package version, printed by `--version`. */
export const VERSION = '0.1.0';

const HELP: Record<string, string> = {
  main: `rcp — look at an RCP server before wiring it into an agent

Usage: rcp <command> [options]

Commands
  describe <url|file>   what the server asks for: tools, params, which are hidden, warnings
  lint <url|file>       every problem with its JSON Pointer; exit 0 clean, 1 on errors, 2 on usage errors
  call <url|file> <tool> try a call (--dry-run: print the exact request, credential redacted)
  inspect <url|file>    the inspector page on 127.0.0.1: tools, hidden params, schemas, try a call
  from-openapi <file>   a manifest from an OpenAPI / Swagger document, and the import report
  init [file]           write a starter manifest that lints clean (default rcp-manifest.json)
  mcp <url>             serve the tools to MCP hosts over stdio (--http for streamable HTTP)

Options: --help (for each command), --version
`,
  describe: `Usage: rcp describe <url|file> [--resolve a,b] [--json] [--allow-private-network]

  --resolve a,b              params your client resolves (hidden from the model), to see the schema the model gets
  --json                     the manifest, the tools and the warnings as JSON
  --allow-private-network    let tools target private and loopback addresses the manifest's own address does
                             not cover (a manifest file counts as public); link-local stays refused
`,
  lint: `Usage: rcp lint <url|file> [--json] [--format github] [--allow-private-network]

Exit code 0 when there is no error (warnings allowed), 1 on errors, 2 on usage errors.
  --json                     { ok, errors: [{ path, message }], warnings: [...] }
  --format github            GitHub Actions workflow annotations (::error / ::warning)
  --allow-private-network    a manifest URL's tools may target private and loopback addresses (see rcp describe
                             --help); a file is linted without discovery, so it has no such warnings
`,
  call: `Usage: rcp call <url|file> <tool> [options]

  --arg key=value         an argument (repeatable); a value that is a JSON number, boolean or null is that
  --args JSON             the arguments object (--arg entries are added to it)
  --ctx key=value         a trusted value in the call's context (repeatable)
  --resolve param=ctxKey  a resolver: fill param from ctx[ctxKey] (repeatable; hidden from the model)
  --token-env NAME        the credential, from environment variable NAME (sent only to trusted origins)
  --oauth-env PREFIX      the credential: OAuth 2 client credentials from PREFIX_TOKEN_ENDPOINT, PREFIX_CLIENT_ID,
                          PREFIX_CLIENT_SECRET (and PREFIX_SCOPE, PREFIX_RESOURCE, PREFIX_ISSUER, PREFIX_CLIENT_AUTH)
  --dry-run               print the request prepare() builds (credential redacted); send nothing
  --yes                   send a call that changes data without asking (a write is shown and confirmed on a
                          terminal first; without a terminal it is refused unless --yes is given)
  --allow-private-network let tools target private and loopback addresses the manifest's own address does
                          not cover (a manifest file counts as public); link-local stays refused
`,
  inspect: `Usage: rcp inspect <url|file> [--port N] [--token-env NAME] [--allow-private-network]

Starts the inspector page on 127.0.0.1 and prints its URL; Ctrl-C stops it. The page shows the tools, the
params the model sees and the hidden ones, the warnings and each model-facing schema, and tries calls:
the request is shown (credential redacted) before anything is sent. Calls run in this process.
  --port N          the port (default: any free one)
  --token-env NAME  the credential, from environment variable NAME (kept here, never sent to the page)
  --oauth-env PREFIX  OAuth 2 client credentials from PREFIX_* variables (see rcp call --help); the tokens
                    stay here, never sent to the page
  --allow-private-network  let tools target private and loopback addresses the manifest's own address does
                    not cover (a manifest file counts as public); link-local stays refused
`,
  'from-openapi': `Usage: rcp from-openapi <file> [-o manifest.json] [--base-url URL] [--include …] [--exclude …] [--resolve a,b] [--json]

Writes the manifest (to stdout without -o) and prints the report's summary (to stderr with -o omitted).
  -o, --output FILE   write the manifest to FILE
  --base-url URL      the API's base URL instead of the document's servers / host
  --include SEL       only operations matching: tag:NAME, op:OPERATION_ID or a path pattern (/pets/*, /admin/**); repeatable
  --exclude SEL       leave out operations matching, the same forms; repeatable
  --resolve a,b       params your client fills with resolvers (kept, described so, never in a tool description)
  --json              print the whole report as JSON instead of the summary
`,
  init: `Usage: rcp init [file] [--force]

Writes the learner example manifest (default rcp-manifest.json); --force overwrites an existing file.
`,
};

interface Output {
  out(text: string): void;
  err(text: string): void;
  color: boolean;
}

function pairs(entries: readonly string[], flag: string): [string, string][] {
  return entries.map((entry) => {
    const at = entry.indexOf('=');
    if (at <= 0) throw new UsageError(`${flag} takes key=value, got ${JSON.stringify(entry.slice(0, 40))}`);
    return [entry.slice(0, at), entry.slice(at + 1)];
  });
}

/** The flag every command that discovers or calls takes. */
const PRIVATE_NETWORK_FLAG = { 'allow-private-network': { type: 'boolean', default: false } } as const;

/** Client options from `--allow-private-network`. */
function networkOptions(values: { 'allow-private-network': boolean }): { allowPrivateNetwork?: true } {
  return values['allow-private-network'] ? { allowPrivateNetwork: true } : {};
}

/**
 * A refusal by the private-network boundary names the client option; on the command line the
 * flag is what lifts it.
 */
function namingTheFlag(message: string): string {
  return message.replace(`unless the client's "allowPrivateNetwork" allows it`, 'unless --allow-private-network allows it');
}

/** `--arg` values: a JSON number, boolean or null stands for itself; anything else is a string. */
function argValue(text: string): unknown {
  if (/^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)$/.test(text)) return JSON.parse(text);
  return text;
}

async function describeCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { resolve: { type: 'string' }, json: { type: 'boolean', default: false }, help: { type: 'boolean' }, ...PRIVATE_NETWORK_FLAG },
  });
  if (values.help) return help('describe', io);
  if (positionals.length !== 1) throw new UsageError('describe takes one <url|file> (see rcp describe --help)');
  const resolved = (values.resolve ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  const resolvers: Record<string, RcpResolver> = {};
  for (const name of resolved) resolvers[name] = () => undefined;
  const discovery = await discoverSource(positionals[0]!, { resolvers, ...networkOptions(values) });
  if (values.json) {
    io.out(terminalJson({ manifestUrl: discovery.manifestUrl, manifest: discovery.manifest, tools: discovery.tools, warnings: discovery.warnings }));
    return 0;
  }
  // describeManifest blanks control characters in what it quotes; io's net escapes the rest.
  io.out(describeManifest(discovery.manifest, discovery.tools));
  for (const warning of discovery.warnings) {
    io.err(`${paint(io, 'yellow', 'warning')} ${terminalText(warning.path)}: ${terminalText(namingTheFlag(warning.message))}`);
  }
  return 0;
}

async function lintCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, format: { type: 'string' }, help: { type: 'boolean' }, ...PRIVATE_NETWORK_FLAG },
  });
  if (values.help) return help('lint', io);
  if (positionals.length !== 1) throw new UsageError('lint takes one <url|file> (see rcp lint --help)');
  if (values.format !== undefined && values.format !== 'github') throw new UsageError(`--format takes "github", got ${JSON.stringify(values.format)}`);
  const source = positionals[0]!;
  let errors: readonly ManifestIssue[] = [];
  let warnings: readonly ManifestIssue[] = [];
  if (isUrl(source)) {
    try {
      warnings = (await discoverSource(source, networkOptions(values))).warnings;
    } catch (error) {
      if (!isRcpError(error, 'RCP_INVALID_MANIFEST')) throw error;
      errors = error.issues;
    }
  } else {
    const parsed = safeParseManifest(await readManifestFile(source));
    warnings = parsed.warnings;
    if (!parsed.ok) {
      if (isRcpError(parsed.error, 'RCP_INVALID_MANIFEST')) errors = parsed.error.issues;
      else throw parsed.error;
    }
  }
  if (values.json) {
    io.out(terminalJson({ ok: errors.length === 0, errors, warnings }));
  } else if (values.format === 'github') {
    // Field names reach the pointers: every property and message escaped as @actions/core does.
    const file = isUrl(source) ? '' : `file=${annotationProperty(source)},`;
    const annotate = (kind: string, issue: ManifestIssue) =>
      io.out(`::${kind} ${file}title=${annotationProperty(`RCP manifest ${issue.path || '(root)'}`)}::${annotationMessage(namingTheFlag(issue.message))}`);
    for (const issue of errors) annotate('error', issue);
    for (const issue of warnings) annotate('warning', issue);
  } else {
    const show = (issue: ManifestIssue) => `${terminalText(issue.path || '(root)')}  ${terminalText(namingTheFlag(issue.message))}`;
    for (const issue of errors) io.out(`${paint(io, 'red', 'error  ')} ${show(issue)}`);
    for (const issue of warnings) io.out(`${paint(io, 'yellow', 'warning')} ${show(issue)}`);
    const summary = `${terminalText(source)}: ${errors.length} error(s), ${warnings.length} warning(s)`;
    io.out(errors.length === 0 ? paint(io, 'green', `✓ ${summary}`) : paint(io, 'red', `✗ ${summary}`));
  }
  return errors.length === 0 ? 0 : 1;
}

/**
 * The client's credential options from `--token-env NAME` (a static credential) or
 * `--oauth-env PREFIX` (OAuth 2 client credentials, rcp-oauth): both from the environment, never
 * argv. One provider per process, so its token cache serves every call.
 */
function credentialOptions(tokenEnv: string | undefined, oauthEnv: string | undefined): Pick<RcpClientOptions, 'credentials' | 'onUnauthorized'> {
  if (tokenEnv !== undefined && oauthEnv !== undefined) throw new UsageError('give --token-env or --oauth-env, not both');
  if (oauthEnv !== undefined) return clientCredentialsFromEnv(oauthEnv);
  if (tokenEnv === undefined) return {};
  const token = process.env[tokenEnv];
  if (!token) throw new UsageError(`--token-env ${tokenEnv}: the environment variable is not set`);
  return { credentials: () => token };
}

async function callCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      arg: { type: 'string', multiple: true, default: [] },
      args: { type: 'string' },
      ctx: { type: 'string', multiple: true, default: [] },
      resolve: { type: 'string', multiple: true, default: [] },
      'token-env': { type: 'string' },
      'oauth-env': { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      yes: { type: 'boolean', default: false },
      help: { type: 'boolean' },
      ...PRIVATE_NETWORK_FLAG,
    },
  });
  if (values.help) return help('call', io);
  if (positionals.length !== 2) throw new UsageError('call takes <url|file> <tool> (see rcp call --help)');
  const [source, name] = positionals as [string, string];
  let args: Record<string, unknown> = {};
  if (values.args !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(values.args);
    } catch {
      throw new UsageError('--args must be a JSON object');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError('--args must be a JSON object');
    args = parsed as Record<string, unknown>;
  }
  for (const [key, value] of pairs(values.arg, '--arg')) args[key] = argValue(value);
  const ctx = Object.fromEntries(pairs(values.ctx, '--ctx'));
  const resolvers: Record<string, RcpResolver<Record<string, string>>> = {};
  for (const [param, key] of pairs(values.resolve, '--resolve')) resolvers[param] = (context) => context[key];
  const { client, discovery } = await openSource(source, {
    resolvers,
    ...credentialOptions(values['token-env'], values['oauth-env']),
    ...networkOptions(values),
    // A call that changes data is shown and confirmed before anything is sent (SPEC §26).
    approval: 'writes',
  });
  const tool = discovery.tool(name); // RCP_UNKNOWN_TOOL names the available tools
  if (values['dry-run']) {
    io.out(terminalJson(await client.prepare(tool, args, ctx)));
    return 0;
  }
  let outcome = await client.call(discovery, { name, arguments: args }, ctx);
  if (!outcome.ok && isRcpError(outcome.error, 'RCP_APPROVAL_REQUIRED')) {
    const review = (outcome.error as RcpApprovalRequiredError).approval;
    if (!values.yes && !(await confirm(review, io))) {
      throw new UsageError(
        process.stdin.isTTY === true
          ? 'not sent: the call was not confirmed'
          : `${name} changes data and there is no terminal to confirm it: nothing was sent (pass --yes to send it)`,
        1,
      );
    }
    // Exactly the reviewed request, or nothing (RCP_APPROVAL_MISMATCH).
    outcome = await client.call(discovery, { name, arguments: args }, ctx, { approval: approve(review) });
  }
  if (!outcome.ok) throw outcome.error;
  io.out(terminalJson({ status: outcome.result.status, data: outcome.result.data }));
  return 0;
}

/**
 * Shows the request a call that changes data will send (resolver values in, the credential
 * redacted) on stderr and asks on the terminal; false without one (nothing is sent then).
 */
async function confirm(review: RcpApprovalRequest, io: Output): Promise<boolean> {
  if (process.stdin.isTTY !== true) return false;
  io.err(`${review.tool} needs your approval: ${review.reason ?? 'the approval policy asks for it'}. It will send:`);
  io.err(terminalJson(review.request));
  const lines = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await lines.question('Send it? [y/N] ');
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    lines.close();
  }
}

/** `tag:x`, `op:x` or a path pattern, as an operation filter. */
function filterOf(selectors: readonly string[] | undefined): { tags: string[]; operationIds: string[]; paths: string[] } | undefined {
  if (selectors === undefined || selectors.length === 0) return undefined;
  const filter = { tags: [] as string[], operationIds: [] as string[], paths: [] as string[] };
  for (const selector of selectors) {
    if (selector.startsWith('tag:')) filter.tags.push(selector.slice(4));
    else if (selector.startsWith('op:')) filter.operationIds.push(selector.slice(3));
    else if (selector.startsWith('/')) filter.paths.push(selector);
    else throw new UsageError(`--include / --exclude take tag:NAME, op:OPERATION_ID or a path starting with "/", got ${JSON.stringify(selector.slice(0, 40))}`);
  }
  return filter;
}

async function fromOpenApiCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      output: { type: 'string', short: 'o' },
      'base-url': { type: 'string' },
      include: { type: 'string', multiple: true },
      exclude: { type: 'string', multiple: true },
      resolve: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return help('from-openapi', io);
  if (positionals.length !== 1) throw new UsageError('from-openapi takes one document file (see rcp from-openapi --help)');
  const file = positionals[0]!;
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read ${file} (${error.code ?? 'error'})`, 1);
  });
  const include = filterOf(values.include);
  const exclude = filterOf(values.exclude);
  const { manifest, report } = await fromOpenApi(text, {
    ...(values['base-url'] !== undefined && { baseUrl: values['base-url'] }),
    ...(include !== undefined && { include }),
    ...(exclude !== undefined && { exclude }),
    ...(values.resolve !== undefined && { resolve: values.resolve.split(',').map((name) => name.trim()).filter(Boolean) }),
  });
  // The document's text (titles, names) reaches the report: its strings are made safe before
  // formatSummary lays them out in lines.
  const json = `${terminalJson(manifest)}\n`;
  const summary = values.json ? terminalJson(report) : formatSummary(terminalStrings(report));
  if (values.output !== undefined) {
    await writeFile(values.output, json);
    io.out(summary);
    io.out(`wrote ${terminalText(values.output)} (${manifest.tools.length} tools, RCP ${manifest.rcpVersion}) — check it with: rcp lint ${terminalText(values.output)}`);
  } else {
    process.stdout.write(json); // terminalJson: nothing raw
    io.err(summary);
  }
  return 0;
}

async function inspectCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string', default: '0' },
      'token-env': { type: 'string' },
      'oauth-env': { type: 'string' },
      help: { type: 'boolean' },
      ...PRIVATE_NETWORK_FLAG,
    },
  });
  if (values.help) return help('inspect', io);
  if (positionals.length !== 1) throw new UsageError('inspect takes one manifest URL or file (see rcp inspect --help)');
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError('--port must be a port number');
  // Fail on a bad source before the page starts.
  await openSource(positionals[0]!, networkOptions(values));
  const inspector = await startInspector({
    source: positionals[0]!,
    port,
    tokenEnv: values['token-env'],
    credentials: credentialOptions(values['token-env'], values['oauth-env']),
    allowPrivateNetwork: values['allow-private-network'],
  });
  io.out(`RCP inspector: ${inspector.url}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await inspector.close();
  return 0;
}

async function initCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { force: { type: 'boolean', default: false }, help: { type: 'boolean' } },
  });
  if (values.help) return help('init', io);
  if (positionals.length > 1) throw new UsageError('init takes at most one file name');
  const file = positionals[0] ?? 'rcp-manifest.json';
  const exists = await access(file).then(
    () => true,
    () => false,
  );
  if (exists && !values.force) throw new UsageError(`${file} exists; pass --force to overwrite it`, 1);
  await writeFile(file, `${JSON.stringify(starterManifest, null, 2)}\n`);
  io.out(`wrote ${file} — check it with: rcp lint ${file}`);
  return 0;
}

function help(command: string, io: Output): number {
  io.out(HELP[command]!.trimEnd());
  return 0;
}

function paint(io: Output, color: 'red' | 'green' | 'yellow', text: string): string {
  return io.color ? pc[color](text) : text;
}

/**
 * Runs the `rcp` command line and returns its exit code: 0 success, 1 a failure (printed as one
 * line with its error code, never a stack trace), 2 a usage error. Colours only on a TTY, and
 * never with `NO_COLOR`.
 *
 * @example
 * ```ts
 * process.exitCode = await runCli(['lint', 'rcp-manifest.json']);
 * ```
 */
export async function runCli(argv: readonly string[]): Promise<number> {
  const io: Output = {
    // The last net: whatever a command prints, no control character reaches the terminal raw.
    out: (text) => process.stdout.write(`${terminalLines(text)}\n`),
    err: (text) => process.stderr.write(`${terminalLines(text)}\n`),
    color: process.stdout.isTTY === true && !('NO_COLOR' in process.env),
  };
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        return help('main', io);
      case '--version':
      case '-v':
        io.out(VERSION);
        return 0;
      case 'describe':
        return await describeCommand(rest, io);
      case 'lint':
        return await lintCommand(rest, io);
      case 'call':
        return await callCommand(rest, io);
      case 'init':
        return await initCommand(rest, io);
      case 'inspect':
        return await inspectCommand(rest, io);
      case 'from-openapi':
        return await fromOpenApiCommand(rest, io);
      case 'mcp':
        await runMcpCli(rest, 'rcp mcp');
        return 0;
      default:
        throw new UsageError(`unknown command ${JSON.stringify(command.slice(0, 40))} (see rcp --help)`);
    }
  } catch (error) {
    // Error messages quote servers (a reason phrase, an excerpt): one line, nothing raw.
    const line = (message: string) => io.err(`rcp: ${terminalText(namingTheFlag(message))}`);
    if (error instanceof UsageError) {
      line(error.message);
      return error.exitCode;
    }
    if (isRcpError(error)) {
      line(`${error.code}: ${error.message}`);
      return 1;
    }
    if (error instanceof TypeError && String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS')) {
      line(error.message);
      return 2;
    }
    line(error instanceof Error ? error.message : String(error));
    return 1;
  }
}
