import { jsonSchemaCopy, type RcpInputSchema, type RcpInputSchemaProperty } from 'rcp-client';

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
 * The string formats strict mode supports (OpenAI, Structured Outputs, "Supported properties":
 * https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas). Any other
 * `format` — `uri`, or a number's `int32` — is left out of a strict schema.
 */
const STRICT_FORMATS: ReadonlySet<string> = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/**
 * The value keywords strict mode supports, copied as they are: `description`; `pattern` for
 * strings; `minimum` / `maximum` for numbers (the same guide). `type`, `enum`, `items`,
 * `properties`, `required`, `additionalProperties` and `format` are handled on their own; every
 * other keyword of the model-facing schema — `minLength`, `maxLength`, `default` — is not in
 * the supported list and is left out.
 */
const STRICT_VALUE_KEYWORDS = ['description', 'pattern', 'minimum', 'maximum'] as const;

/**
 * Projects a tool's model-facing schema onto what OpenAI accepts (docs/behaviour.md, the OpenAI table).
 *
 * With `strict`, the schema is rewritten to strict mode's rules at every level — every property
 * listed in `required`, optional ones nullable (`["string", "null"]`, `null` added to an
 * `enum`: RCP reads `null` as "not given"), `additionalProperties: false` — and keeps only the
 * keywords strict mode documents as supported: `type`, `description`, `enum`, `items`,
 * `properties`, `pattern`, `minimum`, `maximum`, and `format` when it is one of strict mode's
 * formats (`date-time`, `time`, `date`, `duration`, `email`, `hostname`, `ipv4`, `ipv6`, `uuid`).
 * `minLength`, `maxLength`, `default` and any other `format` are left out: the client's own
 * argument validation still enforces the lengths (as it does every detail) before any request,
 * so a value the model sends outside them is an `RCP_INVALID_ARGUMENTS` answer it can correct;
 * `format` and `default` are annotations the model no longer sees.
 *
 * An `array` param without `items` or an `object` one without `properties` cannot be strict (strict
 * mode needs them): the schema is then sent whole, as OpenAI's non-strict mode takes any JSON
 * Schema, with `strict: false`. Without `strict`, the same. A fresh, mutable copy either way.
 *
 * @example
 * ```ts
 * toOpenAISchema({ type: 'object', properties: { q: { type: 'string', maxLength: 80 }, n: { type: 'integer', minimum: 1 } }, required: ['q'], additionalProperties: false }, { strict: true });
 * // { strict: true, parameters: { type: 'object', properties: { q: { type: 'string' }, n: { type: ['integer', 'null'], minimum: 1 } }, required: ['q', 'n'], additionalProperties: false } }
 * ```
 */
export function toOpenAISchema(schema: RcpInputSchema, options: { strict: boolean }): OpenAIToolSchema {
  const names = Object.keys(schema.properties);
  const canBeStrict = options.strict && names.every((name) => isClosed(schema.properties[name]!));
  if (!canBeStrict) {
    return { strict: false, parameters: jsonSchemaCopy(schema) };
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

/** One value in strict form, with only the keywords strict mode supports. */
function strictValue(property: RcpInputSchemaProperty, nullable: boolean): Record<string, unknown> {
  const { type, items, properties, required, enum: values, format } = property;
  const out: Record<string, unknown> = type === 'object' && properties !== undefined ? strictObject(properties, required ?? []) : { type };
  for (const key of STRICT_VALUE_KEYWORDS) if (property[key] !== undefined) out[key] = property[key];
  if (format !== undefined && STRICT_FORMATS.has(format)) out['format'] = format;
  if (items !== undefined) out['items'] = strictValue(items, false);
  if (values !== undefined) out['enum'] = nullable ? [...values, null] : [...values];
  if (nullable) out['type'] = [type, 'null'];
  return out;
}
