import { isRecord } from 'rcp-internal';
import { PARAM_TYPES, compileValueCheck, hasType, type RcpParam, type RcpParamType, type RcpValue } from 'rcp-manifest';

/** A JSON Schema as OpenAPI documents write it (already dereferenced). */
export type Schema = Record<string, unknown>;

/** A description from the document as the text the model reads, or undefined (plain-text.ts). */
export type DescriptionText = (description: unknown) => string | undefined;

/** Descriptions trimmed and kept as written (for a caller with no report to tell). */
const trimmedText: DescriptionText = (description) => (typeof description === 'string' && description.trim() !== '' ? description.trim() : undefined);

/**
 * Where a param's value is sent. A path segment and a header take one scalar (SPEC §7.1, §7.3),
 * a query entry a scalar or an array of scalars, as repeated keys (§7.2); a body field anything.
 */
export type ParamPlace = 'path' | 'query' | 'header' | 'body';

const SCALAR_TYPES: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean']);

/** True when a value of `type` (with items of `itemsType`, for an array) can be sent at `place`; an unknown type is sent as a string. */
export function sendableAt(place: ParamPlace, type: string | undefined, itemsType: string | undefined): boolean {
  if (place === 'body' || type === undefined || SCALAR_TYPES.has(type)) return true;
  return place === 'query' && type === 'array' && (itemsType === undefined || SCALAR_TYPES.has(itemsType));
}

/** A branch of a union can be sent at `place`: its type (and its items' type) allow it. */
function branchSendable(place: ParamPlace, branch: Schema): boolean {
  const type = typeOf(branch);
  return type !== undefined && sendableAt(place, type, isRecord(branch['items']) ? typeOf(mergeAllOf(branch['items'])) : undefined);
}

/**
 * Options of {@link paramFields}.
 */
export interface ParamFieldOptions {
  /** Nested descriptions as the model reads them (the import reads them as plain text). */
  readonly text?: DescriptionText;
  /** Where the param is sent: a union is narrowed to a branch that can be sent there, when one can. */
  readonly place?: ParamPlace;
  /** Hears a narrowing made for the place (a report note: once per document, with an example). */
  readonly note?: (message: string, example?: string) => void;
}

/** The report note of a union narrowed to a branch its place can carry. */
export function narrowedForPlaceNote(place: ParamPlace): string {
  return `${place} params that may be an object were narrowed to the branch of their union a ${place} can carry (RCP sends ${place === 'query' ? 'a scalar or an array of scalars' : 'one scalar'} there)`;
}

/** Value schemas nest this deep at the most (rcp-manifest allows 16; deeper becomes an open value). */
const MAX_DEPTH = 8;
/** The same limit as rcp-manifest's for patterns: a long or exotic pattern is dropped, not sent. */
const MAX_PATTERN = 256;

/** Sets an own, enumerable property, even one named `__proto__` (plain assignment would set the prototype). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The `oneOf` or `anyOf` list of a schema, with its keyword, or undefined when it has neither. */
export function unionOf(schema: Schema): { keyword: 'oneOf' | 'anyOf'; branches: readonly unknown[] } | undefined {
  if (Array.isArray(schema['oneOf'])) return { keyword: 'oneOf', branches: schema['oneOf'] };
  if (Array.isArray(schema['anyOf'])) return { keyword: 'anyOf', branches: schema['anyOf'] };
  return undefined;
}

/** `a oneOf`, `an anyOf`: the keyword with its article, for the report. */
export function article(keyword: 'oneOf' | 'anyOf'): string {
  return keyword === 'anyOf' ? 'an anyOf' : 'a oneOf';
}

/** A branch that only admits null: `{ type: 'null' }`, `{ type: ['null'] }` or `{ enum: [null] }`. */
function isNullSchema(schema: Schema): boolean {
  const type = schema['type'];
  if (type === 'null' || (Array.isArray(type) && type.length > 0 && type.every((entry) => entry === 'null'))) return true;
  const values = schema['enum'];
  return Array.isArray(values) && values.length > 0 && values.every((entry) => entry === null);
}

