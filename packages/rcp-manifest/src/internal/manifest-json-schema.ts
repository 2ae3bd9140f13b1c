import { RcpManifestSchema } from '../manifest-schema';

/** Where the schema file is published (the `$id` editors see). */
export const MANIFEST_SCHEMA_ID = 'https://unpkg.com/rcp-manifest/rcp-manifest.schema.json';

/**
 * The JSON Schema document shipped as `rcp-manifest.schema.json`: the TypeBox manifest schema
 * (TypeBox's symbol markers dropped) with `$schema` and `$id`. Draft-07, the draft editors
 * support best; every keyword TypeBox emits here is valid draft-07.
 */
export function manifestJsonSchema(): Record<string, unknown> {
  const schema = JSON.parse(JSON.stringify(RcpManifestSchema)) as Record<string, unknown>;
  return { $schema: 'http://json-schema.org/draft-07/schema#', $id: MANIFEST_SCHEMA_ID, ...schema };
}
