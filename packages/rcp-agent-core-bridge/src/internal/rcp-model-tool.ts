import { RcpError, isRcpError } from 'rcp-errors';
import { RcpInvalidArgumentsError, validateArguments, type RcpClient, type RcpToolSetEntry } from 'rcp-client';
import type { ModelToolContext } from '../model-tool';
import type { RcpCallPlan, RcpModelTool, RcpToolInput } from '../rcp-model-tools';
import { frozenCopy } from './frozen';

/** Refuses a selection in a stage the tool is not part of (used by `createRcpRegistry`). */
export type RcpStageGuard = (toolId: string, stageId: string) => void;

/** The model tool of one entry of a tool set: its id is the entry's name (internal to the bridge). */
export function toRcpModelTool<Context>(
  client: Pick<RcpClient<Context>, 'execute'>,
  { name: id, tool }: RcpToolSetEntry,
  guard?: RcpStageGuard,
): RcpModelTool<Context> {
  const definition: RcpModelTool<Context> = {
    id,
    description: tool.description,
    inputSchema: Object.freeze({
      jsonSchema: tool.inputSchema,
      parse: (value: unknown): RcpToolInput => validateArguments(tool, value),
    }),
    resolve(input: RcpToolInput, context: ModelToolContext): RcpCallPlan<Context> {
      const stageId = (context as ModelToolContext | undefined)?.stageId;
      if (typeof stageId !== 'string') {
        throw new RcpError('RCP_INVALID_OPTIONS', 'resolve() needs a context with a string stageId.');
      }
      guard?.(id, stageId);
      // The registry has parsed already; checking again costs little and means a plan can
      // never hold arguments the tool's schema refuses, whatever registry called us.
      const validated = validateArguments(tool, input);
      let frozenInput: RcpToolInput;
      try {
        frozenInput = frozenCopy({ ...validated });
      } catch (error) {
        if (isRcpError(error)) throw error;
        throw new RcpInvalidArgumentsError(id, [{ path: '', message: 'must be plain JSON data' }], { cause: error });
      }
      const plan: RcpCallPlan<Context> = {
        toolId: id,
        stageId,
        input: frozenInput,
        tool,
        execute: (...rest) => client.execute(tool, frozenInput, ...rest),
      };
      return Object.freeze(plan);
    },
  };
  return Object.freeze(definition);
}
