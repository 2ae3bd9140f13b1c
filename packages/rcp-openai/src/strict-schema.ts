import type { RcpInputSchema } from 'rcp-client';

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

/** Param types strict mode cannot take without `items` / `properties` (which RCP 0.1 params do not carry). */
const OPEN_TYPES = new Set(['object', 'array']);

/**
 * Converts a model-facing schema for OpenAI. With `strict`, every property is listed in
 * `required`, optional ones become nullable (`["string", "null"]`: RCP reads `null` as "not
 * given"), and `additionalProperties` is `false` — OpenAI's strict-mode rules. A schema with an
 * `object` or `array` param cannot be strict (strict mode needs their `properties` / `items`):
 * it is sent as is with `strict: false`. A fresh, mutable copy either way.
 *
 * @example
 * ```ts
 * toOpenAISchema({ type: 'object', properties: { q: { type: 'string' }, n: { type: 'integer' } }, required: ['q'], additionalProperties: false }, { strict: true });
 * // { strict: true, parameters: { type: 'object', properties: { q: { type: 'string' }, n: { type: ['integer', 'null'] } }, required: ['q', 'n'], additionalProperties: false } }
 * ```
 */
export function toOpenAISchema(schema: RcpInputSchema, options: { strict: boolean }): OpenAIToolSchema {
  const names = Object.keys(schema.properties);
  const canBeStrict = options.strict && names.every((name) => !OPEN_TYPES.has(schema.properties[name]!.type));
  const required = new Set(schema.required);
  const properties: Record<string, Record<string, unknown>> = {};
  for (const name of names) {
    const { type, description } = schema.properties[name]!;
    const property: Record<string, unknown> = { type: canBeStrict && !required.has(name) ? [type, 'null'] : type };
    if (description !== undefined) property.description = description;
    properties[name] = property;
  }
  return {
    strict: canBeStrict,
    parameters: {
      type: 'object',
      properties,
      required: canBeStrict ? names : [...schema.required],
      additionalProperties: false,
    },
  };
}
