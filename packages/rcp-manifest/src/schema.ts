// The `rcp-manifest/schema` entry: the manifest's TypeBox schemas as values. Kept out of the main
// entry's import graph so that validating a manifest (parseManifest, which is a hand-written walk)
// never loads TypeBox; import this entry only to check or transform values with TypeBox yourself.
export {
  RcpManifestSchema,
  RcpToolSchema,
  RcpParamSchema,
  RcpAuthSchema,
  RcpValueSchema,
  RcpEffectsSchema,
  RcpOAuthHintSchema,
  RcpPaginationSchema,
  RcpIdempotencySchema,
  RcpStreamSchema,
  RcpOperationSchema,
  RcpGroupSchema,
} from './manifest-schema';
