import type { RcpClientTool } from './client-tool';
import { checkArguments, compiledToolOf } from './internal/discovery/tool-registry';

/**
 * Checks a model's arguments against a discovered tool's `inputSchema`, synchronously and
 * without calling resolvers or sending anything (step 1 of `execute`). Only own enumerable
 * keys of `args` are read (`args` itself may be `undefined`, meaning `{}`); `undefined` and
 * `null` values mean "not given". Returns a fresh
 * null-prototype object holding the accepted values.
 *
 * Throws `RCP_INVALID_ARGUMENTS` ({@link RcpInvalidArgumentsError}) listing every problem: a
 * missing required argument, a wrong type, a key the tool does not accept — including a
 * param a resolver fills, which the model may never supply. Throws `RCP_INVALID_TOOL` for an
 * object that is not a tool returned by `discover`.
 *
 * @example
 * ```ts
 * import { validateArguments } from 'rcp-client';
 *
 * validateArguments(searchCourses, { query: 'algebra' }); // { query: 'algebra' }
 * validateArguments(searchCourses, { query: 1, tenant: 'x' });
 * // throws RCP_INVALID_ARGUMENTS: /query must be a string (got integer); /tenant is not a parameter of this tool
 * ```
 */
export function validateArguments(tool: RcpClientTool, args: unknown): Record<string, unknown> {
  return checkArguments(compiledToolOf(tool), args);
}
