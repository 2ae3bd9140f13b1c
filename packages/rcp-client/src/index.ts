export { createRcpClient } from './create-rcp-client';
export { approve, RcpApprovalDeniedError, RcpApprovalMismatchError, RcpApprovalRequiredError } from './approval';
export type {
  RcpApproval,
  RcpApprovalDecision,
  RcpApprovalInfo,
  RcpApprovalPolicy,
  RcpApprovalRequest,
  RcpApprovalVerdict,
  RcpToolEffects,
} from './approval';
export { createMemoryApprovalLedger } from './approval-ledger';
export type { RcpApprovalLedger, RcpMemoryApprovalLedgerOptions } from './approval-ledger';
export type {
  RcpClient,
  RcpDiscovery,
  RcpDiscoveryWarning,
  RcpDiscoveryWarningCause,
  RcpDecideOptions,
  RcpDiscoverOptions,
  RcpExecuteOptions,
  RcpLoadOptions,
  RcpObservedResponse,
  RcpStreamProgress,
  RcpResumeOptions,
  RcpPreparedRequest,
  RcpReviewOptions,
  RcpContextArgs,
  RcpToolSource,
} from './client-types';
export type { RcpContextClient } from './context-client';
export type { RcpCallOutcome, RcpExecuteResult, RcpMedia, RcpPage, RcpPending, RcpToolCall } from './call-outcome';
export { toModelResult, toModelText } from './to-model-result';
export type { ModelError, ModelErrorCode, ModelMedia, ModelPage, ModelPending, ModelResult } from './to-model-result';
export type { RcpRetryOptions, RcpRetryReason } from './retry-options';
export type { RcpHooks, RcpHookEvent, RcpTracer, RcpSpan, RcpSpanAttributes } from './hooks';
export type {
  RcpClientOptions,
  RcpResolver,
  RcpResolverInfo,
  RcpFileResolver,
  RcpFileResolverInfo,
  RcpResolvedFile,
  RcpCredentialsProvider,
  RcpCredentialsInfo,
  RcpUnauthorizedInfo,
  RcpUnauthorizedHandler,
  RcpHeaderAuth,
  RcpQueryAuth,
  RcpResultInspection,
  RcpResultInspector,
  RcpResultVerdict,
} from './client-options';
export type { RcpClientTool, RcpClientToolParam, RcpInputSchema, RcpInputSchemaProperty, RcpToolGroup } from './client-tool';
export { createToolSet, toolCountWarning } from './tool-set';
export { createStages } from './stages';
export { classifyHost } from './internal/trust/address-class';
export type { AddressClass as RcpAddressClass } from './internal/trust/address-class';
export type { RcpStages, RcpTurn } from './stages';
export type { RcpToolSet, RcpToolSetEntry, RcpToolSetGroup, RcpToolSetOptions, RcpToolFilter, RcpNamespace } from './tool-set';
export { validateArguments } from './validate-arguments';
export { parseToolArguments } from './parse-tool-arguments';
export { CHECK_OPERATION_TOOL, checkOperation } from './check-operation';
export { jsonSchemaCopy } from './json-schema-copy';
export type { RcpJsonSchema, RcpJsonSchemaProperty, RcpJsonValue } from './json-schema-copy';
export { describeManifest, describeAuth } from './describe-manifest';
export { RcpInvalidArgumentsError } from './invalid-arguments-error';
export type { RcpArgumentIssue } from './invalid-arguments-error';
export { RcpResolverError } from './resolver-error';
export { RcpHttpError } from './http-error';
export { RcpResponseError } from './response-error';
export type { RcpResponseProblem } from './response-error';
export { RcpBindingError } from './binding-error';
export { RcpToolNotInStageError, RcpUnknownToolError } from './unknown-tool-error';
export { RcpError, escapeUnsafeText, isRcpError } from 'rcp-errors';
export type { EscapeUnsafeTextOptions, RcpErrorCode, RcpErrorOptions, RcpErrorOf, RcpErrorFields, RcpIssue, RcpAuthChallenge } from 'rcp-errors';
export type {
  RcpManifest,
  RcpAuth,
  RcpParamType,
  RcpValueType,
  RcpHttpMethod,
  RcpDeclaredEffects,
  RcpOAuthHint,
  RcpOutputSchema,
  RcpPagination,
  RcpGroup,
} from 'rcp-manifest';
export { toolEffects } from 'rcp-manifest';
