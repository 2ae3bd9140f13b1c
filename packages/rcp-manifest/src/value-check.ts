import { isRecord, kindOf } from 'rcp-internal';
import { escapePointerToken } from './internal/json-pointer';
import type { ManifestIssue } from './manifest-errors';
import { fileReferenceProblem } from './file-params';
import type { RcpParam, RcpParamType, RcpValue } from './manifest-schema';

/**
 * Checks one value against a param's (or a nested value's) schema and returns every problem,
 * each at its JSON Pointer under `path`. Messages say what is expected, never the value itself.
 *
 * @example
 * ```ts
 * const check = compileValueCheck({ name: 'status', type: 'string', enum: ['open', 'closed'] });
 * check('done', '/status'); // [{ path: '/status', message: 'must be one of "open", "closed"' }]
 * ```
 */
export type ValueCheck = (value: unknown, path: string) => ManifestIssue[];

/** `"a string"`, `"a safe integer"` … for messages (shared with the manifest rules and the argument check). */
export const EXPECTED_TYPE: Record<RcpParamType, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'a safe integer',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
  file: 'an attachment reference (a string)',
};

/** The one type table: a precompiled test per param type (JSON semantics). */
export const TYPE_TESTS: Record<RcpParamType, (value: unknown) => boolean> = {
  string: (value) => typeof value === 'string',
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  integer: (value) => Number.isSafeInteger(value),
  boolean: (value) => typeof value === 'boolean',
  array: (value) => Array.isArray(value),
  object: isRecord,
  file: (value) => typeof value === 'string',
};

/**
 * Whether a value has a param type, with JSON semantics: `number` is a finite number, `integer`
 * a safe integer, `object` a non-null, non-array object.
 *
 * @example
 * ```ts
 * import { hasType } from 'rcp-manifest';
 *
 * hasType('integer', 3); // true
 * hasType('integer', 3.5); // false
 * hasType('number', Number.NaN); // false
 * ```
 */
export function hasType(type: RcpParamType, value: unknown): boolean {
  return TYPE_TESTS[type](value);
}

/**
 * What a value of the wrong type is told, after its path: `must be a safe integer (got string)`.
 * The one wording of the type rule (the argument check, value details and the manifest's own).
 *
 * @example
 * ```ts
 * import { typeProblem } from './value-check';
 *
 * typeProblem('integer', 'seven'); // 'must be a safe integer (got string)'
 * ```
 */
export function typeProblem(type: RcpParamType, value: unknown): string {
  return `must be ${EXPECTED_TYPE[type]} (got ${kindOf(value)})`;
}

/**
 * The six value types, in the order the specification lists them. A param may also be `"file"` (RCP 0.4),
 * which is not listed here: it is a reference, never a JSON value a schema or a nested value can have.
 *
 * @example
 * ```ts
 * import { PARAM_TYPES } from 'rcp-manifest';
 *
 * PARAM_TYPES.includes('integer'); // true
 * ```
 */
export const PARAM_TYPES: readonly RcpParamType[] = Object.freeze(['string', 'number', 'integer', 'boolean', 'array', 'object'] as RcpParamType[]);

/**
 * How a message names what a param type expects: `"a string"`, `"a safe integer"` …
 *
 * @example
 * ```ts
 * import { expectedType } from 'rcp-manifest';
 *
 * `must be ${expectedType('integer')}`; // 'must be a safe integer'
 * ```
 */
export function expectedType(type: RcpParamType): string {
  return EXPECTED_TYPE[type];
}

/**
 * Whether a param carries any detail beyond its type (enum, items, properties, bounds, pattern):
 * a client checks such a param with {@link compileValueCheck}, a plain one by type alone.
 *
 * @example
 * ```ts
 * hasValueDetails({ name: 'q' }); // false
 * hasValueDetails({ name: 'n', type: 'integer', minimum: 1 }); // true
 * ```
 */
export function hasValueDetails(schema: RcpParam | RcpValue): boolean {
  return (
    schema.enum !== undefined ||
    schema.items !== undefined ||
    schema.properties !== undefined ||
    ('requiredProperties' in schema && schema.requiredProperties !== undefined) ||
    ('type' in schema && 'required' in schema && Array.isArray(schema.required)) ||
    schema.minimum !== undefined ||
    schema.maximum !== undefined ||
    schema.minLength !== undefined ||
    schema.maxLength !== undefined ||
    schema.pattern !== undefined
  );
}

