import { writeFile, access, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import pc from 'picocolors';
import {
  approve,
  describeAuth,
  describeManifest,
  isRcpError,
  type RcpApprovalRequiredError,
  type RcpApprovalRequest,
  type RcpClientOptions,
  type RcpClientTool,
  type RcpDiscoveryWarning,
} from 'rcp-client';
import { annotationMessage, annotationProperty, groupToolWarnings, terminalJson, terminalLines, terminalStrings, terminalText } from 'rcp-internal';
import { readArguments, safeParseManifest, type ManifestIssue, type RcpManifest } from 'rcp-manifest';
import { kindOf } from 'rcp-internal';
import { isRecord } from 'rcp-internal';
import {
  BINDING_HELP,
  BINDING_OPTIONS,
  CREDENTIAL_OPTIONS,
  credentialsOf,
  NETWORK_HELP,
  NETWORK_OPTIONS,
  RcpUsageError,
  isRcpUsageError,
  bindingsOf,
  checkBindingNames,
  commandLineMessage,
  isManifestUrl,
  namingTheFlags,
  networkOf,
  openManifestSource,
  parseCommandLine,
  readManifestFile,
  unboundIdentityParams,
  usageLine,
  type CommandLineBindings,
} from './command-line';
import { startInspector } from './inspect';
import { runMcpCommand } from './mcp-command';
import type { CliIo } from './run-cli';
import { starterManifest } from './starter-manifest';
import { stopped } from './stopped';

const CREDENTIAL_HELP = `  --token-env NAME        the credential, from environment variable NAME (sent only to trusted origins)
  --oauth-env PREFIX      the credential: OAuth 2 client credentials from PREFIX_TOKEN_ENDPOINT, PREFIX_CLIENT_ID,
                          PREFIX_CLIENT_SECRET (and PREFIX_SCOPE, PREFIX_RESOURCE, PREFIX_ISSUER, PREFIX_CLIENT_AUTH)
`;

const HELP: Record<string, string> = {
  describe: `Usage: rcp describe <url|file> [options]

What the server asks for: each tool and its params, which are hidden from the model, and the warnings (on stderr).
  --json                  the manifest, the tools (with the schema the model gets) and the warnings as JSON
${BINDING_HELP}${NETWORK_HELP}`,
  lint: `Usage: rcp lint <url|file> [options]

Every problem with its JSON Pointer, then the warnings — the same for a URL and for a file of the same manifest;
a warning many tools share (an untrusted origin) is one line naming how many, the first few and the fix.
Exit code 0 when there is no error (warnings allowed), 1 on errors, 2 on usage errors.
  --json                  { ok, errors: [{ path, message }], warnings: [...] } (every warning, not grouped)
  --format github         GitHub Actions workflow annotations (::error / ::warning)
${BINDING_HELP}${NETWORK_HELP}`,
  call: `Usage: rcp call <url|file> <tool> [options]

  --arg key=value         an argument (repeatable): as written for a string param; a number, boolean, object
                          or array param takes JSON (--arg limit=5, --arg tags='["a"]')
  --args JSON             the arguments object (--arg entries are added to it)
${BINDING_HELP}${CREDENTIAL_HELP}  --dry-run               print the request prepare() builds (credential redacted); send nothing
  --yes                   send a call that changes data without asking (a write is shown and confirmed on a
                          terminal first; without a terminal it is refused unless --yes is given)
${NETWORK_HELP}`,
  inspect: `Usage: rcp inspect <url|file> [options]

Starts the inspector page on 127.0.0.1 and prints its URL; Ctrl-C stops it. The page shows the tools, the
params the model sees and the hidden ones, the warnings and each model-facing schema, and tries calls:
the request is shown (credential redacted) before anything is sent. Calls run in this process.
  --port N                the port (default: any free one)
${BINDING_HELP}                          (--ctx values stay in this process; the page can bind more params)
${CREDENTIAL_HELP}                          (the credential stays in this process, never sent to the page)
${NETWORK_HELP}`,
  'from-openapi': `Usage: rcp from-openapi <file> [-o manifest.json] [--base-url URL] [--include …] [--exclude …] [--include-deprecated] [--resolve a,b] [--json]

Writes the manifest (to stdout without -o) and prints the report's summary (on stderr without -o).
  -o, --output FILE   write the manifest to FILE
  --base-url URL      the API's base URL instead of the document's servers / host
  --include SEL       only operations matching: tag:NAME, op:OPERATION_ID or a path pattern (/pets/*, /admin/**); repeatable
  --exclude SEL       leave out operations matching, the same forms; repeatable
  --include-deprecated  import operations the document marks deprecated (left out by default, counted in the report)
  --resolve a,b       params your client fills (kept, described so, never in a tool description); repeatable
  --json              JSON on stdout: the report (with -o), or { manifest, report } (without -o)
`,
  init: `Usage: rcp init [file] [--force]

Writes the learner example manifest (default rcp-manifest.json); --force overwrites an existing file.
It lints clean once its learnerId is resolved: rcp lint rcp-manifest.json --resolve learnerId
`,
};

/** What a line shows of an error or a warning (a grouped warning too). */
interface PointedIssue {
  readonly path: string;
  readonly message: string;
}

/** A part of a line in a colour (painted only when the run paints: see `runCli`). */
interface Painted {
  readonly color: 'red' | 'green' | 'yellow';
  readonly text: string;
}

/** One run's streams, with the last net on every line, and its file names resolved. */
interface Output extends CliIo {
  /** One line (or several joined with LF) on stdout, from its parts. */
  out(...parts: (string | Painted)[]): void;
  err(...parts: (string | Painted)[]): void;
  /** A file name as given, read and written against the run's folder. */
  file(name: string): string;
}

/** A manifest source as given: a URL as it is, a file against the run's folder. */
const sourceAt = (io: Output, source: string): string => (isManifestUrl(source) ? source : io.file(source));

/** What a failure's line may name: whether a credential flag was given, the tool being called. */
interface FailureContext {
  credentials: boolean;
  tool?: RcpClientTool;
}

const shown = (text: string): string => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);

