import { isRecord } from 'rcp-internal';
import { NOT_FOUND, compileResponsePath, type CompiledPath } from './internal/json-path';
import { joinPointer } from './internal/json-pointer';
import { RcpManifestError, type ManifestIssue } from './manifest-errors';
import type { ParseManifestOptions } from './parse-manifest';

/**
 * Response mappings compiled by {@link compileResponseMappings}.
 *
 * @example
 * ```ts
 * const mappings: CompiledResponseMappings = compileResponseMappings({ name: '@data.name' });
 * mappings.apply({ data: { name: 'Ada' } }); // { name: 'Ada' }
 * ```
 */
export interface CompiledResponseMappings {
  /** The mapped field names, in manifest order. */
  readonly fields: readonly string[];
  /**
   * The JSON Schema of what {@link CompiledResponseMappings.apply} returns, for hosts and models
   * (MCP's `outputSchema`): an object with one property per field — any JSON value for a singular
   * query, not required (the field is left out when nothing matches); an array for any other
   * query, required (it is always there, possibly empty) — and no other property.
   */
  readonly outputSchema: RcpOutputSchema;
  /**
   * Reshapes a response: for each field, a singular query yields its value (the field is left
   * out when nothing matches); any other query yields an array of every match (possibly empty).
   * Returns a fresh object; values are taken from `data` as they are (not copied).
   */
  apply(data: unknown): Record<string, unknown>;
}

/**
 * The JSON Schema of a tool's mapped result (see {@link CompiledResponseMappings.outputSchema}):
 * `{}` (any JSON value) for a field of a singular query, `{ type: 'array' }` for any other.
 *
 * @example
 * ```ts
 * const schema: RcpOutputSchema = {
 *   type: 'object',
 *   properties: { name: {}, tags: { type: 'array' } },
 *   required: ['tags'],
 *   additionalProperties: false,
 * };
 * ```
 */
export interface RcpOutputSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, Readonly<Record<string, never>> | { readonly type: 'array' }>>;
  readonly required: readonly string[];
  readonly additionalProperties: false;
}

const ANY_VALUE: Readonly<Record<string, never>> = Object.freeze({});
const ANY_ARRAY = Object.freeze({ type: 'array' as const });

/** The output schema of mapped fields, by whether each field's query is singular. */
function outputSchemaOf(entries: readonly (readonly [string, CompiledPath])[]): RcpOutputSchema {
  const properties: Record<string, Readonly<Record<string, never>> | { readonly type: 'array' }> = {};
  const required: string[] = [];
  for (const [field, path] of entries) {
    Object.defineProperty(properties, field, { value: path.singular ? ANY_VALUE : ANY_ARRAY, enumerable: true });
    if (!path.singular) required.push(field);
  }
  return Object.freeze({
    type: 'object' as const,
    properties: Object.freeze(properties),
    required: Object.freeze(required),
    additionalProperties: false as const,
  });
}

/** Field names are never `__proto__` (refused when compiled), so plain assignment makes an own property. */
function setField(target: Record<string, unknown>, key: string, value: unknown): void {
  target[key] = value;
}

/** Why `name` cannot name a response mapping (empty, or `__proto__`), or undefined when it can. */
export function mappingNameProblem(name: string): string | undefined {
  if (name === '') return 'a mapping name cannot be empty';
  if (name === '__proto__') return '"__proto__" cannot be a mapping name';
  return undefined;
}

/**
 * Compiles a tool's `responseMappings` (`{ field: "@json.path" }`) once, so applying them to each
 * response does no parsing. `"@"` is the whole response; `"@data.name"` is the RFC 9535 query
 * `$.data.name`; `"@[0]"` / `"@.x"` are `$[0]` / `$.x`.
 *
 * Plain dotted paths (`@data.items[0].id`) are read directly; any other path is parsed with the
 * `jsonpath-rfc9535` parser (no code is evaluated). Compile once (the client does, at
 * discovery) and apply to each response. Singular queries run as direct walks over own
 * properties; name, index, wildcard, slice and descendant selectors are evaluated on the parsed
 * query; only queries with a filter selector (`[?...]`) are handed to the library's `query()`.
 *
 * @param mappings - Field name → `@` path.
 * @param options - `filterEngine`: the JSONPath filter engine for a filter selector where the
 * runtime has no synchronous `require` (as `parseManifest` takes it).
 * @throws {@link RcpManifestError} RCP_INVALID_MANIFEST listing every invalid entry (pointer `/<field>`).
 *
 * @example
 * ```ts
 * import { compileResponseMappings } from 'rcp-manifest';
 *
 * const mappings = compileResponseMappings({ name: '@data.name', tags: '@data.tags[*].label', missing: '@nope' });
 * mappings.apply({ data: { name: 'Ada', tags: [{ label: 'math' }] } });
 * // { name: 'Ada', tags: ['math'] }   (missing is singular and matched nothing: left out)
 * ```
 */
export function compileResponseMappings(
  mappings: Readonly<Record<string, string>>,
  options?: Pick<ParseManifestOptions, 'filterEngine'>,
): CompiledResponseMappings {
  if (!isRecord(mappings)) {
    throw new RcpManifestError([{ path: '', message: 'responseMappings must be an object of "@" paths' }]);
  }
  const issues: ManifestIssue[] = [];
  const entries: [string, CompiledPath][] = [];
  for (const field of Object.keys(mappings)) {
    const pointer = joinPointer('', field);
    const expression: unknown = mappings[field];
    const nameProblem = mappingNameProblem(field);
    if (nameProblem !== undefined) issues.push({ path: pointer, message: nameProblem });
    if (typeof expression !== 'string') {
      issues.push({ path: pointer, message: 'must be a string' });
      continue;
    }
    const compiled = compileResponsePath(expression, options?.filterEngine);
    if (compiled.ok) entries.push([field, compiled.path]);
    else issues.push({ path: pointer, message: compiled.message });
  }
  if (issues.length > 0) throw new RcpManifestError(issues);
  return fromEntries(entries);
}

function fromEntries(entries: readonly (readonly [string, CompiledPath])[]): CompiledResponseMappings {
  const fields = Object.freeze(entries.map(([field]) => field));
  const paths = entries.map(([, path]) => path);
  const count = fields.length;
  return Object.freeze({
    fields,
    outputSchema: outputSchemaOf(entries),
    apply(data: unknown): Record<string, unknown> {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < count; i += 1) {
        const path = paths[i]!;
        if (path.get !== undefined) {
          const value = path.get(data);
          if (value !== NOT_FOUND) setField(out, fields[i]!, value);
        } else {
          setField(out, fields[i]!, path.select(data));
        }
      }
      return out;
    },
  });
}
