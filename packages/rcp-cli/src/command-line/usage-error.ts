const USAGE_ERROR = Symbol.for('rcp.usageError');

/**
 * A command-line problem, in the command line's own words: printed as one line, the process
 * exiting with `exitCode` — 2 for a usage error (then the line points at `--help`), 1 for a
 * problem that is not about the flags (a file that cannot be read).
 *
 * @example
 * ```ts
 * throw new RcpUsageError('describe takes one <url|file>', { command: 'rcp describe' });
 * ```
 */
export class RcpUsageError extends Error {
  override readonly name = 'RcpUsageError';
  /** The mark {@link isRcpUsageError} reads: it holds when the package is installed twice, too. */
  readonly [USAGE_ERROR] = true;
  /** 2: usage (the flags or arguments are wrong); 1: anything else. */
  readonly exitCode: 1 | 2;
  /** The command whose `--help` the line points at (`rcp describe`, `rcp-mcp`); absent for exit code 1. */
  readonly command: string | undefined;

  constructor(message: string, options: { exitCode?: 1 | 2; command?: string } = {}) {
    super(message);
    this.exitCode = options.exitCode ?? 2;
    this.command = options.command;
  }
}

/**
 * The one line a usage error prints (after the program's name): its message and, for exit
 * code 2, where the help is.
 *
 * @example
 * ```ts
 * usageLine(new RcpUsageError('unknown option --jsn', { command: 'rcp lint' }));
 * // 'unknown option --jsn (see rcp lint --help)'
 * ```
 */
export function usageLine(error: RcpUsageError): string {
  return error.exitCode === 2 && error.command !== undefined ? `${error.message} (see ${error.command} --help)` : error.message;
}

/**
 * True for an {@link RcpUsageError}, from any copy of this package (a `Symbol.for` mark, not
 * `instanceof` alone).
 *
 * @example
 * ```ts
 * if (isRcpUsageError(error)) process.exitCode = error.exitCode;
 * ```
 */
export function isRcpUsageError(value: unknown): value is RcpUsageError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[USAGE_ERROR] === true;
}