/** The branches of a union that admit something besides null. */
export function nonNullBranches(branches: readonly unknown[]): Schema[] {
  return branches.filter((branch): branch is Schema => isRecord(branch) && !isNullSchema(branch));
}

/**
 * A schema without its `oneOf` / `anyOf`, so that it has one JSON type: a nullable union
 * (`anyOf: [X, { type: 'null' }]`) becomes X — the null is dropped and `lose` says the value is
 * nullable (RCP sends a value or leaves it out) — and a union of several types becomes its first
 * branch that has a type (`lose` says so). `allOf` is merged first; the schema's own keywords
 * (description, default) stay.
 */
function narrowed(schema: Schema, lose: (message: string) => void, label: string, options: ParamFieldOptions = {}): Schema {
  const merged = mergeAllOf(schema);
  const type = merged['type'];
  let nullable = (Array.isArray(type) && type.includes('null')) || merged['nullable'] === true;
  let result = merged;
  const union = unionOf(merged);
  if (union !== undefined) {
    const { [union.keyword]: _union, ...shared } = merged;
    const branches = nonNullBranches(union.branches).map((branch) => mergeAllOf({ allOf: [shared, branch] }));
    if (branches.length > 0 && branches.length < union.branches.length) nullable = true;
    const first = branches.length === 1 ? 0 : branches.findIndex((branch) => typeOf(branch) !== undefined);
    // A param sent in a path, a query or a header takes the first branch it can carry there
    // (Stripe's `created`: an object of bounds, or an integer, in a query): never one no call can send.
    const { place } = options;
    const placed =
      place === undefined || first === -1 || branchSendable(place, branches[first]!) ? -1 : branches.findIndex((branch) => branchSendable(place, branch));
    const index = placed === -1 ? first : placed;
    result = index === -1 ? shared : branches[index]!;
    if (placed !== -1 && place !== undefined) {
      options.note?.(narrowedForPlaceNote(place), `${label} → ${typeOf(result)}`);
    } else if (branches.length > 1 && index !== -1) {
      lose(`${label} is ${article(union.keyword)} of ${branches.length} schemas: narrowed to branch ${index + 1} (${typeOf(result)})`);
    }
  }
  if (nullable) lose(`${label} is nullable: null is never sent (the value is left out instead)`);
  return result;
}

/**
 * `allOf` members merged into one schema (properties and required lists joined).
 *
 * @example
 * ```ts
 * mergeAllOf({ allOf: [{ properties: { a: { type: 'string' } } }, { required: ['a'] }] });
 * // { properties: { a: { type: 'string' } }, type: 'object', required: ['a'] }
 * ```
 */
export function mergeAllOf(schema: Schema): Schema {
  const parts = schema['allOf'];
  if (!Array.isArray(parts)) return schema;
  const { allOf: _parts, ...rest } = schema;
  const merged: Schema = { ...rest };
  const properties: Schema = { ...(isRecord(rest['properties']) ? rest['properties'] : {}) };
  const required = new Set<string>(Array.isArray(rest['required']) ? (rest['required'] as string[]) : []);
  for (const part of parts) {
    if (!isRecord(part)) continue;
    const flat = mergeAllOf(part);
    for (const [key, value] of Object.entries(flat)) {
      if (key === 'properties' && isRecord(value)) for (const [name, property] of Object.entries(value)) setOwn(properties, name, property);
      else if (key === 'required' && Array.isArray(value)) for (const name of value) required.add(String(name));
      else if (!Object.hasOwn(merged, key)) setOwn(merged, key, value);
    }
  }
  if (Object.keys(properties).length > 0) {
    merged['properties'] = properties;
    merged['type'] ??= 'object';
  }
  if (required.size > 0) merged['required'] = [...required];
  return merged;
}

