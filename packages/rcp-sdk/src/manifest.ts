/**
 * `rcp-sdk/manifest`: everything `rcp-manifest` exports — the manifest schema (TypeBox), the
 * version gate, `parseManifest` / `safeParseManifest`, `defineManifest`, response mappings and
 * the manifest errors.
 * Re-exports only; every name is listed explicitly and kept equal to `rcp-manifest`'s own
 * exports (a test checks it).
 *
 * @example
 * ```ts
 * import { parseManifest } from 'rcp-sdk/manifest';
 *
 * const manifest = parseManifest(await (await fetch('https://example.com/rcp/manifest')).json());
 * console.log(manifest.tools.map((tool) => tool.name));
 * ```
 *
 * @packageDocumentation
 */
export {
  RCP_VERSIONS,
  isSupportedVersion,
  RcpManifestSchema,
  RcpToolSchema,
  RcpParamSchema,
  RcpAuthSchema,
  RcpValueSchema,
  RcpEffectsSchema,
  RcpOAuthHintSchema,
  RcpPaginationSchema,
  toolEffects,
  parseManifest,
  safeParseManifest,
  prepareManifest,
  loadFilterEngine,
  DEFAULT_MANIFEST_LIMITS,
  defineManifest,
  compileResponseMappings,
  toolParams,
  compileValueCheck,
  hasValueDetails,
  hasType,
  expectedType,
  compileArgumentCheck,
  readArguments,
  RcpVersionError,
  RcpManifestError,
  RcpManifestLimitError,
  RcpError,
  isRcpError,
  isToolName,
  TOOL_NAME_PATTERN,
  FORBIDDEN_HEADER_NAMES,
  isForbiddenHeaderName,
  PARAM_TYPES,
  RESERVED_PARAM_NAMES,
  TOOL_NAME_MAX_LENGTH,
  TOOL_NAME_RULE,
  MEDIA_TYPE_PATTERN,
  MEDIA_RANGE_PATTERN,
  isJsonMediaType,
} from 'rcp-manifest';
export type {
  RcpVersion,
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
  RcpToolEffects,
  RcpPagination,
  RcpIdempotency,
  RcpStream,
  RcpOperation,
  RcpGroup,
  RcpOutputSchema,
  ParseManifestOptions,
  RcpFilterEngine,
  SafeParseManifestResult,
  DefineManifestOptions,
  NoUnknownKeys,
  UnknownManifestKey,
  CompiledResponseMappings,
  ToolParam,
  ValueCheck,
  ArgumentCheck,
  ArgumentCheckResult,
  ReadArgumentsResult,
  ManifestIssue,
  ManifestLimit,
  RcpErrorCode,
  RcpErrorOptions,
  RcpErrorOf,
} from 'rcp-manifest';
