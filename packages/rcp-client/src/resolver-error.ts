import { RcpError } from 'rcp-errors';

/**
 * Thrown when a resolver cannot fill its param, before any HTTP request:
 *
 * - `RCP_UNRESOLVED`: the resolver returned `undefined` or `null` (nothing to resolve from,
 *   e.g. no signed-in user behind this turn).
 * - `RCP_RESOLVER_FAILED`: the resolver threw (kept as `cause`) or returned a value of the
 *   wrong type for the param.
 *
 * `param` names the param; neither the message nor any field ever contains the value.
 *
 * @example
 * ```ts
 * import { isRcpError } from 'rcp-client';
 * try {
 *   await client.execute(tool, args, { currentUserId: undefined });
 * } catch (error) {
 *   if (isRcpError(error, 'RCP_UNRESOLVED')) askUserToSignIn();
 * }
 * ```
 */
export class RcpResolverError extends RcpError<'RCP_UNRESOLVED' | 'RCP_RESOLVER_FAILED'> {
  /** The tool being executed. */
  readonly tool: string;
  /** The resolver-bound param that could not be filled. */
  readonly param: string;

  constructor(code: 'RCP_UNRESOLVED' | 'RCP_RESOLVER_FAILED', message: string, details: { tool: string; param: string; cause?: unknown }) {
    super(code, message, 'cause' in details ? { cause: details.cause } : {});
    this.tool = details.tool;
    this.param = details.param;
  }
}
