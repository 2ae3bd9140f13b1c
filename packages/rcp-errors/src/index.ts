export { RcpError, brandRcpErrorClass, isRcpError } from './rcp-error';
export type { RcpErrorOptions, RcpErrorOf } from './rcp-error';
export type { RcpAuthChallenge, RcpErrorFields, RcpErrorFieldsOf, RcpIssue } from './error-fields';
export { RCP_ERROR_CODES } from './codes';
export type { RcpErrorCode } from './codes';
export { REDACTED, blankUnsafeText, escapeUnsafeText } from './shown-text';
export type { EscapeUnsafeTextOptions } from './shown-text';
