export { createRcpServer } from './create-rcp-server';
export type { RcpServer, RcpServerOptions, VerifyHook } from './create-rcp-server';
export { defineTool } from './define-tool';
export type { ServerTool, ServerParam, ToolCall, ToolHandler } from './define-tool';
export { bearerAuth, bearerToken, tokensEqual } from './bearer-auth';
export { problemResponse } from './problem';
export type { ProblemDetails, ProblemIssue } from './problem';
export { RcpError, isRcpError } from 'rcp-errors';
export type { RcpErrorCode, RcpErrorOptions, RcpErrorOf } from 'rcp-errors';
