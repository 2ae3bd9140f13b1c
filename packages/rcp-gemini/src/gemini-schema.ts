import type { RcpInputSchema } from 'rcp-client';

/**
 * A Gemini `Schema` (the OpenAPI 3.0 subset of `FunctionDeclaration.parameters`): upper-case
 * types, and only the keys that subset documents.
 *
 * @example
 * ```ts
 * const schema: GeminiSchema = { type: 'OBJECT', properties: { q: { type: 'STRING' } }, required: ['q'] };
 * ```
 */
export interface GeminiSchema {
  type: 'STRING' | 'NUMBER' | 'INTEGER' | 'BOOLEAN' | 'ARRAY' | 'OBJECT';
  description?: string;
  properties?: Record<string, GeminiSchema>;
  required?: string[];
}

/** The keys of the OpenAPI subset Gemini's `parameters` accepts; everything else is dropped. */
export const GEMINI_SCHEMA_KEYS: ReadonlySet<string> = new Set([
  'type',
  'format',
  'description',
  'nullable',
  'enum',
  'items',
  'properties',
  'required',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'pattern',
  'anyOf',
  'propertyOrdering',
]);

/**
 * Converts a model-facing schema to Gemini's OpenAPI-subset `parameters`: types upper-cased,
 * `additionalProperties`, `$schema`, `default`, `title` and every other key outside the subset
 * removed. Returns the schema, and a warning per `array` / `object` param (RCP 0.1 gives them
 * no `items` / `properties`, which this form may refuse; `parametersJsonSchema` takes them).
 *
 * @example
 * ```ts
 * toGeminiParameters(tool.inputSchema);
 * // { parameters: { type: 'OBJECT', properties: { q: { type: 'STRING', description: '...' } }, required: ['q'] }, warnings: [] }
 * ```
 */
export function toGeminiParameters(schema: RcpInputSchema): { parameters: GeminiSchema; warnings: string[] } {
  const properties: Record<string, GeminiSchema> = {};
  const warnings: string[] = [];
  for (const [name, property] of Object.entries(schema.properties)) {
    const converted: GeminiSchema = { type: property.type.toUpperCase() as GeminiSchema['type'] };
    if (property.description !== undefined) converted.description = property.description;
    if (property.type === 'array' || property.type === 'object') {
      warnings.push(
        `param "${name}" is an ${property.type} with no ${property.type === 'array' ? 'items' : 'properties'}: ` +
          'the "parameters" form may refuse it; the default "parametersJsonSchema" form takes it',
      );
    }
    properties[name] = converted;
  }
  const parameters: GeminiSchema = { type: 'OBJECT', properties };
  if (schema.required.length > 0) parameters.required = [...schema.required];
  return { parameters, warnings };
}
