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
  // The recursive value schema appears once, under `definitions`; each place that embeds it
  // (TypeBox inlines it with its `$id`, which may not repeat) and its own self-references point there.
  let value: Record<string, unknown> | undefined;
  const moved = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(moved);
    if (typeof node !== 'object' || node === null) return node;
    const object = node as Record<string, unknown>;
    if (object['$id'] === VALUE_ID) {
      if (value === undefined) {
        value = {};
        const { $id: _id, ...rest } = object;
        Object.assign(value, moved(rest));
      }
      return { $ref: VALUE_REF };
    }
    if (object['$ref'] === VALUE_ID) return { $ref: VALUE_REF };
    return Object.fromEntries(Object.entries(object).map(([key, entry]) => [key, moved(entry)]));
  };
  const body = moved(schema) as Record<string, unknown>;
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: MANIFEST_SCHEMA_ID,
    ...body,
    ...(value !== undefined && { definitions: { [VALUE_ID]: value } }),
  };
}

const VALUE_ID = 'RcpValue';
const VALUE_REF = `#/definitions/${VALUE_ID}`;
