import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileResponseMappings } from './index';

const KEYS = ['a', 'b', 'data', 'name', '0', 'toString', 'constructor', 'hasOwnProperty'];

/** The rule written out: own properties of non-array objects, step by step; absent → the field is left out. */
function reference(data: unknown, names: readonly string[]): { found: boolean; value?: unknown } {
  let current = data;
  for (const name of names) {
    if (typeof current !== 'object' || current === null || Array.isArray(current) || !Object.hasOwn(current, name)) return { found: false };
    current = (current as Record<string, unknown>)[name];
  }
  return { found: true, value: current };
}

const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, 0, 'x', undefined),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('singular name paths (1 to 3 names unrolled, longer ones walked): the same rule at every depth', () => {
  it('reads own properties of non-array objects only, and leaves a field out when a step is missing', () => {
    fc.assert(
      fc.property(json, fc.array(fc.constantFrom(...KEYS), { minLength: 1, maxLength: 5 }), (data, names) => {
        const mappings = compileResponseMappings({ field: `@${names.map((name) => `[${JSON.stringify(name)}]`).join('')}` });
        const expected = reference(data, names);
        const out = mappings.apply(data);
        expect(Object.hasOwn(out, 'field')).toBe(expected.found);
        if (expected.found) expect(out['field']).toBe(expected.value);
      }),
      { numRuns: 3000 },
    );
  });

  it('never reads an inherited property, at any depth', () => {
    const inherited = Object.create({ name: 'from the prototype' }) as Record<string, unknown>;
    for (const path of ['@name', '@data.name', '@data.data.name', '@data.data.data.name']) {
      const data =
        path.split('.').length === 1
          ? inherited
          : { data: path.split('.').length === 2 ? inherited : { data: path.split('.').length === 3 ? inherited : { data: inherited } } };
      expect(compileResponseMappings({ field: path }).apply(data)).toEqual({});
    }
  });
});
