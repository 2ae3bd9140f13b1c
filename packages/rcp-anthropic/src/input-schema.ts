import type { RcpInputSchema, RcpInputSchemaProperty } from 'rcp-client';

/**
 * A Messages API tool's `input_schema`: a JSON Schema (draft 2020-12) object. A type alias, not
 * an interface, so it is assignable to the SDK's `Tool.InputSchema` (an index signature).
 *
 * @example
 * ```ts
 * const schema: AnthropicInputSchema = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'], additionalProperties: false };
 * ```
 */
export type AnthropicInputSchema = {
  type: 'object';
  properties: Record<string, unknown>;
  required: string[];
  additionalProperties: false;
};

/**
 * The keywords of a model-facing schema that a non-strict `input_schema` carries, each as it
 * is. Anthropic documents `input_schema` as JSON Schema draft 2020-12
 * (https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools) and restricts the
 * keyword set only for strict tools (`strict: true`,
 * https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations),
 * which RCP does not send. So every keyword the client's model-facing schema can hold is here; a
 * keyword it may hold one day is not sent until this table names it.
 */
const INPUT_SCHEMA_KEYWORDS = [
  'type',
  'description',
  'enum',
  'format',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'default',
  'required',
  'additionalProperties',
] as const;

/**
 * Projects a tool's model-facing schema onto Anthropic's non-strict `input_schema` (docs/behaviour.md,
 * the Anthropic table): every keyword of {@link INPUT_SCHEMA_KEYWORDS}, `items` and
 * `properties` at every level, as they are — the bounds, lengths, `pattern`, `format` and
 * `default` all reach the model. The client's own argument validation checks each call anyway,
 * before any request. A fresh, mutable copy.
 *
 * @example
 * ```ts
 * toAnthropicInputSchema({ type: 'object', properties: { q: { type: 'string', maxLength: 80 } }, required: ['q'], additionalProperties: false });
 * // { type: 'object', properties: { q: { type: 'string', maxLength: 80 } }, required: ['q'], additionalProperties: false }
 * ```
 */
export function toAnthropicInputSchema(schema: RcpInputSchema): AnthropicInputSchema {
  return { type: 'object', properties: projectProperties(schema.properties), required: [...schema.required], additionalProperties: false };
}

/** Each property of an object, projected. */
function projectProperties(properties: Readonly<Record<string, RcpInputSchemaProperty>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) out[name] = project(property);
  return out;
}

/** One value: the table's keywords, then its `items` / `properties`, projected in turn. */
function project(property: RcpInputSchemaProperty): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of INPUT_SCHEMA_KEYWORDS) if (property[key] !== undefined) out[key] = structuredClone(property[key]);
  if (property.items !== undefined) out['items'] = project(property.items);
  if (property.properties !== undefined) out['properties'] = projectProperties(property.properties);
  return out;
}
