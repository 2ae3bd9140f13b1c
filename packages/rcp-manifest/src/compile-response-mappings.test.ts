import { seedManifest } from 'rcp-test-utils';
import { describe, expect, it } from 'vitest';
import { RcpManifestError, compileResponseMappings, parseManifest } from './index';

function issuesOf(mappings: Record<string, unknown>): readonly { path: string; message: string }[] {
  try {
    compileResponseMappings(mappings as Record<string, string>);
  } catch (error) {
    expect(error).toBeInstanceOf(RcpManifestError);
    expect((error as RcpManifestError).code).toBe('RCP_INVALID_MANIFEST');
    return (error as RcpManifestError).issues;
  }
  throw new Error('expected the mappings to be refused');
}

const response = {
  data: {
    name: 'Ada',
    progress: { percent: 42 },
    tags: [{ label: 'math' }, { label: 'logic' }, { label: 'poetry' }],
    empty: null,
  },
};

describe('compileResponseMappings', () => {
  it("reshapes the seed tool's response", () => {
    const tool = parseManifest(seedManifest).tools[0];
    const mappings = compileResponseMappings(tool?.responseMappings ?? {});
    expect(mappings.fields).toEqual(['name', 'progress']);
    expect(mappings.apply(response)).toEqual({ name: 'Ada', progress: 42 });
  });

  it('a singular query yields the value, or leaves the field out when nothing matches', () => {
    const mappings = compileResponseMappings({ name: '@data.name', missing: '@data.nope', deep: '@data.nope.deeper', empty: '@data.empty' });
    const out = mappings.apply(response);
    expect(out).toEqual({ name: 'Ada', empty: null });
    expect('missing' in out).toBe(false);
    expect('deep' in out).toBe(false);
  });

  it('"@" alone is the whole response', () => {
    expect(compileResponseMappings({ all: '@' }).apply([1, 2])).toEqual({ all: [1, 2] });
  });

  it('"@.x", "@[0]" and "@x" are $.x, $[0] and $.x', () => {
    const mappings = compileResponseMappings({ a: '@.x', b: '@[0]', c: '@x', d: "@['x']" });
    expect(mappings.apply({ x: 1 })).toEqual({ a: 1, c: 1, d: 1 });
    expect(mappings.apply(['first'])).toEqual({ b: 'first' });
  });

  it('negative indexes count from the end (RFC 9535)', () => {
    const mappings = compileResponseMappings({ last: '@data.tags[-1].label', outside: '@data.tags[-4]' });
    expect(mappings.apply(response)).toEqual({ last: 'poetry' });
  });

  it('any other query yields an array of every match, possibly empty', () => {
    const mappings = compileResponseMappings({
      labels: '@data.tags[*].label',
      firstTwo: '@data.tags[:2].label',
      reversed: '@data.tags[::-1].label',
      everyLabel: '@..label',
      picked: "@data['name','nope']",
      none: '@data.nope[*]',
      filtered: '@data.tags[?@.label == "logic"].label',
    });
    expect(mappings.apply(response)).toEqual({
      labels: ['math', 'logic', 'poetry'],
      firstTwo: ['math', 'logic'],
      reversed: ['poetry', 'logic', 'math'],
      everyLabel: ['math', 'logic', 'poetry'],
      picked: ['Ada'],
      none: [],
      filtered: ['logic'],
    });
  });

  it('reads own properties only', () => {
    const data = JSON.parse('{"own": 1}') as object;
    const mappings = compileResponseMappings({ ctor: '@constructor', proto: '@toString', own: '@own', all: '@.*' });
    expect(mappings.apply(data)).toEqual({ own: 1, all: [1] });
    expect(compileResponseMappings({ len: '@length' }).apply([1, 2])).toEqual({});
    expect(compileResponseMappings({ len: '@length' }).apply('text')).toEqual({});
  });

  it('works on any data: scalars, null, undefined', () => {
    const mappings = compileResponseMappings({ a: '@a', all: '@', many: '@..a' });
    expect(mappings.apply(null)).toEqual({ all: null, many: [] });
    expect(mappings.apply(7)).toEqual({ all: 7, many: [] });
  });

  it('allows field names like "constructor" and keeps them as own keys', () => {
    const out = compileResponseMappings({ constructor: '@a', toString: '@b' }).apply({ a: 1, b: 2 });
    expect(Object.keys(out)).toEqual(['constructor', 'toString']);
    expect(out['constructor']).toBe(1);
  });

  it('returns a fresh object each call', () => {
    const mappings = compileResponseMappings({ a: '@a' });
    expect(mappings.apply({ a: 1 })).not.toBe(mappings.apply({ a: 1 }));
    expect(Object.isFrozen(mappings)).toBe(true);
  });

  it('refuses every invalid entry at once, with pointers', () => {
    expect(issuesOf({ '': '@a', ok: '@a', bad: 'data', worse: '@[', 'a/b': 5 }).map((issue) => issue.path)).toEqual(['/', '/bad', '/worse', '/a~1b']);
    const proto = JSON.parse('{"__proto__": "@a"}') as Record<string, unknown>;
    expect(issuesOf(proto)).toEqual([{ path: '/__proto__', message: '"__proto__" cannot be a mapping name' }]);
  });

  it('refuses a non-object', () => {
    expect(() => compileResponseMappings(null as unknown as Record<string, string>)).toThrow(RcpManifestError);
  });
});

describe('compileResponseMappings — singular fast path', () => {
  it('keeps found falsy values (null, 0, false, "") and leaves out only what is missing', () => {
    const mappings = compileResponseMappings({ n: '@a', z: '@b', f: '@c', e: '@d', gone: '@x.y', last: '@list[-1]' });
    expect(mappings.apply({ a: null, b: 0, c: false, d: '', list: [1, 2, 3] })).toEqual({
      n: null,
      z: 0,
      f: false,
      e: '',
      last: 3,
    });
    expect(mappings.apply('not an object')).toEqual({});
    expect(mappings.apply(Object.create({ a: 'inherited' }))).toEqual({});
  });
});

describe('outputSchema: the shape of what the mappings return (SPEC §9)', () => {
  it('is any value (not required) for a singular query and a required array for any other', () => {
    const mappings = compileResponseMappings({
      name: '@data.name',
      whole: '@',
      last: '@data.tags[-1].label',
      tags: '@data.tags[*].label',
      deep: '@..percent',
      first: '@data.tags[0:1]',
    });
    expect(mappings.outputSchema).toEqual({
      type: 'object',
      properties: { name: {}, whole: {}, last: {}, tags: { type: 'array' }, deep: { type: 'array' }, first: { type: 'array' } },
      required: ['tags', 'deep', 'first'],
      additionalProperties: false,
    });
    expect(Object.isFrozen(mappings.outputSchema.properties)).toBe(true);
  });

  it('validates what apply returns, whether the response has the values or not (ajv)', async () => {
    const { default: Ajv } = (await import('ajv')) as unknown as { default: new (options: object) => { compile(schema: object): (data: unknown) => boolean } };
    const mappings = compileResponseMappings({ name: '@data.name', percent: '@data.progress.percent', tags: '@data.tags[*].label' });
    const validate = new Ajv({ strict: true }).compile(mappings.outputSchema);
    expect(validate(mappings.apply(response))).toBe(true);
    expect(validate(mappings.apply({}))).toBe(true); // singular fields left out, the array empty
    expect(validate({ ...mappings.apply(response), extra: 1 })).toBe(false);
    expect(validate({ name: 'Ada' })).toBe(false); // tags is always there
  });
});
