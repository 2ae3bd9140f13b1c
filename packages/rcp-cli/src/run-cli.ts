/** The package version, printed by `--version`. */
export const VERSION = '0.1.0';

/** A stream `runCli` writes to: `process.stdout`, a file stream, a `PassThrough` … */
export type RunCliOutput = NodeJS.WritableStream & { readonly isTTY?: boolean };

/** The stream `runCli` reads a confirmation from: `process.stdin`, or any readable. */
export type RunCliInput = NodeJS.ReadableStream & { readonly isTTY?: boolean };

/**
 * Where {@link runCli} reads and writes. Each is optional and defaults to the process's own, so
 * `runCli(argv)` is the `rcp` bin; an embedding tool passes what it wants to capture or supply.
 */
export interface RunCliOptions {
  /** Results (default `process.stdout`). Colours only when its `isTTY` is true, and never with `NO_COLOR` (or `TERM=dumb`) in `env`. */
  readonly stdout?: RunCliOutput;
  /** Warnings, errors and the confirmation prompt (default `process.stderr`). */
  readonly stderr?: RunCliOutput;
  /**
   * Where `rcp call` reads the answer to "Send it? [y/N]" for a call that changes data (default
   * `process.stdin`). Asked only when its `isTTY` is true; otherwise such a call is refused unless `--yes`.
   */
  readonly stdin?: RunCliInput;
  /** The environment `--token-env`, `--oauth-env` and `NO_COLOR` are read from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The folder relative file names (manifests, `-o`, `init`) are resolved against (default `process.cwd()`). */
  readonly cwd?: string;
  /**
   * Stops a command that runs until stopped (`rcp inspect`, `rcp mcp`); without it, SIGINT or SIGTERM stops it.
   * An aborted signal stops it as soon as it has started.
   */
  readonly signal?: AbortSignal;
}

/** What a command writes through: the streams and environment of one run, and whether to paint. */
export interface CliIo {
  readonly stdout: RunCliOutput;
  readonly stderr: RunCliOutput;
  readonly stdin: RunCliInput;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string | undefined;
  readonly signal: AbortSignal | undefined;
  readonly color: boolean;
}

const MAIN_HELP = `rcp — look at an RCP server before wiring it into an agent

Usage: rcp <command> [options]

Commands
  describe <url|file>   what the server asks for: tools, params, which are hidden, warnings
  lint <url|file>       every problem with its JSON Pointer; exit 0 clean, 1 on errors, 2 on usage errors
  call <url|file> <tool> try a call (--dry-run: print the exact request, credential redacted)
  inspect <url|file>    the inspector page on 127.0.0.1: tools, hidden params, schemas, try a call
  from-openapi <file>   a manifest from an OpenAPI / Swagger document, and the import report
  init [file]           write a starter manifest (default rcp-manifest.json)
  mcp <url|file>        serve the tools to MCP hosts over stdio (--http for streamable HTTP)

A manifest file is a local source: its tools may call loopback and private addresses.
--ctx, --resolve and --model-filled mean the same on describe, lint, call, inspect and mcp.
Options: --help (for each command), --version`;

/**
 * Runs the `rcp` command line and returns its exit code: 0 success, 1 a failure (printed as one
 * line with its error code, never a stack trace), 2 a usage error (one line pointing at the
 * command's `--help`). Colours only on a TTY, and never with `NO_COLOR`.
 *
 * `options` embed it in another tool: its output captured, its input, environment, folder and
 * stop signal given (see {@link RunCliOptions}); each defaults to the process's own. `rcp mcp`
 * serves MCP on the run's stdin and stdout (see {@link runMcpCli}).
 *
 * @example
 * ```ts
 * process.exitCode = await runCli(['lint', 'rcp-manifest.json']);
 * ```
 *
 * @example
 * ```ts
 * import { PassThrough } from 'node:stream';
 *
 * const stdout = new PassThrough();
 * let report = '';
 * stdout.on('data', (chunk: Buffer) => (report += chunk.toString()));
 * const code = await runCli(['lint', 'rcp-manifest.json', '--json'], { stdout, cwd: '/path/to/app' });
 * ```
 */
export async function runCli(argv: readonly string[], options: RunCliOptions = {}): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const [command, ...rest] = argv;
  // The help and the version answer before anything heavy (the client, OAuth) is loaded.
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    stdout.write(`${MAIN_HELP}\n`);
    return 0;
  }
  if (command === '--version' || command === '-v') {
    stdout.write(`${VERSION}\n`);
    return 0;
  }
  const { runCommand } = await import('./commands');
  return runCommand(command, rest, ioOf(options));
}

/**
 * Runs the `rcp-mcp` command line (the same as `rcp mcp`) and resolves with its exit code when
 * serving ends: over stdio (the run's stdin and stdout carry MCP; it ends when the host closes
 * stdin) or, with `--http`, on 127.0.0.1 until the run's `signal` aborts (without one, SIGINT or
 * SIGTERM). A usage error is 2, any other failure 1, each one line on stderr before anything is
 * served. The `rcp-mcp` bin is this with the process's own streams.
 *
 * @example
 * ```ts
 * process.exitCode = await runMcpCli(['https://notes.example.com/rcp/manifest', '--ctx', 'userId=u-1', '--token-env', 'NOTES_TOKEN']);
 * ```
 */
export async function runMcpCli(argv: readonly string[], options: RunCliOptions = {}): Promise<number> {
  const { runMcpCommand } = await import('./mcp-command');
  return runMcpCommand(argv, ioOf(options), 'rcp-mcp');
}

/** One run's streams and environment from its options, each defaulting to the process's own. */
function ioOf(options: RunCliOptions): CliIo {
  const stdout = options.stdout ?? process.stdout;
  const env = options.env ?? process.env;
  return {
    stdout,
    stderr: options.stderr ?? process.stderr,
    stdin: options.stdin ?? process.stdin,
    env,
    cwd: options.cwd,
    signal: options.signal,
    color: stdout.isTTY === true && !('NO_COLOR' in env) && env['TERM'] !== 'dumb',
  };
}
