import type { RcpInputSchema, RcpInputSchemaProperty } from 'rcp-client';

/**
 * A Gemini `Schema` (the OpenAPI 3.0 subset of `FunctionDeclaration.parameters`), as this
 * package writes it: upper-case types, and only fields of that `Schema`. A type alias, not an
 * interface, so that it is also a `Record<string, unknown>` (the type of a declaration's
 * `parameters`, see `GeminiFunctionDeclaration`).
 *
 * @example
 * ```ts
 * const schema: GeminiSchema = { type: 'OBJECT', properties: { q: { type: 'STRING' } }, required: ['q'] };
 * ```
 */
export type GeminiSchema = {
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
  default?: unknown;
};

/**
 * Every field of the Gemini API's `Schema` — the documented OpenAPI subset
 * (https://ai.google.dev/api/caching#Schema; the same 22 fields as `@google/genai`'s `Schema`).
 * `additionalProperties`, `$ref`, `$defs`, `oneOf`, `allOf`, `const`, `exclusiveMinimum` … are not
 * among them.
 *
 * @example
 * ```ts
 * GEMINI_SCHEMA_KEYS.has('additionalProperties'); // false
 * ```
 */
export const GEMINI_SCHEMA_KEYS: ReadonlySet<string> = new Set([
  'anyOf',
  'default',
  'description',
  'enum',
  'example',
  'format',
  'items',
  'maxItems',
  'maxLength',
  'maxProperties',
  'maximum',
  'minItems',
  'minLength',
  'minProperties',
  'minimum',
  'nullable',
  'pattern',
  'properties',
  'propertyOrdering',
  'required',
  'title',
  'type',
]);

/**
 * The value keywords of a model-facing schema copied into the `parameters` form as they are:
 * each is a field of Gemini's `Schema` with the same meaning (`format`: "any value is allowed";
 * `default`: accepted, not used for validation). `type` is upper-cased, `enum` kept only when
 * every entry is a string (the `Schema` lists strings), `items` / `properties` / `required`
 * projected in turn; `additionalProperties` is not a `Schema` field and is left out.
 */
/** The keywords Gemini's `Schema` shares with the model-facing schema, copied as they are. */
function copyKeywords(property: RcpInputSchemaProperty, converted: GeminiSchema): void {
  if (property.description !== undefined) converted.description = property.description;
  if (property.format !== undefined) converted.format = property.format;
  if (property.minimum !== undefined) converted.minimum = property.minimum;
  if (property.maximum !== undefined) converted.maximum = property.maximum;
  if (property.minLength !== undefined) converted.minLength = property.minLength;
  if (property.maxLength !== undefined) converted.maxLength = property.maxLength;
  if (property.pattern !== undefined) converted.pattern = property.pattern;
  if (property.default !== undefined) converted.default = structuredClone(property.default);
}

/**
 * Projects a tool's model-facing schema onto Gemini's OpenAPI-subset `parameters` (docs/behaviour.md, the
 * Gemini table): types upper-cased (`STRING`, `OBJECT` …); `description`, `format`, `minimum`,
 * `maximum`, `minLength`, `maxLength`, `pattern`, `default`, `items`, `properties` and `required`
 * kept; `additionalProperties` left out (not a field of Gemini's `Schema`); a number or boolean
 * `enum` left out with a warning (Gemini's `enum` lists strings). What is left out is still
 * enforced by the client's own argument validation before any request. A tool with no argument
 * gets no `parameters` at all (`parameters` is `undefined`): "for a function with no parameters,
 * this can be left unset" (`FunctionDeclaration`, https://ai.google.dev/api/caching#FunctionDeclaration).
 * Warns of each `array` / `object` param with no `items` / `properties` (RCP 0.1 gives them none),
 * which this form may refuse; `parametersJsonSchema` takes them.
 *
 * @example
 * ```ts
 * toGeminiParameters(tool.inputSchema);
 * // { parameters: { type: 'OBJECT', properties: { q: { type: 'STRING', maxLength: 80 } }, required: ['q'] }, warnings: [] }
 * ```
 */
export function toGeminiParameters(schema: RcpInputSchema): { parameters: GeminiSchema | undefined; warnings: string[] } {
  const warnings: string[] = [];
  const entries = Object.entries(schema.properties);
  if (entries.length === 0) return { parameters: undefined, warnings };
  const properties: Record<string, GeminiSchema> = {};
  for (const [name, property] of entries) properties[name] = convert(property, `param "${name}"`, warnings);
  const parameters: GeminiSchema = { type: 'OBJECT', properties };
  if (schema.required.length > 0) parameters.required = [...schema.required];
  return { parameters, warnings };
}

/** One value in Gemini's subset; what it cannot carry is dropped with a warning. */
function convert(property: RcpInputSchemaProperty, where: string, warnings: string[]): GeminiSchema {
  const converted: GeminiSchema = { type: property.type.toUpperCase() as GeminiSchema['type'] };
  copyKeywords(property, converted);
  if (property.enum !== undefined) {
    // Gemini's enum lists strings only: a number or boolean enum is dropped (the client still enforces it).
    if (property.enum.every((entry) => typeof entry === 'string')) converted.enum = [...(property.enum as readonly string[])];
    else warnings.push(`${where}: a ${property.type} enum is dropped (Gemini's enum lists strings); the client still enforces it`);
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
