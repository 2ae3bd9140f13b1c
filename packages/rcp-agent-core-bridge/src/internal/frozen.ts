/** Freezes `value` and everything reachable from it, in place. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  }
  return value;
}

/** A deep-frozen structured clone of `value`; throws the clone's DataCloneError for non-data values. */
export function frozenCopy<T>(value: T): T {
  return deepFreeze(structuredClone(value));
}
