import { parseArgs, type ParseArgsConfig } from 'node:util';
import { RcpUsageError } from './usage-error';

/**
 * The options a command takes, as `node:util`'s `parseArgs` describes them.
 *
 * @example
 * ```ts
 * const options = { json: { type: 'boolean', default: false }, ...BINDING_OPTIONS } satisfies CommandLineOptions;
 * ```
 */
export type CommandLineOptions = NonNullable<ParseArgsConfig['options']>;

/**
 * What {@link parseCommandLine} returns: `parseArgs`'s typed `values` and the positionals.
 *
 * @example
 * ```ts
 * const parsed: ParsedCommandLine<typeof options> = parseCommandLine('rcp lint', argv, options);
 * parsed.values.json; // boolean
 * ```
 */
export type ParsedCommandLine<T extends CommandLineOptions> = ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true }>>;

const shown = (text: string): string => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

/**
 * Why `argv` does not fit `options`, in the command line's words: an unknown option, a value
 * missing or given where none is taken. Found from `parseArgs`'s tokens (the non-strict parse
 * never throws), so the wording never depends on Node's.
 */
function problemOf(argv: readonly string[], options: CommandLineOptions): string {
  const { tokens } = parseArgs({ args: [...argv], options, allowPositionals: true, strict: false, tokens: true });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const option = options[token.name];
    if (option === undefined) return `unknown option ${shown(token.rawName)}`;
    if (option.type === 'string' && (token.value === undefined || (!token.inlineValue && token.value.startsWith('-')))) {
      return `${token.rawName} needs a value`;
    }
    if (option.type === 'boolean' && token.value !== undefined) return `${token.rawName} takes no value`;
  }
  return 'the options cannot be read';
}

/**
 * `parseArgs` for one command of a command line: positionals allowed, every problem an
 * {@link RcpUsageError} in the command line's own words that points at `<command> --help`
 * (never Node's `ERR_PARSE_ARGS_*` text).
 *
 * @example
 * ```ts
 * const { values, positionals } = parseCommandLine('rcp lint', argv, { json: { type: 'boolean', default: false } });
 * // argv ['--jsn'] throws RcpUsageError: "unknown option --jsn" (printed "… (see rcp lint --help)")
 * ```
 */
export function parseCommandLine<const T extends CommandLineOptions>(command: string, argv: readonly string[], options: T): ParsedCommandLine<T> {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true }) as ParsedCommandLine<T>;
  } catch (error) {
    if (!String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS')) throw error;
    throw new RcpUsageError(problemOf(argv, options), { command });
  }
}
