import { RcpError } from 'rcp-errors';
import { isNearMiss } from './internal/discovery/param-names';

/** Most names an unknown-tool message lists. */
const LISTED_NAMES = 20;
/** Longest requested name an unknown-tool message repeats. */
const SHOWN_NAME_LENGTH = 64;

/** The requested name as a message shows it: JSON-quoted (no control characters), bounded. */
function quoteName(name: string): string {
  return JSON.stringify(name.length > SHOWN_NAME_LENGTH ? `${name.slice(0, SHOWN_NAME_LENGTH)}…` : name);
}

function describeUnknownTool(name: string, available: readonly string[], ambiguous: boolean): string {
  if (ambiguous) return `Tool ${quoteName(name)} is ambiguous: more than one tool has this name.`;
  const head = name === '' ? 'A tool call must name a tool.' : `Unknown tool ${quoteName(name)}.`;
  if (available.length === 0) return `${head} No tools are available.`;
  const close = available.find((candidate) => isNearMiss(candidate, name));
  const hint = close === undefined ? '' : ` Did you mean ${JSON.stringify(close)}?`;
  const listed = available.slice(0, LISTED_NAMES).join(', ');
  const more = available.length > LISTED_NAMES ? ` (and ${available.length - LISTED_NAMES} more)` : '';
  return `${head}${hint} Available tools: ${listed}${more}.`;
}

/**
 * Thrown, or returned in a call outcome (code `RCP_UNKNOWN_TOOL`), when a call names a tool
 * that is not there. The message is written for the model to correct itself from: the name it
 * asked for, the closest available name, and the available names (at most 20).
 *
 * @example
 * ```ts
 * import { isRcpError } from 'rcp-client';
 * try {
 *   discovery.tool('list_note');
 * } catch (error) {
 *   if (isRcpError(error, 'RCP_UNKNOWN_TOOL')) console.log(error.message, error.available);
 *   // Unknown tool "list_note". Did you mean "list_notes"? Available tools: list_notes, get_note.
 * }
 * ```
 */
export class RcpUnknownToolError extends RcpError<'RCP_UNKNOWN_TOOL'> {
  /** The tool name that was asked for (`''` when the call named none). */
  readonly tool: string;
  /** The names that could have been called, in order. */
  readonly available: readonly string[];

  /**
   * @param tool - The name asked for.
   * @param available - The names that could have been called.
   * @param options - `ambiguous`: the name was found more than once (a hand-made list of tools).
   */
  constructor(tool: string, available: readonly string[], options: { ambiguous?: boolean } = {}) {
    super('RCP_UNKNOWN_TOOL', describeUnknownTool(tool, available, options.ambiguous === true));
    this.tool = tool;
    this.available = Object.freeze([...available]);
  }
}

/**
 * Thrown, or returned in a call outcome (code `RCP_TOOL_NOT_IN_STAGE`), when a call names a tool
 * that exists but is not in the stage (the tool set's subset) the call was made in. One message
 * on every stack: `Tool "x" is not available in stage "browse".` — it names only what the model
 * asked for and the stage, so `toModelResult` passes it on.
 *
 * @example
 * ```ts
 * const browse = toolSet.select(['search_courses'], { stage: 'browse' });
 * const outcome = await client.call(browse, { name: 'enroll_in_course', arguments: {} }, ctx);
 * // outcome.error: RcpToolNotInStageError, code 'RCP_TOOL_NOT_IN_STAGE'
 * ```
 */
export class RcpToolNotInStageError extends RcpError<'RCP_TOOL_NOT_IN_STAGE'> {
  /**
   * @param tool - The name the call asked for.
   * @param stage - The stage's id, when it has one.
   */
  constructor(tool: string, stage?: string) {
    super('RCP_TOOL_NOT_IN_STAGE', `Tool ${quoteName(tool)} is not available in ${stage === undefined ? 'this stage' : `stage ${quoteName(stage)}`}.`);
  }
}