/**
 * Compiles the check of a param's value details once (patterns compiled with the `u` flag):
 * type, `enum`, `minimum` / `maximum`, `minLength` / `maxLength` (in code points), `pattern`
 * (a match anywhere, as JSON Schema says), an array's `items`, an object's `properties` (no
 * other key allowed) and its required properties (`requiredProperties` on a param, `required`
 * in a nested value). `format` and `default` are shown to the model, not checked. A nested
 * `null` is a wrong type, not "not given". The schema must be one `parseManifest` accepted.
 *
 * @example
 * ```ts
 * import { compileValueCheck } from 'rcp-manifest';
 *
 * const check = compileValueCheck({ name: 'tags', type: 'array', items: { type: 'string', maxLength: 3 } });
 * check(['ok', 'toolong'], '/tags'); // [{ path: '/tags/1', message: 'must be at most 3 characters long' }]
 * ```
 */
export function compileValueCheck(schema: RcpParam | RcpValue): ValueCheck {
  const type: RcpParamType = schema.type ?? 'string';
  const values = schema.enum;
  const pattern = schema.pattern === undefined ? undefined : new RegExp(schema.pattern, 'u');
  const items = schema.items === undefined ? undefined : compileValueCheck(schema.items);
  const properties =
    schema.properties === undefined
      ? undefined
      : new Map(Object.keys(schema.properties).map((key) => [key, compileValueCheck(schema.properties![key]!)] as const));
  const requiredKeys: readonly string[] =
    'requiredProperties' in schema && schema.requiredProperties !== undefined
      ? schema.requiredProperties
      : Array.isArray((schema as RcpValue).required)
        ? ((schema as RcpValue).required as readonly string[])
        : [];
  const { minimum, maximum, minLength, maxLength } = schema;

  const typeTest = TYPE_TESTS[type];
  const check = (value: unknown, path: string, issues: ManifestIssue[]): void => {
    if (!typeTest(value)) {
      issues.push({ path, message: typeProblem(type, value) });
      return;
    }
    if (type === 'file') {
      const problem = fileReferenceProblem(value as string);
      if (problem !== undefined) issues.push({ path, message: problem });
      return;
    }
    if (values !== undefined && !values.includes(value as string | number | boolean)) {
      issues.push({ path, message: `must be one of ${values.map((entry) => JSON.stringify(entry)).join(', ')}` });
      return;
    }
    if (typeof value === 'number') {
      if (minimum !== undefined && value < minimum) issues.push({ path, message: `must be ≥ ${minimum}` });
      if (maximum !== undefined && value > maximum) issues.push({ path, message: `must be ≤ ${maximum}` });
    } else if (typeof value === 'string') {
      if (minLength !== undefined || maxLength !== undefined) {
        const length = [...value].length;
        if (minLength !== undefined && length < minLength) issues.push({ path, message: `must be at least ${minLength} characters long` });
        if (maxLength !== undefined && length > maxLength) issues.push({ path, message: `must be at most ${maxLength} characters long` });
      }
      if (pattern !== undefined && !pattern.test(value)) issues.push({ path, message: `must match the pattern ${JSON.stringify(schema.pattern)}` });
    } else if (Array.isArray(value)) {
      if (items !== undefined) value.forEach((element, index) => issues.push(...items(element, `${path}/${index}`)));
    } else if (isRecord(value) && (properties !== undefined || requiredKeys.length > 0)) {
      for (const key of Object.keys(value)) {
        const at = `${path}/${escapePointerToken(key)}`;
        const property = properties?.get(key);
        if (property === undefined) {
          if (properties !== undefined) issues.push({ path: at, message: 'is not a property of this object' });
        } else if (value[key] !== undefined) {
          issues.push(...property(value[key], at));
        }
      }
      for (const key of requiredKeys) {
        if (value[key] === undefined) issues.push({ path: `${path}/${escapePointerToken(key)}`, message: 'is required' });
      }
    }
  };
  return (value, path) => {
    const issues: ManifestIssue[] = [];
    check(value, path, issues);
    return issues;
  };
}
