/** A param type's name, as a manifest writes it (rcp-manifest's `RcpParamType`). */
type ParamTypeName = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'file';

/**
 * The JSON kind of a value, for messages that must never echo the value itself: `null`,
 * `array`, `integer`, `number`, `NaN`, `Infinity`, or its `typeof`.
 *
 * @example
 * ```ts
 * kindOf(42); // 'integer'
 * kindOf([1]); // 'array'
 * kindOf(Number.NaN); // 'NaN'
 * ```
 */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return 'Infinity';
    return Number.isInteger(value) ? 'integer' : 'number';
  }
  return typeof value;
}

/** JSON's number grammar: what `String(n)` writes for a finite number. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * Text read back as a scalar param type — the inverse of how a request writes a value as text
 * (`String(value)` in a path segment, a query value, a header, a form field, a cursor): JSON
 * number text for `number` and `integer` (whether it is a safe integer is the type check's to
 * say), `true` / `false` for `boolean`, the text itself for `string`. `undefined` when the text
 * does not read as the type, and for `array`, `object` and `file` (RCP 0.4: a reference, never read back from text).
 *
 * @example
 * ```ts
 * scalarFromText('integer', '42'); // 42
 * scalarFromText('boolean', 'yes'); // undefined
 * ```
 */
export function scalarFromText(type: ParamTypeName, text: string): string | number | boolean | undefined {
  if (type === 'string') return text;
  if (type === 'number' || type === 'integer') return JSON_NUMBER.test(text) ? Number(text) : undefined;
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : undefined;
  return undefined;
}

/** The characters of a tool name (RCP's `^[A-Za-z0-9_-]{1,64}$`), for a character class. */
export const TOOL_NAME_CHARS = 'A-Za-z0-9_-';
