import { describe, expect, it } from 'vitest';
import { compileArgumentCheck, expectedType, hasType, readArguments } from './index';
import { kindOf } from 'rcp-internal';
import type { ArgumentCheckResult } from './index';

function issuesOf(result: ArgumentCheckResult) {
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.issues;
}

describe('compileArgumentCheck', () => {
  const check = compileArgumentCheck([
    { name: 'query', required: true },
    { name: 'limit', type: 'integer', minimum: 1, maximum: 50 },
    { name: 'tags', type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
    { name: 'open', type: 'boolean' },
  ]);

  it('accepts declared values and returns a null-prototype copy of the given ones', () => {
    const result = check({ query: 'algebra', limit: 10, open: null, tags: undefined });
    expect(result).toEqual({ ok: true, values: { query: 'algebra', limit: 10 } });
    if (result.ok) expect(Object.getPrototypeOf(result.values)).toBeNull();
  });

  it('reads JSON text as model APIs return it; blank text is {}', () => {
    expect(check('{"query":"x"}')).toEqual({ ok: true, values: { query: 'x' } });
    expect(compileArgumentCheck([])('  ')).toEqual({ ok: true, values: {} });
    expect(compileArgumentCheck([])(undefined)).toEqual({ ok: true, values: {} });
    const broken = check('{"query":');
    expect(issuesOf(broken)).toEqual([{ path: '', message: 'are not valid JSON' }]);
    expect(!broken.ok && broken.cause).toBeInstanceOf(SyntaxError);
  });

  it('refuses arguments that are not an object', () => {
    expect(issuesOf(check([1]))).toEqual([{ path: '', message: 'must be an object (got array)' }]);
    expect(issuesOf(check('3'))).toEqual([{ path: '', message: 'must be an object (got integer)' }]);
    expect(issuesOf(check(null))).toEqual([{ path: '', message: 'must be an object (got null)' }]);
  });

  it('lists every problem at its pointer: extra keys, types, details, required — never a value', () => {
    const issues = issuesOf(check({ limit: 0, tags: ['a', 'zz', 3], open: 'yes', 'a/b': 1 }));
    expect(issues).toEqual([
      { path: '/limit', message: 'must be ≥ 1' },
      { path: '/tags/1', message: 'must be one of "a", "b"' },
      { path: '/tags/2', message: 'must be a string (got integer)' },
      { path: '/open', message: 'must be a boolean (got string)' },
      { path: '/a~1b', message: 'is not a parameter of this tool' },
      { path: '/query', message: 'is required' },
    ]);
    expect(JSON.stringify(issues)).not.toContain('zz');
  });

  it('does not report a required param twice when its value was wrong', () => {
    expect(issuesOf(check({ query: 5 }))).toEqual([{ path: '/query', message: 'must be a string (got integer)' }]);
  });

  it('reads own keys only; a __proto__ key from JSON.parse is an unknown key', () => {
    const inherited = Object.create({ query: 'inherited' }) as object;
    expect(issuesOf(check(inherited))).toEqual([{ path: '/query', message: 'is required' }]);
    expect(issuesOf(check('{"query":"x","__proto__":{"limit":1}}'))).toEqual([{ path: '/__proto__', message: 'is not a parameter of this tool' }]);
  });

  it('uses a safe integer and a finite number', () => {
    const numbers = compileArgumentCheck([
      { name: 'n', type: 'number' },
      { name: 'i', type: 'integer' },
    ]);
    expect(issuesOf(numbers({ n: Number.NaN, i: 2 ** 53 }))).toEqual([
      { path: '/n', message: 'must be a number (got NaN)' },
      { path: '/i', message: 'must be a safe integer (got integer)' },
    ]);
  });

  it('finds params by name in a long list', () => {
    const many = compileArgumentCheck(Array.from({ length: 40 }, (_, index) => ({ name: `p${index}` })));
    expect(many({ p39: 'x' })).toEqual({ ok: true, values: { p39: 'x' } });
    expect(issuesOf(many({ p40: 'x' }))).toEqual([{ path: '/p40', message: 'is not a parameter of this tool' }]);
  });
});

describe('the type table', () => {
  it('has one wording for every type', () => {
    expect(['string', 'number', 'integer', 'boolean', 'array', 'object'].map((type) => expectedType(type as never))).toEqual([
      'a string',
      'a number',
      'a safe integer',
      'a boolean',
      'an array',
      'an object',
    ]);
    expect(hasType('object', [])).toBe(false);
    expect(hasType('number', Infinity)).toBe(false);
    expect([null, [], 1, 1.5, Infinity, 'x', true].map(kindOf)).toEqual(['null', 'array', 'integer', 'number', 'Infinity', 'string', 'boolean']);
  });
});

describe('readArguments: the one rule for arguments as model APIs return them', () => {
  it('parses JSON text, reads blank text and undefined as {}, and passes any other value as it is', () => {
    expect(readArguments('{"q":"algebra"}')).toEqual({ ok: true, value: { q: 'algebra' } });
    expect(readArguments(' \n')).toEqual({ ok: true, value: {} });
    expect(readArguments(undefined)).toEqual({ ok: true, value: {} });
    const value = { q: 1 };
    expect(readArguments(value)).toEqual({ ok: true, value });
    expect(readArguments('[1]')).toEqual({ ok: true, value: [1] });
  });

  it('words text that is not JSON as one issue, the parse error as the cause, and is the check’s first step', () => {
    const read = readArguments('{"q": secret-value');
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.issues).toEqual([{ path: '', message: 'are not valid JSON' }]);
    expect(read.cause).toBeInstanceOf(SyntaxError);
    expect(JSON.stringify(read.issues)).not.toContain('secret');
    expect(compileArgumentCheck([{ name: 'q' }])('{"q": secret-value')).toMatchObject({ ok: false, issues: read.issues });
  });
});
