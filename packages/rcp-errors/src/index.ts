export { RcpError, isRcpError } from './rcp-error';
export type { RcpErrorOptions } from './rcp-error';
export { RCP_ERROR_CODES } from './codes';
export type { RcpErrorCode } from './codes';
