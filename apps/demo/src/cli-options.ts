import { parseArgs } from 'node:util';
import { UsageError } from './demo-errors';

/** One `--call name [--args '{...}']` the operator asked for. */
export interface RequestedCall {
  readonly name: string;
  /** The arguments JSON text, passed to the stage as a model would (default `'{}'`). */
  readonly arguments: string;
}

/** A `--resolve param=ctxKey` binding: the client fills `param` from `ctx[ctxKey]`. */
export interface ResolveBinding {
  readonly param: string;
  readonly ctxKey: string;
}

/** The parsed command line. */
export type CliOptions =
  | { readonly command: 'help' }
  | { readonly command: 'demo'; readonly json: boolean }
  | {
      readonly command: 'explore';
      readonly json: boolean;
      readonly manifestUrl: string;
      readonly calls: readonly RequestedCall[];
      readonly ctx: Readonly<Record<string, unknown>>;
      readonly token: string | undefined;
      readonly resolve: readonly ResolveBinding[];
    };

/** The `--help` text. */
export const HELP_TEXT = `rcp-demo — see RCP work end to end: discovery, what the model sees, calls, and the trust rules.

Usage
  pnpm demo [--json]                      run the embedded learning-platform demo (no network, no API key)
  pnpm demo --manifest <url> [options]    describe and explore any RCP server

Options
  --json                     machine-readable output of the whole run (one JSON document on stdout)
  --manifest <url>           discover this RCP manifest instead of starting the embedded server
  --call <tool>              call a tool of that manifest (repeatable; calls run in order)
  --args <json>              arguments for the preceding --call, as a model would send them (default {})
  --ctx <json>               the turn's context object, read by resolvers (default {})
  --resolve <param[=key]>    fill <param> from ctx.<key> with a client-side resolver, hiding it from the
                             model (repeatable; <key> defaults to <param>)
  --token <credential>       credential for tools with header auth (default: the RCP_TOKEN environment
                             variable); sent only to trusted origins, never printed
  -h, --help                 show this help

Examples
  pnpm demo
  pnpm demo --json > run.json
  pnpm demo --manifest http://127.0.0.1:8080/rcp/manifest --resolve learnerId=userId \\
    --ctx '{"userId":"learner-42"}' --call search_courses --args '{"query":"algebra"}'

Exit codes: 0 success, 1 the run failed (unreachable server, invalid manifest, a trust check that did
not hold), 2 bad command line. Colour is off when stdout is not a terminal or NO_COLOR is set.`;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function parseJsonObject(flag: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`${flag} must be a JSON object, e.g. ${flag} '{"query":"algebra"}'`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError(`${flag} must be a JSON object, e.g. ${flag} '{"query":"algebra"}'`);
  }
  return value as Record<string, unknown>;
}

function parseManifestUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--manifest must be an absolute http(s) URL, got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--manifest must be an absolute http(s) URL, got "${text}"`);
  }
  return url.href;
}

function parseResolve(text: string): ResolveBinding {
  const [param = '', ctxKey = param, ...rest] = text.split('=');
  if (rest.length > 0 || !NAME.test(param) || !NAME.test(ctxKey)) {
    throw new UsageError(`--resolve expects <param> or <param>=<ctxKey> (letters, digits, _), got "${text}"`);
  }
  return { param, ctxKey };
}

/**
 * Parses the demo's command line (without `node` and the script path). Throws
 * {@link UsageError} with a one-line message for anything it does not understand.
 *
 * @example
 * ```ts
 * parseCliOptions(['--manifest', 'http://127.0.0.1:8080/rcp/manifest', '--call', 'search_courses']);
 * ```
 */
export function parseCliOptions(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): CliOptions {
  // `pnpm demo -- --json` forwards the separator; accept it.
  const args = argv[0] === '--' ? argv.slice(1) : [...argv];
  let parsed;
  try {
    parsed = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      tokens: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        json: { type: 'boolean' },
        manifest: { type: 'string' },
        call: { type: 'string', multiple: true },
        args: { type: 'string', multiple: true },
        ctx: { type: 'string' },
        token: { type: 'string' },
        resolve: { type: 'string', multiple: true },
      },
    });
  } catch (error) {
    // node's messages add advice about positionals after the first sentence; keep one line.
    const message = (error instanceof Error ? error.message : String(error)).split(/\.\s|\n/)[0] ?? '';
    throw new UsageError(`${message.replace(/^\w/, (c) => c.toLowerCase())} (see --help)`);
  }
  const { values, tokens } = parsed;
  if (values.help) return { command: 'help' };
  const json = values.json === true;

  if (values.manifest === undefined) {
    for (const flag of ['call', 'args', 'ctx', 'token', 'resolve'] as const) {
      if (values[flag] !== undefined) throw new UsageError(`--${flag} needs --manifest <url> (see --help)`);
    }
    return { command: 'demo', json };
  }

  const calls: { name: string; arguments: string | undefined }[] = [];
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    if (token.name === 'call') {
      const name = token.value ?? '';
      if (name === '') throw new UsageError('--call needs a tool name (see --help)');
      calls.push({ name, arguments: undefined });
    } else if (token.name === 'args') {
      const last = calls.at(-1);
      if (last === undefined) throw new UsageError('--args must follow the --call it belongs to (see --help)');
      if (last.arguments !== undefined) throw new UsageError(`--call ${last.name} has more than one --args`);
      const text = token.value ?? '';
      parseJsonObject('--args', text);
      last.arguments = text;
    }
  }

  return {
    command: 'explore',
    json,
    manifestUrl: parseManifestUrl(values.manifest),
    calls: calls.map(({ name, arguments: text }) => ({ name, arguments: text ?? '{}' })),
    ctx: values.ctx === undefined ? {} : parseJsonObject('--ctx', values.ctx),
    token: values.token ?? (env.RCP_TOKEN === '' ? undefined : env.RCP_TOKEN),
    resolve: (values.resolve ?? []).map(parseResolve),
  };
}
