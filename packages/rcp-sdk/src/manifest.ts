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
  parseManifest,
  safeParseManifest,
  DEFAULT_MANIFEST_LIMITS,
  defineManifest,
  compileResponseMappings,
  toolParams,
  RcpVersionError,
  RcpManifestError,
  RcpManifestLimitError,
  RcpError,
  isRcpError,
} from 'rcp-manifest';
export type {
  RcpVersion,
  RcpManifest,
  RcpTool,
  RcpParam,
  RcpParamType,
  RcpAuth,
  RcpHttpMethod,
  ParseManifestOptions,
  SafeParseManifestResult,
  DefineManifestOptions,
  NoUnknownKeys,
  CompiledResponseMappings,
  ToolParam,
  ManifestIssue,
  ManifestLimit,
  RcpErrorCode,
  RcpErrorOptions,
  RcpErrorOf,
} from 'rcp-manifest';
