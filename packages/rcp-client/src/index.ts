export { createRcpClient } from './create-rcp-client';
export type {
  RcpClient,
  RcpDiscovery,
  RcpDiscoveryWarning,
  RcpDiscoverOptions,
  RcpExecuteOptions,
  RcpExecuteResult,
  RcpPreparedRequest,
} from './create-rcp-client';
export type {
  RcpClientOptions,
  RcpResolver,
  RcpResolverInfo,
  RcpCredentialsProvider,
  RcpCredentialsInfo,
  RcpHeaderAuth,
} from './client-options';
export type { RcpClientTool, RcpClientToolParam, RcpInputSchema, RcpInputSchemaProperty } from './client-tool';
export { validateArguments } from './validate-arguments';
export { describeManifest } from './describe-manifest';
export { RcpInvalidArgumentsError } from './invalid-arguments-error';
export type { RcpArgumentIssue } from './invalid-arguments-error';
export { RcpResolverError } from './resolver-error';
export { RcpHttpError } from './http-error';
export { RcpError, isRcpError } from 'rcp-errors';
export type { RcpErrorCode, RcpErrorOptions } from 'rcp-errors';
export type { RcpManifest, RcpAuth, RcpParamType, RcpHttpMethod } from 'rcp-manifest';
