import type { RcpOutputSchema, RcpValueType } from 'rcp-manifest';
import type { RcpInputSchema } from './client-tool';

/**
 * A JSON value, as `JSON.parse` returns one: what a schema's `default` holds.
 *
 * @example
 * ```ts
 * const value: RcpJsonValue = { tags: ['a', 'b'], limit: 10, archived: null };
 * ```
 */
export type RcpJsonValue = string | number | boolean | null | RcpJsonValue[] | { [key: string]: RcpJsonValue };

/**
 * One property of an {@link RcpJsonSchema}: a plain, mutable JSON Schema object. The keywords a
 * model-facing schema uses are typed; any other keyword is `unknown`, so an SDK may add its own.
 *
 * @example
 * ```ts
 * const property: RcpJsonSchemaProperty = { type: 'string', description: 'Free-text search term', maxLength: 80 };
 * property.description = 'Search term'; // mutable: an SDK may rewrite it
 * ```
 */
export interface RcpJsonSchemaProperty {
  [keyword: string]: unknown;
  /** Absent for "any JSON value" (an output schema's singular field is `{}`). */
  type?: RcpValueType;
  description?: string;
  enum?: (string | number | boolean)[];
  items?: RcpJsonSchemaProperty;
  properties?: { [name: string]: RcpJsonSchemaProperty };
  required?: string[];
  additionalProperties?: false;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  default?: RcpJsonValue;
}

/**
 * A tool's schema as an SDK takes one: a plain, mutable JSON Schema object of `type: 'object'`
 * (what {@link jsonSchemaCopy} returns). It is a `Record<string, unknown>` and, keyword by keyword,
 * a JSON Schema draft-07 / 2020-12 object, so it is passed to an SDK as it is, with no cast.
 *
 * @example
 * ```ts
 * const schema: RcpJsonSchema = { type: 'object', properties: { query: { type: 'string' } }, required: ['query'], additionalProperties: false };
 * const record: Record<string, unknown> = schema;
 * ```
 */
export interface RcpJsonSchema {
  [keyword: string]: unknown;
  type: 'object';
  properties: { [name: string]: RcpJsonSchemaProperty };
  required: string[];
  additionalProperties: false;
}

/**
 * A fresh, mutable deep copy of a tool's `inputSchema` or `outputSchema` (or a search tool
 * definition's `inputSchema`), typed as a plain JSON Schema object: what an SDK that takes a
 * mutable JSON Schema (`Record<string, unknown>`, `JSONSchema7`, …) is given. A tool's own
 * schemas are frozen and shared; changing the copy never changes the tool, and each call returns
 * a new copy.
 *
 * @example
 * ```ts
 * import { jsonSchemaCopy } from 'rcp-client';
 *
 * const parameters = jsonSchemaCopy(tool.inputSchema);
 * parameters.required.push('limit'); // the copy only: tool.inputSchema is unchanged
 * ```
 */
export function jsonSchemaCopy(schema: RcpInputSchema | RcpOutputSchema): RcpJsonSchema {
  // The one cast: structuredClone keeps the frozen schemas' `readonly` types. The copy is a new,
  // unfrozen JSON object whose keywords are those of RcpJsonSchema (a manifest's `default` is JSON).
  return structuredClone(schema) as RcpJsonSchema;
}
