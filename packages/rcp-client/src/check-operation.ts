import { isRcpError } from 'rcp-errors';
import type { RcpResumeOptions, RcpToolSource } from './client-types';
import type { RcpToolSetEntry } from './tool-set';
import type { RcpContextClient } from './context-client';
import { RcpInvalidArgumentsError } from './invalid-arguments-error';
import { toModelResult, type ModelResult } from './to-model-result';

/**
 * The tool a stack offers the model beside long-running tools (RCP 0.4 `operation`, SPEC §20.8;
 * `tool.longRunning`): it checks an operation a call left pending by its handle. Each adapter
 * registers it under this name — unless a discovered tool already has the name, then not at all
 * — and runs it with {@link checkOperation}.
 *
 * @example
 * ```ts
 * if (discovery.tools.some((tool) => tool.longRunning)) tools.push(CHECK_OPERATION_TOOL);
 * ```
 */
export const CHECK_OPERATION_TOOL = Object.freeze({
  name: 'check_operation',
  description:
    'Checks a long-running tool call that answered "pending": pass the handle it returned. Answers the result when the work is done, or "pending" again with a new handle to check after checkAfterSeconds.',
  inputSchema: Object.freeze({
    type: 'object' as const,
    properties: Object.freeze({
      handle: Object.freeze({ type: 'string' as const, description: 'The handle of the pending result, exactly as it was given.' }),
    }),
    required: Object.freeze(['handle'] as const),
    additionalProperties: false as const,
  }),
});

/**
 * Runs the model's call of {@link CHECK_OPERATION_TOOL}: takes `{ handle }` (an object or its
 * JSON text), resumes the operation for `ctx` (`client.resume`) and answers what the model may
 * read — the result, `pending` again, or the error's model-safe text (`RCP_INVALID_HANDLE` for a
 * handle that is not this caller's). It never throws for an RCP error.
 *
 * @example
 * ```ts
 * const forModel = await checkOperation(client, discovery, toolCall.arguments, ctx);
 * messages.push({ role: 'tool', content: toModelText(forModel) });
 * ```
 */
export async function checkOperation<Context>(
  client: Pick<RcpContextClient<Context>, 'resume'>,
  source: RcpToolSource,
  args: unknown,
  ctx: Context,
  options?: RcpResumeOptions,
): Promise<ModelResult> {
  try {
    return toModelResult(await client.resume(source, handleOf(args), ctx, options));
  } catch (error) {
    if (isRcpError(error)) return toModelResult(error);
    throw error;
  }
}

/** The handle the model passed: `{ handle }`, as an object or JSON text. */
function handleOf(args: unknown): string {
  let value = args;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      value = undefined;
    }
  }
  const handle = typeof value === 'object' && value !== null ? (value as { handle?: unknown }).handle : undefined;
  if (typeof handle !== 'string' || handle === '') {
    throw new RcpInvalidArgumentsError(CHECK_OPERATION_TOOL.name, [{ path: '/handle', message: 'must be the handle of a pending result (a string)' }]);
  }
  return handle;
}

/**
 * Whether a stack offers the model {@link CHECK_OPERATION_TOOL} beside `entries` (a tool set's,
 * or a stage's): when one of them is long-running (`tool.longRunning`) and none already has the
 * check's name. `warning` says why not when a tool took the name — each adapter reports it the
 * way it reports its other warnings. The one rule every adapter and the gateway follow.
 *
 * @example
 * ```ts
 * const { offer, warning } = checkOperationOffer(toolSet.entries);
 * if (offer) tools.push(CHECK_OPERATION_TOOL);
 * if (warning !== undefined) console.warn(warning);
 * ```
 */
export function checkOperationOffer(entries: readonly RcpToolSetEntry[]): { readonly offer: boolean; readonly warning: string | undefined } {
  if (!entries.some(({ tool }) => tool.longRunning === true)) return NO_OFFER;
  if (!entries.some(({ name }) => name === CHECK_OPERATION_TOOL.name)) return OFFER;
  return TAKEN;
}

const NO_OFFER = Object.freeze({ offer: false, warning: undefined });
const OFFER = Object.freeze({ offer: true, warning: undefined });
const TAKEN = Object.freeze({
  offer: false,
  warning: `Tool "${CHECK_OPERATION_TOOL.name}": a tool of the set has this name, so the check of pending operations is not offered; check them in the application with client.resume`,
});
