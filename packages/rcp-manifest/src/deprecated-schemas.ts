// The TypeBox schema values, still exported from the main entry for one minor (deprecated).
//
// Their home is `rcp-manifest/schema`. An ES module cannot hand out a named export lazily, so
// while the main entry exports them they are built when it is imported; the build bundles the
// few TypeBox builders they use (tsup.config.ts), so that costs one small module instead of
// TypeBox's ~200 files. The next minor removes these lines and the main entry loads no schema.
import * as schema from './manifest-schema';

/**
 * TypeBox schema of the whole manifest.
 *
 * @deprecated Import it from `rcp-manifest/schema` (the same value); the main entry stops
 * exporting it in the next minor so that importing `rcp-manifest` builds no schema.
 *
 * @example
 * ```ts
 * import { RcpManifestSchema } from 'rcp-manifest/schema';
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(RcpManifestSchema, { rcpVersion: '0.1', name: 'x', baseUrl: 'https://api.example.com', tools: [] })
 * ```
 */
export const RcpManifestSchema: typeof schema.RcpManifestSchema = schema.RcpManifestSchema;

/**
 * TypeBox schema of one tool.
 *
 * @deprecated Import it from `rcp-manifest/schema` (the same value); the main entry stops
 * exporting it in the next minor so that importing `rcp-manifest` builds no schema.
 *
 * @example
 * ```ts
 * import { RcpToolSchema } from 'rcp-manifest/schema';
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(RcpToolSchema, { name: 'get_note', description: 'Gets a note.', method: 'GET', url: '/notes' })
 * ```
 */
export const RcpToolSchema: typeof schema.RcpToolSchema = schema.RcpToolSchema;

/**
 * TypeBox schema of one declared param.
 *
 * @deprecated Import it from `rcp-manifest/schema` (the same value); the main entry stops
 * exporting it in the next minor so that importing `rcp-manifest` builds no schema.
 *
 * @example
 * ```ts
 * import { RcpParamSchema } from 'rcp-manifest/schema';
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(RcpParamSchema, { name: 'query', type: 'string', required: true }); // true
 * ```
 */
export const RcpParamSchema: typeof schema.RcpParamSchema = schema.RcpParamSchema;

/**
 * TypeBox schema of an auth declaration.
 *
 * @deprecated Import it from `rcp-manifest/schema` (the same value); the main entry stops
 * exporting it in the next minor so that importing `rcp-manifest` builds no schema.
 *
 * @example
 * ```ts
 * import { RcpAuthSchema } from 'rcp-manifest/schema';
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(RcpAuthSchema, { type: 'none' })
 * ```
 */
export const RcpAuthSchema: typeof schema.RcpAuthSchema = schema.RcpAuthSchema;

/**
 * TypeBox schema of a nested value schema.
 *
 * @deprecated Import it from `rcp-manifest/schema` (the same value); the main entry stops
 * exporting it in the next minor so that importing `rcp-manifest` builds no schema.
 *
 * @example
 * ```ts
 * import { RcpValueSchema } from 'rcp-manifest/schema';
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(RcpValueSchema, { type: 'string' }); // true
 * ```
 */
export const RcpValueSchema: typeof schema.RcpValueSchema = schema.RcpValueSchema;

/**
 * TypeBox schema of a tool's declared effects.
 *
 * @deprecated Import it from `rcp-manifest/schema` (the same value); the main entry stops
 * exporting it in the next minor so that importing `rcp-manifest` builds no schema.
 *
 * @example
 * ```ts
 * import { RcpEffectsSchema } from 'rcp-manifest/schema';
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(RcpEffectsSchema, { destructive: true }); // true
 * ```
 */
export const RcpEffectsSchema: typeof schema.RcpEffectsSchema = schema.RcpEffectsSchema;

/**
 * TypeBox schema of a header auth's OAuth hint.
 *
 * @deprecated Import it from `rcp-manifest/schema` (the same value); the main entry stops
 * exporting it in the next minor so that importing `rcp-manifest` builds no schema.
 *
 * @example
 * ```ts
 * import { RcpOAuthHintSchema } from 'rcp-manifest/schema';
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(RcpOAuthHintSchema, { scopes: ['notes.read'] }); // true
 * ```
 */
export const RcpOAuthHintSchema: typeof schema.RcpOAuthHintSchema = schema.RcpOAuthHintSchema;

/**
 * TypeBox schema of a tool's pagination.
 *
 * @deprecated Import it from `rcp-manifest/schema` (the same value); the main entry stops
 * exporting it in the next minor so that importing `rcp-manifest` builds no schema.
 *
 * @example
 * ```ts
 * import { RcpPaginationSchema } from 'rcp-manifest/schema';
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(RcpPaginationSchema, { nextCursor: '@meta.next', param: 'cursor' }); // true
 * ```
 */
export const RcpPaginationSchema: typeof schema.RcpPaginationSchema = schema.RcpPaginationSchema;
