import { parseArgs } from 'node:util';
import { UsageError } from './demo-errors';

/** The parsed command line. */
export type CliOptions =
  | { readonly command: 'help' }
  | { readonly command: 'demo'; readonly json: boolean }
  | { readonly command: 'serve'; readonly port: number; readonly token: string | undefined };

/** The `--help` text. */
export const HELP_TEXT = `rcp-demo — see RCP work end to end: discovery, what the model sees, calls, and the trust rules.

Usage
  pnpm demo [--json]                run the embedded learning-platform demo (no network, no API key)
  pnpm demo --serve [--port N]      keep the demo's learning-platform API running on 127.0.0.1, to look
                                    at with the rcp CLI (rcp describe, rcp inspect, rcp call)

Options
  --json           machine-readable output of the whole run (one JSON document on stdout)
  --serve          start the learning platform and print its manifest URL; Ctrl-C stops it
  --port <n>       the port for --serve (default: any free one)
  --token <value>  the bearer token the served API accepts (default: RCP_TOKEN, else a random one, printed)
  -h, --help       show this help

Exploring any RCP server moved to the rcp CLI: rcp describe <url>, rcp call <url> <tool>, rcp inspect <url>.

Exit codes: 0 success, 1 the run failed (a trust check that did not hold), 2 bad command line. Colour
is off when stdout is not a terminal or NO_COLOR is set.`;

/**
 * Parses the demo's command line (a bad one is a {@link UsageError}, exit code 2).
 *
 * @example
 * ```ts
 * parseCliOptions(['--serve', '--port', '8080']); // { command: 'serve', port: 8080, token: undefined }
 * ```
 */
export function parseCliOptions(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): CliOptions {
  // `pnpm demo -- --json` forwards the separator; accept it.
  const args = argv[0] === '--' ? argv.slice(1) : [...argv];
  const parsed = parseOrExplain(() =>
    parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: 'boolean', short: 'h' },
        json: { type: 'boolean' },
        serve: { type: 'boolean' },
        port: { type: 'string' },
        token: { type: 'string' },
        // The explore mode's flags, kept to say where it went.
        manifest: { type: 'string' },
        call: { type: 'string', multiple: true },
      },
    }),
  );
  const { values } = parsed;
  if (values.help) return { command: 'help' };
  if (values.manifest !== undefined || values.call !== undefined) {
    throw new UsageError('exploring a server moved to the rcp CLI: rcp describe <url>, rcp call <url> <tool>, rcp inspect <url>');
  }
  if (values.serve) {
    if (values.json) throw new UsageError('--json is for the embedded run, not --serve');
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`--port must be a port number, got "${values.port}"`);
    const token = values.token ?? (env.RCP_TOKEN === '' ? undefined : env.RCP_TOKEN);
    return { command: 'serve', port, token };
  }
  for (const flag of ['port', 'token'] as const) {
    if (values[flag] !== undefined) throw new UsageError(`--${flag} needs --serve (see --help)`);
  }
  return { command: 'demo', json: values.json === true };
}

/** Runs node's parser, its error turned into one usage line. */
function parseOrExplain<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    // node's messages add advice about positionals after the first sentence; keep one line.
    const message = (error instanceof Error ? error.message : String(error)).split(/\.\s|\n/)[0] ?? '';
    throw new UsageError(`${message.replace(/^\w/, (c) => c.toLowerCase())} (see --help)`);
  }
}
