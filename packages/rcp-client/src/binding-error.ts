import { RcpError } from 'rcp-errors';

/**
 * Thrown by `client.discover()` when a param's binding to a resolver looks wrong, so a value
 * the operator meant to fill cannot silently become one the model chooses:
 *
 * - `RCP_RESOLVER_MISMATCH`: a registered resolver's name matches a declared param only up to
 *   case, `_` / `-`, or one edit (`userID` or `user_id` for `userId`). `resolver` names it.
 * - `RCP_UNBOUND_PARAM`: a param that `requireResolved` says must be resolved has no resolver.
 *
 * `path` is a JSON Pointer to the param in the manifest. Neither carries a value.
 *
 * @example
 * ```ts
 * import { isRcpError } from 'rcp-client';
 * try {
 *   await client.discover('https://notes.example.com/rcp/manifest');
 * } catch (error) {
 *   if (isRcpError(error, 'RCP_RESOLVER_MISMATCH')) console.error(`rename resolver ${error.resolver} to ${error.param}`);
 * }
 * ```
 */
export class RcpBindingError extends RcpError<'RCP_RESOLVER_MISMATCH' | 'RCP_UNBOUND_PARAM'> {
  /** The tool that declares the param. */
  readonly tool: string;
  /** The declared param. */
  readonly param: string;
  /** JSON Pointer to the param in the manifest (`/tools/0/params/1`). */
  readonly path: string;
  /** The near-miss resolver name (`RCP_RESOLVER_MISMATCH` only; `''` otherwise). */
  readonly resolver: string;

  constructor(code: 'RCP_RESOLVER_MISMATCH' | 'RCP_UNBOUND_PARAM', message: string, details: { tool: string; param: string; path: string; resolver?: string }) {
    super(code, message);
    this.tool = details.tool;
    this.param = details.param;
    this.path = details.path;
    this.resolver = details.resolver ?? '';
  }
}
