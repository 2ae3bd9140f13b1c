export { RCP_VERSIONS, isSupportedVersion } from './versions';
export type { RcpVersion } from './versions';
export {
  RcpManifestSchema,
  RcpToolSchema,
  RcpParamSchema,
  RcpAuthSchema,
  RcpValueSchema,
  RcpEffectsSchema,
  RcpOAuthHintSchema,
  RcpPaginationSchema,
} from './deprecated-schemas';
export type {
  RcpManifest,
  RcpTool,
  RcpParam,
  RcpParamType,
  RcpValueType,
  RcpValue,
  RcpAuth,
  RcpHttpMethod,
  RcpDeclaredEffects,
  RcpOAuthHint,
  RcpPagination,
  RcpIdempotency,
  RcpStream,
  RcpOperation,
  RcpGroup,
} from './manifest-schema';
export { toolEffects } from './tool-effects';
export type { RcpToolEffects } from './tool-effects';
export { compileValueCheck, hasValueDetails, hasType, expectedType, PARAM_TYPES } from './value-check';
export { compileArgumentCheck, readArguments } from './argument-check';
export type { ArgumentCheck, ArgumentCheckResult, ReadArgumentsResult } from './argument-check';
export type { ValueCheck } from './value-check';
export { parseManifest, safeParseManifest, DEFAULT_MANIFEST_LIMITS } from './parse-manifest';
export type { ParseManifestOptions, SafeParseManifestResult } from './parse-manifest';
export { prepareManifest } from './prepare-manifest';
export { loadFilterEngine } from './internal/filter-engine';
export type { RcpFilterEngine } from './internal/filter-engine';
export { defineManifest } from './define-manifest';
export type { DefineManifestOptions, NoUnknownKeys, UnknownManifestKey } from './define-manifest';
export { compileResponseMappings } from './compile-response-mappings';
export type { CompiledResponseMappings, RcpOutputSchema } from './compile-response-mappings';
export { toolParams } from './tool-params';
export type { ToolParam } from './tool-params';
export { RcpVersionError, RcpManifestError, RcpManifestLimitError } from './manifest-errors';
export type { ManifestIssue, ManifestLimit } from './manifest-errors';
export { RcpError, isRcpError } from 'rcp-errors';
export type { RcpErrorCode, RcpErrorOptions, RcpErrorOf } from 'rcp-errors';
export { isToolName, RESERVED_PARAM_NAMES, TOOL_NAME_MAX_LENGTH, TOOL_NAME_PATTERN, TOOL_NAME_RULE } from './tool-name';
export { FORBIDDEN_HEADER_NAMES, isForbiddenHeaderName } from './forbidden-headers';
export { MEDIA_RANGE_PATTERN, MEDIA_TYPE_PATTERN, isJsonMediaType } from './media-types';
