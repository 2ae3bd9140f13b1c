/**
 * `rcp-sdk/client`: everything `rcp-client` exports — `createRcpClient` (discover, prepare,
 * execute, call), `toModelResult`, `validateArguments`, `describeManifest` and the client errors.
 * Re-exports only; every name is listed explicitly and kept equal to `rcp-client`'s own
 * exports (a test checks it).
 *
 * @example
 * ```ts
 * import { createRcpClient, describeManifest } from 'rcp-sdk/client';
 *
 * const client = createRcpClient({ resolvers: { userId: (ctx) => ctx.currentUserId } });
 * const { manifest, tools } = await client.discover('https://example.com/rcp/manifest');
 * console.log(describeManifest(manifest, tools));
 * ```
 *
 * @packageDocumentation
 */
export {
  createRcpClient,
  approve,
  RcpApprovalDeniedError,
  RcpApprovalMismatchError,
  RcpApprovalRequiredError,
  validateArguments,
  describeManifest,
  terminalText,
  terminalLines,
  terminalJson,
  terminalStrings,
  annotationMessage,
  annotationProperty,
  RcpInvalidArgumentsError,
  RcpResolverError,
  RcpHttpError,
  RcpBindingError,
  RcpUnknownToolError,
  RcpToolNotInStageError,
  toModelResult,
  createToolSet,
  toolCountWarning,
  RcpError,
  isRcpError,
} from 'rcp-client';
export type {
  RcpClient,
  RcpApproval,
  RcpApprovalDecision,
  RcpApprovalInfo,
  RcpApprovalPolicy,
  RcpApprovalRequest,
  RcpApprovalVerdict,
  RcpToolEffects,
  RcpDiscovery,
  RcpDiscoveryWarning,
  RcpDiscoverOptions,
  RcpExecuteOptions,
  RcpLoadOptions,
  RcpObservedResponse,
  RcpExecuteResult,
  RcpPreparedRequest,
  RcpContextArgs,
  RcpToolSource,
  RcpCallOutcome,
  RcpToolCall,
  ModelErrorCode,
  ModelResult,
  RcpToolSet,
  RcpToolSetEntry,
  RcpToolSetOptions,
  RcpToolFilter,
  RcpNamespace,
  RcpClientOptions,
  RcpRetryOptions,
  RcpRetryReason,
  RcpHooks,
  RcpTracer,
  RcpSpan,
  RcpSpanAttributes,
  RcpHookEvent,
  RcpResolver,
  RcpResolverInfo,
  RcpCredentialsProvider,
  RcpCredentialsInfo,
  RcpUnauthorizedInfo,
  RcpUnauthorizedHandler,
  RcpHeaderAuth,
  RcpQueryAuth,
  RcpClientTool,
  RcpClientToolParam,
  RcpInputSchema,
  RcpInputSchemaProperty,
  RcpArgumentIssue,
  RcpErrorCode,
  RcpErrorOptions,
  RcpErrorOf,
  RcpErrorFields,
  RcpIssue,
  RcpAuthChallenge,
  RcpManifest,
  RcpAuth,
  RcpParamType,
  RcpHttpMethod,
} from 'rcp-client';
