import { RcpError, isRcpError } from 'rcp-errors';
import { RcpInvalidArgumentsError, RcpToolNotInStageError, RcpUnknownToolError } from 'rcp-client';
import type { ModelToolContext, ModelToolSelection, RegisteredModelTool, SealedModelToolRegistry } from '../model-tool';
import { messageOf, quote } from './quote';
import { isThenable, silence } from './thenable';

/**
 * Builds the frozen sealed registry over `catalog` that offers `offered` (the whole catalog,
 * or one stage's projection). Every projection keeps the catalog, so it can tell a tool that
 * does not exist (`RCP_UNKNOWN_TOOL`) from one that exists but is not offered here
 * (`RCP_TOOL_NOT_IN_STAGE`).
 */
export function createSealedRegistry<Output>(
  catalog: ReadonlyMap<string, RegisteredModelTool<Output>>,
  offered: readonly string[],
): SealedModelToolRegistry<Output> {
  const ids = Object.freeze([...offered]);
  const members = new Set(ids);

  const find = (id: unknown, stageId?: string): RegisteredModelTool<Output> => {
    if (typeof id !== 'string') {
      throw new RcpUnknownToolError('', ids);
    }
    const tool = catalog.get(id);
    if (tool === undefined) throw new RcpUnknownToolError(id, ids);
    if (!members.has(id)) {
      throw new RcpToolNotInStageError(id, stageId);
    }
    return tool;
  };

  const registry: SealedModelToolRegistry<Output> = {
    ids: () => ids,
    get: (id) => (typeof id === 'string' && members.has(id) ? catalog.get(id) : undefined),
    select(requested) {
      if (!Array.isArray(requested)) {
        throw new RcpError('RCP_INVALID_OPTIONS', 'select() takes an array of tool ids.');
      }
      const subset: string[] = [];
      for (const id of requested as readonly unknown[]) {
        find(id);
        if (!subset.includes(id as string)) subset.push(id as string);
      }
      return createSealedRegistry(catalog, subset);
    },
    resolve(selection: ModelToolSelection, context: ModelToolContext): Output {
      if (typeof context !== 'object' || context === null || typeof context.stageId !== 'string') {
        throw new RcpError('RCP_INVALID_OPTIONS', 'resolve() needs a context with a string stageId.');
      }
      const stageId = context.stageId;
      if (typeof selection !== 'object' || selection === null) {
        throw new RcpUnknownToolError('', ids);
      }
      const tool = find(selection.toolId, stageId);
      let input: unknown;
      try {
        input = tool.inputSchema.parse(selection.input);
      } catch (error) {
        if (isRcpError(error)) throw error;
        throw new RcpInvalidArgumentsError(tool.id, [{ path: '', message: `were refused: ${messageOf(error)}` }], {
          cause: error,
        });
      }
      if (isThenable(input)) {
        silence(input);
        throw new RcpError('RCP_INVALID_TOOL', `The schema adapter of tool ${quote(tool.id)} returned a promise; parse must be synchronous.`);
      }
      const output = tool.resolve(input, Object.freeze({ stageId }));
      if (isThenable(output)) {
        silence(output);
        throw new RcpError('RCP_INVALID_TOOL', `Tool ${quote(tool.id)} returned a promise from resolve; resolve must be synchronous.`);
      }
      return output;
    },
  };
  return Object.freeze(registry);
}
