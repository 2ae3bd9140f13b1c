/**
 * Every stable error code the RCP SDK throws. Codes never change meaning between
 * versions; new codes may be added. Match on `error.code`, never on `error.message`.
 *
 * @example
 * ```ts
 * import { isRcpError } from 'rcp-errors';
 * try { await client.execute(tool, args, ctx); }
 * catch (error) { if (isRcpError(error, 'RCP_UNRESOLVED')) askUserToSignIn(); }
 * ```
 */
export type RcpErrorCode =
  // rcp-template
  | 'RCP_TEMPLATE_SYNTAX'
  | 'RCP_TEMPLATE_VALUE'
  | 'RCP_TEMPLATE_MISSING'
  // rcp-manifest
  | 'RCP_UNSUPPORTED_VERSION'
  | 'RCP_INVALID_MANIFEST'
  | 'RCP_MANIFEST_LIMIT'
  // rcp-client
  | 'RCP_INVALID_OPTIONS'
  | 'RCP_DISCOVERY_FAILED'
  | 'RCP_RESOLVER_MISMATCH'
  | 'RCP_UNBOUND_PARAM'
  | 'RCP_INVALID_ARGUMENTS'
  | 'RCP_UNRESOLVED'
  | 'RCP_RESOLVER_FAILED'
  | 'RCP_MISSING_CREDENTIALS'
  | 'RCP_ORIGIN_NOT_ALLOWED'
  | 'RCP_RESPONSE_TOO_LARGE'
  | 'RCP_TIMEOUT'
  | 'RCP_ABORTED'
  | 'RCP_HTTP_ERROR'
  | 'RCP_NETWORK_ERROR'
  | 'RCP_INVALID_RESPONSE'
  // rcp-agent-core-bridge
  | 'RCP_UNKNOWN_TOOL'
  | 'RCP_TOOL_NOT_IN_STAGE'
  | 'RCP_INVALID_TOOL'
  // approval (rcp-client)
  | 'RCP_APPROVAL_REQUIRED'
  | 'RCP_APPROVAL_DENIED'
  | 'RCP_APPROVAL_MISMATCH'
  // long-running operations (rcp-client, RCP 0.4)
  | 'RCP_OPERATION_FAILED'
  | 'RCP_INVALID_HANDLE';

/**
 * The list of every {@link RcpErrorCode}, for exhaustive checks and documentation.
 *
 * @example
 * ```ts
 * import { RCP_ERROR_CODES } from 'rcp-errors';
 * RCP_ERROR_CODES.includes('RCP_TIMEOUT'); // true
 * ```
 */
export const RCP_ERROR_CODES: readonly RcpErrorCode[] = Object.freeze([
  'RCP_TEMPLATE_SYNTAX',
  'RCP_TEMPLATE_VALUE',
  'RCP_TEMPLATE_MISSING',
  'RCP_UNSUPPORTED_VERSION',
  'RCP_INVALID_MANIFEST',
  'RCP_MANIFEST_LIMIT',
  'RCP_INVALID_OPTIONS',
  'RCP_DISCOVERY_FAILED',
  'RCP_RESOLVER_MISMATCH',
  'RCP_UNBOUND_PARAM',
  'RCP_INVALID_ARGUMENTS',
  'RCP_UNRESOLVED',
  'RCP_RESOLVER_FAILED',
  'RCP_MISSING_CREDENTIALS',
  'RCP_ORIGIN_NOT_ALLOWED',
  'RCP_RESPONSE_TOO_LARGE',
  'RCP_TIMEOUT',
  'RCP_ABORTED',
  'RCP_HTTP_ERROR',
  'RCP_NETWORK_ERROR',
  'RCP_INVALID_RESPONSE',
  'RCP_UNKNOWN_TOOL',
  'RCP_TOOL_NOT_IN_STAGE',
  'RCP_INVALID_TOOL',
  'RCP_APPROVAL_REQUIRED',
  'RCP_APPROVAL_DENIED',
  'RCP_APPROVAL_MISMATCH',
  'RCP_OPERATION_FAILED',
  'RCP_INVALID_HANDLE',
] as const);
