import { RcpError } from 'rcp-errors';

/**
 * One problem found in a tool call's arguments: a JSON Pointer to the argument (`/query`,
 * `''` for the arguments object itself) and what is wrong with it. Never contains the value.
 *
 * @example
 * ```ts
 * const issue: RcpArgumentIssue = { path: '/query', message: 'is required' };
 * ```
 */
export interface RcpArgumentIssue {
  readonly path: string;
  readonly message: string;
}

/**
 * Thrown (code `RCP_INVALID_ARGUMENTS`) when a tool call's arguments do not match the tool's
 * `inputSchema`: a missing required argument, a wrong type, or a key the tool does not accept
 * (including a param that a resolver fills). `issues` lists every problem; the message names
 * the first few. Safe to show to the model so it can correct its call.
 *
 * @example
 * ```ts
 * import { isRcpError } from 'rcp-client';
 * try {
 *   await client.execute(tool, { query: 42 });
 * } catch (error) {
 *   if (isRcpError(error, 'RCP_INVALID_ARGUMENTS')) console.log(error.issues);
 *   // [{ path: '/query', message: 'must be a string (got number)' }]
 * }
 * ```
 */
export class RcpInvalidArgumentsError extends RcpError<'RCP_INVALID_ARGUMENTS'> {
  /** The tool the arguments were meant for. */
  readonly tool: string;
  /** Every problem found, in argument order, then missing required arguments. */
  readonly issues: readonly RcpArgumentIssue[];

  constructor(tool: string, issues: readonly RcpArgumentIssue[], options: { cause?: unknown } = {}) {
    super('RCP_INVALID_ARGUMENTS', describeIssues(tool, issues), options);
    this.tool = tool;
    this.issues = Object.freeze(issues.map((issue) => Object.freeze({ path: issue.path, message: issue.message })));
  }
}

const SHOWN_ISSUES = 5;
const SHOWN_PATH_LENGTH = 80;

function describeIssues(tool: string, issues: readonly RcpArgumentIssue[]): string {
  const shown = issues
    .slice(0, SHOWN_ISSUES)
    .map(({ path, message }) => `${shortPath(path)} ${message}`)
    .join('; ');
  const more = issues.length > SHOWN_ISSUES ? ` (and ${issues.length - SHOWN_ISSUES} more)` : '';
  return `Invalid arguments for tool "${tool}": ${shown}${more}`;
}

function shortPath(path: string): string {
  if (path === '') return 'the arguments';
  return path.length > SHOWN_PATH_LENGTH ? `${path.slice(0, SHOWN_PATH_LENGTH)}…` : path;
}
