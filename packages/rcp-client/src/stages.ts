import { RcpError } from 'rcp-errors';
import type { RcpToolFilter, RcpToolSet } from './tool-set';

/**
 * What a tool call runs with in an adapter: the context the client's resolvers read, and the
 * stage the turn is in (a key of the adapter's `stages`), if any.
 *
 * @example
 * ```ts
 * const turn: RcpTurn<{ userId: string }> = { ctx: { userId: 'u-1' }, stage: 'browse' };
 * ```
 */
export interface RcpTurn<Context> {
  readonly ctx: Context;
  readonly stage?: string | undefined;
}

/**
 * The stages of a tool set, made by {@link createStages}: each a subset the model may use in
 * that stage, and where a call in a stage runs.
 *
 * @example
 * ```ts
 * const stages = createStages(toolSet, { browse: ['list_notes'] });
 * const outcome = await client.call(stages.scope('browse'), { name: 'delete_note', arguments: {} });
 * // outcome.ok === false, outcome.error.code === 'RCP_TOOL_NOT_IN_STAGE': nothing sent
 * ```
 */
export interface RcpStages {
  /** The stage ids, in the order given. */
  readonly ids: readonly string[];
  /** A stage's tool set; `RCP_INVALID_OPTIONS` naming the defined stages for an id that is not one. */
  get(stage: string): RcpToolSet;
  /**
   * The tool set a call in `stage` runs in: the whole set without a stage, the stage's set, and
   * for a stage that is not defined a set that lets nothing through (every call is
   * `RCP_TOOL_NOT_IN_STAGE`).
   */
  scope(stage: string | undefined): RcpToolSet;
}

/**
 * Stages over a tool set, written once for every adapter: `toolSet.select(only, { stage })` per
 * stage id (a blank id is `RCP_INVALID_OPTIONS`), so a call in a stage to a tool outside it is the
 * client's `RCP_TOOL_NOT_IN_STAGE` on every stack.
 *
 * @example
 * ```ts
 * import { createStages, createToolSet } from 'rcp-client';
 *
 * const stages = createStages(createToolSet(discovery), { browse: ['list_notes', 'get_note'], act: () => true });
 * stages.get('browse').names; // ['list_notes', 'get_note']
 * ```
 */
export function createStages(toolSet: RcpToolSet, stages: Readonly<Record<string, RcpToolFilter>> = {}): RcpStages {
  const sets = new Map<string, RcpToolSet>();
  for (const [id, only] of Object.entries(stages)) {
    if (id.trim() === '') throw new RcpError('RCP_INVALID_OPTIONS', 'A stage id must not be blank.');
    sets.set(id, toolSet.select(only, { stage: id }));
  }
  const ids = Object.freeze([...sets.keys()]);
  return Object.freeze({
    ids,
    get(stage: string): RcpToolSet {
      const set = sets.get(stage);
      if (set === undefined) {
        throw new RcpError('RCP_INVALID_OPTIONS', `No stage ${JSON.stringify(stage)} in this tool set (its stages: ${ids.join(', ') || 'none'})`);
      }
      return set;
    },
    scope(stage: string | undefined): RcpToolSet {
      if (stage === undefined) return toolSet;
      return sets.get(stage) ?? toolSet.select([], { stage });
    },
  });
}
