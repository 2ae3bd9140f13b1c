import type { RcpParam, RcpParamType, RcpValue } from 'rcp-manifest';
import type { RcpInputSchemaProperty } from '../../client-tool';

/** The value details a model-facing schema copies as the manifest gives them. */
const DETAIL_KEYS = ['format', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'default'] as const;

/**
 * The model-facing JSON Schema of a param or a nested value: its type and description, and every
 * value detail the manifest gives (an object with properties gets `additionalProperties: false`,
 * which is what the client enforces). Frozen; the manifest's own frozen lists are shared.
 */
export function modelSchemaOf(schema: RcpParam | RcpValue, type: RcpParamType, description: string | undefined): RcpInputSchemaProperty {
  if (type === 'file') return fileSchemaOf(schema as RcpParam, description);
  const out: Record<string, unknown> = { type };
  if (description) out['description'] = description;
  if (schema.enum !== undefined) out['enum'] = schema.enum;
  if (schema.items !== undefined) out['items'] = modelSchemaOf(schema.items, schema.items.type, schema.items.description);
  if (schema.properties !== undefined) {
    const properties: Record<string, RcpInputSchemaProperty> = {};
    for (const [key, value] of Object.entries(schema.properties)) {
      Object.defineProperty(properties, key, { value: modelSchemaOf(value, value.type, value.description), enumerable: true });
    }
    out['properties'] = Object.freeze(properties);
  }
  const required = 'requiredProperties' in schema ? schema.requiredProperties : Array.isArray(schema.required) ? schema.required : undefined;
  if (required !== undefined && required.length > 0) out['required'] = required;
  if (schema.properties !== undefined) out['additionalProperties'] = false;
  for (const key of DETAIL_KEYS) {
    if (schema[key] !== undefined) out[key] = schema[key];
  }
  return Object.freeze(out) as unknown as RcpInputSchemaProperty;
}

/** What the model is told a file param takes, after the param's own description. */
export const FILE_PARAM_NOTE = "An attachment reference: the id or URI of a file you were given in this conversation, never a path or the file's content.";

/**
 * A file param (RCP 0.4) as the model sees it: a string, described as an attachment reference,
 * marked `x-rcp-file` with the param's accepted media types and size (for a gateway or adapter
 * that maps it to its host's file marker).
 */
function fileSchemaOf(param: RcpParam, description: string | undefined): RcpInputSchemaProperty {
  const marker: { mediaTypes?: readonly string[]; maxBytes?: number } = {};
  if (param.mediaTypes !== undefined) marker.mediaTypes = param.mediaTypes;
  if (param.maxBytes !== undefined) marker.maxBytes = param.maxBytes;
  return Object.freeze({
    type: 'string',
    description: description ? `${description} ${FILE_PARAM_NOTE}` : FILE_PARAM_NOTE,
    'x-rcp-file': Object.freeze(marker),
  }) as RcpInputSchemaProperty;
}
