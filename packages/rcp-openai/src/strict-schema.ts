import type { RcpInputSchema, RcpInputSchemaProperty } from 'rcp-client';

/** A JSON Schema object as OpenAI's `parameters` takes it. */
export type OpenAIParameters = Record<string, unknown>;

/**
 * A tool's model-facing schema for OpenAI, and whether strict mode can take it.
 *
 * @example
 * ```ts
 * const { parameters, strict }: OpenAIToolSchema = toOpenAISchema(tool.inputSchema, { strict: true });
 * ```
 */
export interface OpenAIToolSchema {
  readonly parameters: OpenAIParameters;
  readonly strict: boolean;
}

/**
 * Converts a model-facing schema for OpenAI. With `strict`, every property is listed in
 * `required`, optional ones become nullable (`["string", "null"]`: RCP reads `null` as "not
 * given"), and `additionalProperties` is `false` — OpenAI's strict-mode rules, applied at every
 * level. An `array` param without `items` or an `object` one without `properties` (RCP 0.2
 * details) cannot be strict: the schema is then sent as is with `strict: false`. Value details
 * (`enum`, bounds, `pattern`, `format` …) are kept; `default` only outside strict mode. A fresh,
 * mutable copy either way.
 *
 * @example
 * ```ts
 * toOpenAISchema({ type: 'object', properties: { q: { type: 'string' }, n: { type: 'integer' } }, required: ['q'], additionalProperties: false }, { strict: true });
 * // { strict: true, parameters: { type: 'object', properties: { q: { type: 'string' }, n: { type: ['integer', 'null'] } }, required: ['q', 'n'], additionalProperties: false } }
 * ```
 */
export function toOpenAISchema(schema: RcpInputSchema, options: { strict: boolean }): OpenAIToolSchema {
  const names = Object.keys(schema.properties);
  const canBeStrict = options.strict && names.every((name) => isClosed(schema.properties[name]!));
  if (!canBeStrict) {
    return {
      strict: false,
      parameters: { type: 'object', properties: structuredClone(schema.properties), required: [...schema.required], additionalProperties: false },
    };
  }
  return { strict: true, parameters: strictObject(schema.properties, schema.required) };
}

/** Whether strict mode can take a schema: every array has `items`, every object `properties` (RCP 0.2 details). */
function isClosed(property: RcpInputSchemaProperty): boolean {
  if (property.type === 'array') return property.items !== undefined && isClosed(property.items);
  if (property.type === 'object') return property.properties !== undefined && Object.values(property.properties).every(isClosed);
  return true;
}

/** An object in strict form: every property required, the optional ones nullable, no other key. */
function strictObject(properties: Readonly<Record<string, RcpInputSchemaProperty>>, required: readonly string[]): OpenAIParameters {
  const out: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) out[name] = strictValue(property, !required.includes(name));
  return { type: 'object', properties: out, required: Object.keys(properties), additionalProperties: false };
}

/** One value in strict form; `default` is left out (strict mode has no use for it). */
function strictValue(property: RcpInputSchemaProperty, nullable: boolean): Record<string, unknown> {
  const { type, items, properties, required, additionalProperties: _closed, default: _default, enum: values, ...rest } = property;
  const out: Record<string, unknown> =
    type === 'object' && properties !== undefined ? strictObject(properties, required ?? []) : { type, ...structuredClone(rest) };
  if (type === 'object' && properties !== undefined && rest.description !== undefined) out['description'] = rest.description;
  if (items !== undefined) out['items'] = strictValue(items, false);
  if (values !== undefined) out['enum'] = nullable ? [...values, null] : [...values];
  if (nullable) out['type'] = [type, 'null'];
  return out;
}