/** The JSON type of a schema: its `type` (the first non-null one of a list), else inferred. */
export function typeOf(schema: Schema): RcpParamType | undefined {
  let type = schema['type'];
  if (Array.isArray(type)) type = type.find((entry) => entry !== 'null');
  if (typeof type === 'string' && (PARAM_TYPES as readonly string[]).includes(type)) return type as RcpParamType;
  if (isRecord(schema['properties'])) return 'object';
  if (isRecord(schema['items'])) return 'array';
  if (Array.isArray(schema['enum']) && schema['enum'].every((entry) => typeof entry === 'string')) return 'string';
  return undefined;
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * One bound of a number or integer schema as RCP's inclusive `minimum` / `maximum`. An exclusive
 * bound is written two ways: `exclusiveMinimum: true` beside `minimum` (JSON Schema draft 4:
 * Swagger 2, OpenAPI 3.0) or `exclusiveMinimum: 0` (draft 2020-12: OpenAPI 3.1); beside an
 * inclusive one, the tighter wins. For an integer an exclusive bound is the inclusive one a step
 * in (`> 0` is `≥ 1`, nothing lost); for a number RCP has no exclusive bound, so the bound is kept
 * inclusive and `lose` says the bound value itself is not refused before the request.
 */
function boundOf(schema: Schema, side: 'minimum' | 'maximum', type: 'number' | 'integer', lose: (message: string) => void, label: string): number | undefined {
  const exclusiveKey = side === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum';
  const flag = schema[exclusiveKey];
  let inclusive = isFiniteNumber(schema[side]) ? schema[side] : undefined;
  let exclusive: number | undefined;
  if (flag === true && inclusive !== undefined) {
    exclusive = inclusive;
    inclusive = undefined;
  } else if (isFiniteNumber(flag)) exclusive = flag;
  if (exclusive !== undefined && inclusive !== undefined) {
    // `minimum: 0, exclusiveMinimum: 0` is `> 0`; `minimum: 5, exclusiveMinimum: 0` is `≥ 5`.
    const exclusiveIsTighter = side === 'minimum' ? exclusive >= inclusive : exclusive <= inclusive;
    if (exclusiveIsTighter) inclusive = undefined;
    else exclusive = undefined;
  }
  if (exclusive === undefined) return inclusive;
  if (type === 'integer') {
    const step = side === 'minimum' ? Math.floor(exclusive) + 1 : Math.ceil(exclusive) - 1;
    if (Number.isSafeInteger(step)) return step;
  }
  lose(
    `${label} must be ${side === 'minimum' ? 'greater' : 'less'} than ${exclusive}: kept as ${side} ${exclusive} (RCP bounds are inclusive, so ${exclusive} itself is not refused before the request)`,
  );
  return exclusive;
}

/** Nested repetition, backreferences or lookaround, which rcp-manifest refuses: a quick screen before it does. */
function looksUnsafe(pattern: string): boolean {
  return pattern.length > MAX_PATTERN || /\)[*+?{]|\\[1-9]|\(\?[=!<]/.test(pattern);
}

/**
 * The RCP details of a schema (enum, items, properties, bounds, pattern, format, default),
 * keeping only what RCP can express and is consistent; `lose` hears about what was dropped.
 */
function detailsOf(
  schema: Schema,
  type: RcpParamType,
  lose: (message: string) => void,
  label: string,
  text: DescriptionText,
  depth = 0,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const values = schema['enum'];
  if (Array.isArray(values) && type !== 'array' && type !== 'object') {
    const kept = values.filter((entry) => hasType(type, entry));
    if (kept.length > 0) out['enum'] = kept;
    if (kept.length < values.length) lose(`enum entries that are not of type ${type} (null among them) were dropped`);
  }
  if (type === 'array') {
    const items = schema['items'];
    if (isRecord(items)) {
      const value = valueSchemaOf(items, lose, depth + 1, `an item of ${label}`, text);
      if (value !== undefined) out['items'] = value;
    }
  }
  if (type === 'object' && isRecord(schema['properties']) && depth < MAX_DEPTH) {
    const properties: Record<string, RcpValue> = {};
    for (const [key, property] of Object.entries(schema['properties'])) {
      if (!isRecord(property) || property['readOnly'] === true) continue;
      const value = valueSchemaOf(property, lose, depth + 1, `property "${key}" of ${label}`, text);
      if (value !== undefined) Object.defineProperty(properties, key, { value, enumerable: true });
    }
    if (Object.keys(properties).length > 0) out['properties'] = properties;
  }
  if (type === 'string') {
    for (const key of ['minLength', 'maxLength'] as const) {
      const value = schema[key];
      if (Number.isSafeInteger(value) && (value as number) >= 0) out[key] = value;
    }
    if (typeof out['minLength'] === 'number' && typeof out['maxLength'] === 'number' && out['minLength'] > out['maxLength']) {
      delete out['minLength'];
    }
    const pattern = schema['pattern'];
    if (typeof pattern === 'string') {
      let compiles = true;
      try {
        new RegExp(pattern, 'u');
      } catch {
        compiles = false;
      }
      if (compiles && !looksUnsafe(pattern)) out['pattern'] = pattern;
      else lose('a pattern was dropped (it could backtrack exponentially or is not an ECMAScript regular expression)');
    }
  }
  if (type === 'number' || type === 'integer') {
    for (const side of ['minimum', 'maximum'] as const) {
      const value = boundOf(schema, side, type, lose, label);
      if (value !== undefined) out[side] = value;
    }
    if (typeof out['minimum'] === 'number' && typeof out['maximum'] === 'number' && out['minimum'] > out['maximum']) {
      lose(`${label} has a minimum above its maximum (no value fits): the minimum was dropped`);
      delete out['minimum'];
    }
  }
  if ((type === 'string' || type === 'number' || type === 'integer') && typeof schema['format'] === 'string') out['format'] = schema['format'];
  return out;
}

/** A nested value schema (type required), or undefined when the schema says nothing usable. */
function valueSchemaOf(source: Schema, lose: (message: string) => void, depth: number, label: string, text: DescriptionText): RcpValue | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const schema = narrowed(source, lose, label);
  const type = typeOf(schema);
  if (type === undefined) return undefined;
  const out: Record<string, unknown> = { type };
  const description = text(schema['description']);
  if (description !== undefined) out['description'] = description;
  Object.assign(out, detailsOf(schema, type, lose, label, text, depth));
  if (type === 'object' && isRecord(out['properties']) && Array.isArray(schema['required'])) {
    const names = (schema['required'] as unknown[]).filter(
      (name): name is string => typeof name === 'string' && Object.hasOwn(out['properties'] as object, name),
    );
    if (names.length > 0) out['required'] = names;
  }
  keepDefault(schema, out);
  return out as unknown as RcpValue;
}

/** A default is kept only when the schema built so far accepts it (rcp-manifest refuses others). */
function keepDefault(schema: Schema, out: Record<string, unknown>): void {
  if (!('default' in schema) || schema['default'] === null || schema['default'] === undefined) return;
  const candidate = { ...out, name: 'value' } as unknown as RcpParam;
  if (compileValueCheck(candidate)(schema['default'], '').length === 0) out['default'] = schema['default'];
}

/**
 * A param's type and details from its schema (OpenAPI 3's `schema`, or Swagger 2's inline fields);
 * nested descriptions go through `options.text`, and a union is narrowed to a branch that can be
 * sent at `options.place` when its first typed branch cannot be.
 *
 * @example
 * ```ts
 * paramFields({ type: 'integer', format: 'int32', maximum: 100 }, console.warn, '"limit"');
 * // { type: 'integer', maximum: 100, format: 'int32' }
 * paramFields({ anyOf: [{ type: 'object' }, { type: 'null' }] }, console.warn, '"metadata"');
 * // { type: 'object' } — and '"metadata" is nullable: …' is reported
 * ```
 */
export function paramFields(
  schema: Schema,
  lose: (message: string) => void,
  label: string,
  options: ParamFieldOptions = {},
): Partial<RcpParam> & { type: RcpParamType } {
  const text = options.text ?? trimmedText;
  const merged = narrowed(schema, lose, label, options);
  const type = typeOf(merged) ?? 'string';
  const out: Record<string, unknown> = { type, ...detailsOf(merged, type, lose, label, text) };
  if (type === 'object' && isRecord(out['properties']) && Array.isArray(merged['required'])) {
    const names = (merged['required'] as unknown[]).filter(
      (name): name is string => typeof name === 'string' && Object.hasOwn(out['properties'] as object, name),
    );
    if (names.length > 0) out['requiredProperties'] = names;
  }
  keepDefault(merged, out);
  return out as Partial<RcpParam> & { type: RcpParamType };
}
