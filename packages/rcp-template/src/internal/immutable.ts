/**
 * Whether a request template can never change: deep-frozen plain data. Such templates (the
 * tools `parseManifest` returns are) may have their compiled parts cached by object identity.
 *
 * Every object `compileRequest` reads must be frozen, have `Object.prototype` (arrays:
 * `Array.prototype`) or `null` as prototype, and hold only data properties where it reads:
 * a getter could answer differently on the next read, and a mutable prototype could change
 * what is inherited.
 */

const TEMPLATE_FIELDS = ['method', 'url', 'queryParams', 'headers', 'body'] as const;

/**
 * `Object.prototype.__lookupGetter__` (ECMAScript Annex B, in every browser and Node) answers
 * "is there a getter?" without allocating a property descriptor; `getOwnPropertyDescriptor` is
 * the fallback where it was removed.
 */
const lookupGetter = (Object.prototype as { __lookupGetter__?: (this: object, key: string) => unknown }).__lookupGetter__;

/**
 * True when reading `key` of `object` cannot run code: an own data property, or no property
 * at all (callers only pass keys that are own, or template fields whose absence is what is read).
 */
function isDataProperty(object: object, key: string): boolean {
  if (typeof lookupGetter === 'function') {
    // For an own key this looks at the own property only; for an absent field, at the prototype
    // chain, which is Object.prototype's (checked by the callers).
    return lookupGetter.call(object, key) === undefined;
  }
  const descriptor = Object.getOwnPropertyDescriptor(object, key);
  return descriptor === undefined || 'value' in descriptor;
}

function isFrozenPlainObject(value: object): boolean {
  if (!Object.isFrozen(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** A `queryParams` or `headers` map (values are read as strings; anything else fails to compile). */
function isImmutableMap(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value) || !isFrozenPlainObject(value)) return false;
  for (const key in value) if (Object.hasOwn(value, key) && !isDataProperty(value, key)) return false;
  return true;
}

function isImmutableJson(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (depth > 1_000) return false;
  if (Array.isArray(value)) {
    if (!Object.isFrozen(value) || Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (let index = 0; index < value.length; index++) {
      if (!isDataProperty(value, String(index)) || !isImmutableJson(value[index], depth + 1)) return false;
    }
    return true;
  }
  if (!isFrozenPlainObject(value)) return false;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (!isDataProperty(value, key) || !isImmutableJson((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

/** True when `template` is deep-frozen plain data (see the module comment). */
export function isImmutableTemplate(template: unknown): template is object {
  if (typeof template !== 'object' || template === null || !isFrozenPlainObject(template)) return false;
  for (const field of TEMPLATE_FIELDS) if (!isDataProperty(template, field)) return false;
  const fields = template as Record<string, unknown>;
  return isImmutableMap(fields['queryParams']) && isImmutableMap(fields['headers']) && isImmutableJson(fields['body'], 0);
}
