/**
 * Minimal ANSI styling. Colour is used only when writing to a terminal and `NO_COLOR` is not
 * set (https://no-color.org); `FORCE_COLOR` (non-empty, not `0`) turns it on anyway.
 */

/** Styling functions; each returns its text unchanged when colour is off. */
export interface TerminalStyle {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  magenta(text: string): string;
}

/**
 * Whether to colour output written to `stream`, given the environment.
 *
 * @example
 * ```ts
 * shouldUseColor({ isTTY: true }, { NO_COLOR: '1' }); // false
 * ```
 */
export function shouldUseColor(stream: { isTTY?: boolean | undefined }, env: Readonly<Record<string, string | undefined>>): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/**
 * Creates the styling functions, as no-ops when `enabled` is false.
 *
 * @example
 * ```ts
 * const style = createTerminalStyle(false);
 * style.green('ok'); // 'ok'
 * ```
 */
export function createTerminalStyle(enabled: boolean): TerminalStyle {
  const wrap = (open: number, close: number) => (text: string) => (enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text);
  return {
    enabled,
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    green: wrap(32, 39),
    red: wrap(31, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
    magenta: wrap(35, 39),
  };
}
