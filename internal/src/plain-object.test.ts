import { describe, expect, it } from 'vitest';
import { isPlainObject, isRecord } from './plain-object';

describe('isRecord and isPlainObject (two meanings, two names)', () => {
  it('isRecord: any non-null, non-array object', () => {
    expect([{}, new Date(), new Map(), Object.create(null)].every(isRecord)).toBe(true);
    expect([null, [], 'x', 1, undefined].some(isRecord)).toBe(false);
  });

  it('isPlainObject: a record with Object.prototype or null as prototype', () => {
    expect(isPlainObject({ a: 1 }) && isPlainObject(Object.create(null)) && isPlainObject(JSON.parse('{"a":1}'))).toBe(true);
    expect([new Date(), new Map(), [], null, new (class X {})()].some(isPlainObject)).toBe(false);
  });
});
