import { NOT_FOUND, compileResponsePath, type CompiledPath } from './internal/json-path';
import { joinPointer } from './internal/json-pointer';
import { RcpManifestError, type ManifestIssue } from './manifest-errors';

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
   * Reshapes a response: for each field, a singular query yields its value (the field is left
   * out when nothing matches); any other query yields an array of every match (possibly empty).
   * Returns a fresh object; values are taken from `data` as they are (not copied).
   */
  apply(data: unknown): Record<string, unknown>;
}

/** Field names are never `__proto__` (refused when compiled), so plain assignment makes an own property. */
function setField(target: Record<string, unknown>, key: string, value: unknown): void {
  target[key] = value;
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
export function compileResponseMappings(mappings: Readonly<Record<string, string>>): CompiledResponseMappings {
  if (typeof mappings !== 'object' || mappings === null || Array.isArray(mappings)) {
    throw new RcpManifestError([{ path: '', message: 'responseMappings must be an object of "@" paths' }]);
  }
  const issues: ManifestIssue[] = [];
  const entries: [string, CompiledPath][] = [];
  for (const field of Object.keys(mappings)) {
    const pointer = joinPointer('', field);
    const expression: unknown = mappings[field];
    if (field === '') issues.push({ path: pointer, message: 'a mapping name cannot be empty' });
    else if (field === '__proto__') issues.push({ path: pointer, message: '"__proto__" cannot be a mapping name' });
    if (typeof expression !== 'string') {
      issues.push({ path: pointer, message: 'must be a string' });
      continue;
    }
    const compiled = compileResponsePath(expression);
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
