/**
 * The two object checks, each written once for every package. They mean different things, so they
 * have different names.
 */

/**
 * Whether `value` is a record: a non-null object that is not an array (any prototype). The check
 * for parsed JSON and other data where only "object, not array" matters.
 *
 * @example
 * ```ts
 * import { isRecord } from 'rcp-template';
 * isRecord({ a: 1 }); // true
 * isRecord([1]);      // false
 * isRecord(null);     // false
 * ```
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether `value` is a plain object: a record whose prototype is `Object.prototype` or `null`
 * (an object literal, `JSON.parse` output, `Object.create(null)`), not a class instance, `Date`
 * or `Map`. The check for options and manifests written in code.
 *
 * @example
 * ```ts
 * import { isPlainObject } from 'rcp-template';
 * isPlainObject({ a: 1 });           // true
 * isPlainObject(Object.create(null)); // true
 * isPlainObject(new Date());         // false
 * ```
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