/** `--arg key=value` entries, the values read as the tool's declared param types. */
function argEntries(entries: readonly string[], tool: RcpClientTool): [string, unknown][] {
  return entries.map((entry) => {
    const at = entry.indexOf('=');
    if (at <= 0) throw new RcpUsageError(`--arg takes key=value, got ${shown(entry)}`, { command: 'rcp call' });
    const key = entry.slice(0, at);
    return [key, argValue(entry.slice(at + 1), tool.params.find((param) => param.name === key)?.type)];
  });
}

/**
 * An `--arg` value: a string param takes the text as written; any other type (and a key that is no
 * param, which validation then names) takes it as JSON when it is JSON, else as written.
 */
function argValue(text: string, type: string | undefined): unknown {
  if (type === 'string') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** `--args JSON`: an object, or a usage error saying what is wrong (not JSON, and where; or not an object). */
function argsObject(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  // The one rule for arguments given as JSON text (rcp-manifest's readArguments): blank is {}.
  const read = readArguments(text);
  if (!read.ok) throw new RcpUsageError(`--args is not valid JSON: ${(read.cause as Error).message}`, { command: 'rcp call' });
  if (!isRecord(read.value)) {
    throw new RcpUsageError(`--args must be a JSON object ({"key": value}), got ${kindOf(read.value)}`, { command: 'rcp call' });
  }
  return read.value;
}

/**
 * Client options from the binding flags. The command line makes its own binding checks after
 * discovery, worded with its flags (a name that fills nothing is a usage error; `rcp mcp`
 * refuses an unbound identity; `describe`/`lint` warn), so the client's discovery refusal is off.
 */
function bindingOptions(bindings: CommandLineBindings): Pick<RcpClientOptions, 'resolvers' | 'modelFilledParams' | 'requireResolved'> {
  return { resolvers: bindings.resolvers, modelFilledParams: bindings.modelFilledParams, requireResolved: false };
}

/**
 * Discovery warnings without the identity warning of a param the manifest says the client fills
 * (RCP 0.4 `filledBy: "client"`, SPEC §20.2; rcp-server's bound params): describe and lint judge
 * the manifest, which is right to expect a resolver there. The client's own checks are unchanged.
 */
function withoutClientFilled<Warning extends { readonly path: string }>(warnings: readonly Warning[], manifest: RcpManifest): Warning[] {
  return warnings.filter((warning) => {
    const at = /^\/tools\/(\d+)\/params\/(\d+)$/.exec(warning.path);
    return at === null || manifest.tools[Number(at[1])]?.params?.[Number(at[2])]?.filledBy !== 'client';
  });
}

/**
 * Discovery warnings on stderr, the client's option names in the flags' words, one line per cause
 * and origin (the gateway's grouping: 447 untrusted tools are one line naming the fix).
 */
function printWarnings(io: Output, warnings: readonly RcpDiscoveryWarning[], tools: readonly RcpClientTool[]): void {
  for (const warning of groupToolWarnings(warnings)) {
    io.err(paint('yellow', 'warning'), ` ${terminalText(warning.path)}: ${terminalText(namingTheFlags(warning.message))}`);
  }
  for (const { param } of unboundIdentityParams(tools)) {
    io.err(
      `hint: bind "${terminalText(param)}" with --ctx ${terminalText(param)}=VALUE (or --resolve ${terminalText(param)}), or pass --model-filled ${terminalText(param)} if the model may choose it`,
    );
  }
}

async function describeCommand(argv: string[], io: Output): Promise<number> {
  const command = 'rcp describe';
  const { values, positionals } = parseCommandLine(command, argv, {
    json: { type: 'boolean', default: false },
    help: { type: 'boolean' },
    ...BINDING_OPTIONS,
    ...NETWORK_OPTIONS,
  });
  if (values.help) return help('describe', io);
  if (positionals.length !== 1) throw new RcpUsageError('describe takes one <url|file>', { command });
  const bindings = bindingsOf(values, command);
  const { discovery } = await openManifestSource(sourceAt(io, positionals[0]!), { ...bindingOptions(bindings), ...networkOf(values) });
  checkBindingNames(bindings, discovery.tools, command);
  if (values.json) {
    const warnings = withoutClientFilled(discovery.warnings, discovery.manifest);
    io.out(terminalJson({ manifestUrl: discovery.manifestUrl, manifest: discovery.manifest, tools: discovery.tools, warnings }));
    return 0;
  }
  // describeManifest blanks control characters in what it quotes; io's net escapes the rest.
  io.out(describeManifest(discovery.manifest, discovery.tools));
  printWarnings(io, withoutClientFilled(discovery.warnings, discovery.manifest), discovery.tools);
  return 0;
}

/**
 * A manifest's errors and warnings, one way for a URL and a file: the client's discovery (a
 * file loaded as a local source), so both get the same warnings — the manifest's own and its
 * tools' (trust, the private-network boundary, identity params). A file that does not parse
 * also keeps the manifest's own warnings (rcp-manifest's parse); a binding problem the flags
 * cause is an error at its param's pointer.
 */
async function lintSource(
  io: Output,
  given: string,
  options: RcpClientOptions,
  bindings: CommandLineBindings,
): Promise<{ errors: readonly ManifestIssue[]; warnings: readonly ManifestIssue[]; tools: readonly RcpClientTool[] }> {
  const source = sourceAt(io, given);
  let text: string | undefined;
  if (!isManifestUrl(source)) {
    text = await readManifestFile(source);
    const parsed = safeParseManifest(text);
    if (!parsed.ok) {
      if (isRcpError(parsed.error, 'RCP_INVALID_MANIFEST')) return { errors: parsed.error.issues, warnings: parsed.warnings, tools: [] };
      throw parsed.error;
    }
  }
  try {
    const { discovery } = await openManifestSource(source, options, text);
    checkBindingNames(bindings, discovery.tools, 'rcp lint');
    return { errors: [], warnings: withoutClientFilled(discovery.warnings, discovery.manifest), tools: discovery.tools };
  } catch (error) {
    if (isRcpError(error, 'RCP_INVALID_MANIFEST')) return { errors: error.issues ?? [{ path: '', message: error.message }], warnings: [], tools: [] };
    if (isRcpError(error, 'RCP_RESOLVER_MISMATCH') || isRcpError(error, 'RCP_UNBOUND_PARAM')) {
      const message = commandLineMessage(error, { credentials: false }).slice(error.code.length + 2);
      return { errors: [{ path: error.path, message }], warnings: [], tools: [] };
    }
    throw error;
  }
}

async function lintCommand(argv: string[], io: Output): Promise<number> {
  const command = 'rcp lint';
  const { values, positionals } = parseCommandLine(command, argv, {
    json: { type: 'boolean', default: false },
    format: { type: 'string' },
    help: { type: 'boolean' },
    ...BINDING_OPTIONS,
    ...NETWORK_OPTIONS,
  });
  if (values.help) return help('lint', io);
  if (positionals.length !== 1) throw new RcpUsageError('lint takes one <url|file>', { command });
  if (values.format !== undefined && values.format !== 'github') throw new RcpUsageError(`--format takes "github", got ${shown(values.format)}`, { command });
  const source = positionals[0]!;
  const bindings = bindingsOf(values, command);
  const { errors, warnings, tools } = await lintSource(io, source, { ...bindingOptions(bindings), ...networkOf(values) }, bindings);
  // What an OAuth login needs, by the manifest's hints (RCP 0.3, SPEC §18.2): shown, never fetched.
  const logins = [...new Set(tools.flatMap((tool) => (tool.auth.type === 'header' && tool.auth.oauth !== undefined ? [describeAuth(tool.auth)] : [])))];
  if (values.json) {
    io.out(terminalJson({ ok: errors.length === 0, errors, warnings, ...(logins.length > 0 && { logins }) }));
  } else if (values.format === 'github') {
    // Field names reach the pointers: every property and message escaped as @actions/core does.
    const file = isManifestUrl(source) ? '' : `file=${annotationProperty(source)},`;
    const annotate = (kind: string, issue: PointedIssue) =>
      io.out(`::${kind} ${file}title=${annotationProperty(`RCP manifest ${issue.path || '(root)'}`)}::${annotationMessage(namingTheFlags(issue.message))}`);
    for (const issue of errors) annotate('error', issue);
    // One annotation per cause and origin, as the text says it (--json keeps every warning).
    for (const issue of groupToolWarnings(warnings)) annotate('warning', issue);
  } else {
    const show = (issue: PointedIssue) => `${terminalText(issue.path || '(root)')}  ${terminalText(namingTheFlags(issue.message))}`;
    for (const issue of errors) io.out(paint('red', 'error  '), ` ${show(issue)}`);
    // One line per cause and origin (issue 41): the count below is of every warning.
    for (const issue of groupToolWarnings(warnings)) io.out(paint('yellow', 'warning'), ` ${show(issue)}`);
    const summary = `${terminalText(source)}: ${errors.length} error(s), ${warnings.length} warning(s)`;
    io.out(errors.length === 0 ? paint('green', `✓ ${summary}`) : paint('red', `✗ ${summary}`));
    for (const login of logins) io.out(`login  ${terminalText(login)}`);
    if (unboundIdentityParams(tools).length > 0) printWarnings(io, [], tools);
  }
  return errors.length === 0 ? 0 : 1;
}

async function callCommand(argv: string[], io: Output, failure: FailureContext): Promise<number> {
  const command = 'rcp call';
  const { values, positionals } = parseCommandLine(command, argv, {
    arg: { type: 'string', multiple: true, default: [] as string[] },
    args: { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
    yes: { type: 'boolean', default: false },
    help: { type: 'boolean' },
    ...BINDING_OPTIONS,
    ...CREDENTIAL_OPTIONS,
    ...NETWORK_OPTIONS,
  });
  if (values.help) return help('call', io);
  if (positionals.length !== 2) throw new RcpUsageError('call takes <url|file> <tool>', { command });
  const [source, name] = positionals as [string, string];
  const args = argsObject(values.args);
  const bindings = bindingsOf(values, command);
  const credentials = credentialsOf(values, command, io.env);
  failure.credentials = credentials.credentials !== undefined;
  const { client, discovery } = await openManifestSource(sourceAt(io, source), {
    ...bindingOptions(bindings),
    ...credentials,
    ...networkOf(values),
    // A call that changes data is shown and confirmed before anything is sent (SPEC §19; docs/behaviour.md).
    approval: 'writes',
  });
  checkBindingNames(bindings, discovery.tools, command);
  const tool = discovery.tool(name); // RCP_UNKNOWN_TOOL names the available tools
  failure.tool = tool;
  for (const [key, value] of argEntries(values.arg, tool)) args[key] = value;
  // The resolvers hold the --ctx values: the call's context is empty.
  const ctx = {};
  if (values['dry-run']) {
    io.out(terminalJson(await client.prepare(tool, args, ctx)));
    return 0;
  }
  let outcome = await client.call(discovery, { name, arguments: args }, ctx);
  if (!outcome.ok && isRcpError(outcome.error, 'RCP_APPROVAL_REQUIRED')) {
    const review = (outcome.error as RcpApprovalRequiredError).approval;
    if (!values.yes && !(await confirm(review, io))) {
      throw new RcpUsageError(
        io.stdin.isTTY === true
          ? 'not sent: the call was not confirmed'
          : `${name} changes data and there is no terminal to confirm it: nothing was sent (pass --yes to send it)`,
        { exitCode: 1 },
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
  if (io.stdin.isTTY !== true) return false;
  io.err(`${review.tool} needs your approval: ${review.reason ?? 'the approval policy asks for it'}. It will send:`);
  io.err(terminalJson(review.request));
  const lines = createInterface({ input: io.stdin, output: io.stderr });
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
    else
      throw new RcpUsageError(`--include / --exclude take tag:NAME, op:OPERATION_ID or a path starting with "/", got ${shown(selector)}`, {
        command: 'rcp from-openapi',
      });
  }
  return filter;
}

async function fromOpenApiCommand(argv: string[], io: Output): Promise<number> {
  const command = 'rcp from-openapi';
  const { values, positionals } = parseCommandLine(command, argv, {
    output: { type: 'string', short: 'o' },
    'base-url': { type: 'string' },
    include: { type: 'string', multiple: true },
    exclude: { type: 'string', multiple: true },
    'include-deprecated': { type: 'boolean', default: false },
    resolve: { type: 'string', multiple: true, default: [] as string[] },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean' },
  });
  if (values.help) return help('from-openapi', io);
  if (positionals.length !== 1) throw new RcpUsageError('from-openapi takes one document file', { command });
  const file = positionals[0]!;
  const text = await readFile(io.file(file), 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new RcpUsageError(`cannot read ${file} (${error.code ?? 'error'})`, { exitCode: 1 });
  });
  const include = filterOf(values.include);
  const exclude = filterOf(values.exclude);
  const resolve = values.resolve
    .flatMap((entry) => entry.split(','))
    .map((name) => name.trim())
    .filter(Boolean);
  // The importer (an OpenAPI parser and validator) is loaded only by the command that needs it:
  // every other command starts without it.
  const { formatSummary, fromOpenApi } = await import('rcp-openapi');
  const { manifest, report } = await fromOpenApi(text, {
    ...(values['base-url'] !== undefined && { baseUrl: values['base-url'] }),
    ...(include !== undefined && { include }),
    ...(exclude !== undefined && { exclude }),
    ...(values['include-deprecated'] && { includeDeprecated: true }),
    ...(resolve.length > 0 && { resolve }),
  });
  if (values.json) {
    // One JSON document on stdout: the report, or the manifest and the report when no file takes the manifest.
    if (values.output !== undefined) await writeFile(io.file(values.output), `${terminalJson(manifest)}\n`);
    io.out(terminalJson(values.output !== undefined ? report : { manifest, report }));
    return 0;
  }
  // The document's text (titles, names) reaches the report: its strings are made safe before
  // formatSummary lays them out in lines.
  const summary = formatSummary(terminalStrings(report));
  if (values.output !== undefined) {
    await writeFile(io.file(values.output), `${terminalJson(manifest)}\n`);
    io.out(summary);
    io.out(
      `wrote ${terminalText(values.output)} (${manifest.tools.length} tools, RCP ${manifest.rcpVersion}) — check it with: rcp lint ${terminalText(values.output)}`,
    );
  } else {
    io.stdout.write(`${terminalJson(manifest)}\n`); // terminalJson: nothing raw
    io.err(summary);
  }
  return 0;
}

async function inspectCommand(argv: string[], io: Output): Promise<number> {
  const command = 'rcp inspect';
  const { values, positionals } = parseCommandLine(command, argv, {
    port: { type: 'string', default: '0' },
    help: { type: 'boolean' },
    ...BINDING_OPTIONS,
    ...CREDENTIAL_OPTIONS,
    ...NETWORK_OPTIONS,
  });
  if (values.help) return help('inspect', io);
  if (positionals.length !== 1) throw new RcpUsageError('inspect takes one <url|file>', { command });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new RcpUsageError('--port must be a port number', { command });
  const bindings = bindingsOf(values, command);
  const clientOptions: RcpClientOptions = { ...bindingOptions(bindings), ...credentialsOf(values, command, io.env), ...networkOf(values) };
  const source = sourceAt(io, positionals[0]!);
  // Fail on a bad source, or a flag that fills nothing, before the page starts.
  const { discovery } = await openManifestSource(source, clientOptions);
  checkBindingNames(bindings, discovery.tools, command);
  const inspector = await startInspector({ source, port, tokenEnv: values['token-env'], clientOptions });
  io.out(`RCP inspector: ${inspector.url}`);
  await stopped(io.signal);
  await inspector.close();
  return 0;
}

async function initCommand(argv: string[], io: Output): Promise<number> {
  const command = 'rcp init';
  const { values, positionals } = parseCommandLine(command, argv, { force: { type: 'boolean', default: false }, help: { type: 'boolean' } });
  if (values.help) return help('init', io);
  if (positionals.length > 1) throw new RcpUsageError('init takes at most one file name', { command });
  const file = positionals[0] ?? 'rcp-manifest.json';
  const exists = await access(io.file(file)).then(
    () => true,
    () => false,
  );
  if (exists && !values.force) throw new RcpUsageError(`${file} exists; pass --force to overwrite it`, { exitCode: 1 });
  await writeFile(io.file(file), `${JSON.stringify(starterManifest, null, 2)}\n`);
  // Its learnerId is the kind of param an application fills: linting says so until it is resolved.
  io.out(`wrote ${file} — check it with: rcp lint ${file} --resolve learnerId`);
  return 0;
}

function help(command: string, io: Output): number {
  io.out(HELP[command]!.trimEnd());
  return 0;
}

function paint(color: Painted['color'], text: string): Painted {
  return { color, text };
}

/** picocolors with its colours on: whether to paint is the run's (`io.color`), not the process's. */
const colors = pc.createColors(true);

/**
 * A line from its parts, each through the last net (no control character reaches the terminal
 * raw), then painted: the colours' own escapes are the only ones printed.
 */
function lineOf(parts: readonly (string | Painted)[], color: boolean): string {
  return parts
    .map((part) => (typeof part === 'string' ? terminalLines(part) : color ? colors[part.color](terminalLines(part.text)) : terminalLines(part.text)))
    .join('');
}

/**
 * Runs one command (not the main help or the version, which `runCli` answers before loading
 * this module) and returns its exit code; a failure is one line on stderr.
 */
export async function runCommand(command: string, rest: string[], streams: CliIo): Promise<number> {
  const io: Output = {
    ...streams,
    // The last net: whatever a command prints, no control character reaches the terminal raw.
    out: (...parts) => streams.stdout.write(`${lineOf(parts, streams.color)}\n`),
    err: (...parts) => streams.stderr.write(`${lineOf(parts, streams.color)}\n`),
    file: (name) => (streams.cwd === undefined ? name : resolve(streams.cwd, name)),
  };
  const failure: FailureContext = { credentials: false };
  try {
    switch (command) {
      case 'describe':
        return await describeCommand(rest, io);
      case 'lint':
        return await lintCommand(rest, io);
      case 'call':
        return await callCommand(rest, io, failure);
      case 'init':
        return await initCommand(rest, io);
      case 'inspect':
        return await inspectCommand(rest, io);
      case 'from-openapi':
        return await fromOpenApiCommand(rest, io);
      case 'mcp':
        // The gateway serves on the run's stdin and stdout, and prints its own failures.
        return await runMcpCommand(rest, streams, 'rcp mcp');
      default:
        throw new RcpUsageError(`unknown command ${shown(command)}`, { command: 'rcp' });
    }
  } catch (error) {
    // Error messages quote servers (a reason phrase, an excerpt): one line, nothing raw.
    if (isRcpUsageError(error)) {
      io.err(`rcp: ${terminalText(usageLine(error))}`);
      return error.exitCode;
    }
    io.err(`rcp: ${terminalText(commandLineMessage(error, failure))}`);
    return 1;
  }
}
