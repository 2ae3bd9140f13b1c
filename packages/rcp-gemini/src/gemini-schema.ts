import type { RcpInputSchema, RcpInputSchemaProperty } from 'rcp-client';

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
  items?: GeminiSchema;
  enum?: string[];
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
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
  for (const [name, property] of Object.entries(schema.properties)) properties[name] = convert(property, `param "${name}"`, warnings);
  const parameters: GeminiSchema = { type: 'OBJECT', properties };
  if (schema.required.length > 0) parameters.required = [...schema.required];
  return { parameters, warnings };
}

/** One value in Gemini's subset; what it cannot carry is dropped with a warning. */
function convert(property: RcpInputSchemaProperty, where: string, warnings: string[]): GeminiSchema {
  const converted: GeminiSchema = { type: property.type.toUpperCase() as GeminiSchema['type'] };
  if (property.description !== undefined) converted.description = property.description;
  if (property.enum !== undefined) {
    // Gemini's enum lists strings only: a number or boolean enum is dropped (the client still enforces it).
    if (property.enum.every((entry) => typeof entry === 'string')) converted.enum = [...(property.enum as readonly string[])];
    else warnings.push(`${where}: a ${property.type} enum is dropped (Gemini's enum lists strings); the client still enforces it`);
  }
  for (const key of ['format', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern'] as const) {
    if (property[key] !== undefined) (converted as unknown as Record<string, unknown>)[key] = property[key];
  }
  if (property.items !== undefined) converted.items = convert(property.items, `${where} items`, warnings);
  if (property.properties !== undefined) {
    converted.properties = {};
    for (const [key, value] of Object.entries(property.properties)) converted.properties[key] = convert(value, `${where}.${key}`, warnings);
    if (property.required !== undefined && property.required.length > 0) converted.required = [...property.required];
  }
  if ((property.type === 'array' && property.items === undefined) || (property.type === 'object' && property.properties === undefined)) {
    warnings.push(
      `${where} is an ${property.type} with no ${property.type === 'array' ? 'items' : 'properties'}: ` +
        'the "parameters" form may refuse it; the default "parametersJsonSchema" form takes it',
    );
  }
  return converted;
}
