import { describe, expect, it } from 'vitest';
import { compileResponsePath, toRfc9535Query, type CompiledPath } from './json-path';

function compiled(expression: string): CompiledPath {
  const result = compileResponsePath(expression);
  if (!result.ok) throw new Error(result.message);
  return result.path;
}

function refusal(expression: string): string {
  const result = compileResponsePath(expression);
  if (result.ok) throw new Error(`expected ${expression} to be refused`);
  return result.message;
}

describe('response paths', () => {
  it('maps "@" paths to RFC 9535 queries', () => {
    expect(toRfc9535Query('@')).toBe('$');
    expect(toRfc9535Query('@data.name')).toBe('$.data.name');
    expect(toRfc9535Query('@.data')).toBe('$.data');
    expect(toRfc9535Query('@[0]')).toBe('$[0]');
    expect(toRfc9535Query('@..id')).toBe('$..id');
    expect(toRfc9535Query('@ .a')).toBe('$ .a');
    expect(toRfc9535Query('data')).toBeUndefined();
  });

  it('reads plain dotted paths without the parser, exactly as the parser would', () => {
    const data = { a: { b: [{ c: 1 }, { c: 2 }] }, _x9: 'y', '0': 'zero' };
    for (const expression of ['@', '@a', '@.a', '@a.b', '@a.b[1].c', '@a.b[2]', '@_x9', '@[0]', '@a.b[0]', '@nope.deeper']) {
      const plain = compileResponsePath(expression);
      const parsed = compileResponsePath(
        expression
          .replace(/^@\.?/, "@['")
          .replace(/^@\['$/, '@')
          .replace(/^@\['(\w+)/, "@['$1']")
          .replace(/^@\['\[/, '@['),
      );
      expect(plain.ok && parsed.ok).toBe(true);
      if (plain.ok && parsed.ok) expect(plain.path.select(data)).toEqual(parsed.path.select(data));
    }
  });

  it('compiles singular queries (names and indexes only) to direct walks', () => {
    for (const expression of ['@', '@a', '@a.b[0]', "@['a'][-1]", '@[0][1]']) {
      expect(compiled(expression)).toMatchObject({ singular: true, usesFilter: false });
    }
    for (const expression of ['@a[*]', '@..a', '@a[0,1]', '@a[0:1]', "@['a','b']", '@a[?@.b]']) {
      expect(compiled(expression).singular).toBe(false);
    }
  });

  it('only filter queries fall back to the library', () => {
    expect(compiled('@a[*].b..c[1:3]').usesFilter).toBe(false);
    expect(compiled('@a[?@.b > 1]').usesFilter).toBe(true);
  });

  it('walks own properties only, with RFC negative indexes', () => {
    const walk = compiled('@a[-1].b').select;
    expect(walk({ a: [{ b: 1 }, { b: 2 }] })).toEqual([2]);
    expect(walk({ a: [] })).toEqual([]);
    expect(walk({ a: { '-1': { b: 3 } } })).toEqual([]);
    expect(compiled('@constructor').select({})).toEqual([]);
    expect(compiled('@__proto__').select({})).toEqual([]);
    expect(compiled('@__proto__').select(JSON.parse('{"__proto__": 5}'))).toEqual([5]);
  });

  it('evaluates descendants iteratively (a 100,000-deep response cannot exhaust the stack)', () => {
    let data: unknown = { id: 'leaf' };
    for (let index = 0; index < 100_000; index++) data = { next: data };
    expect(compiled('@..id').select(data)).toEqual(['leaf']);
  });

  it('refuses what RFC 9535 calls invalid, including what the parser alone accepts', () => {
    expect(refusal('@[9007199254740992]')).toMatch(/I-JSON/);
    expect(refusal('@[?length(@.a)]')).toMatch(/cannot be used as a test/);
    expect(refusal('@[?count(1) > 2]')).toMatch(/NodesType/);
    expect(refusal('@[?match(@.a, "x") == true]')).toMatch(/cannot be compared/);
    expect(refusal('@[?unknown(@.a)]')).toMatch(/unknown function/);
    expect(refusal('@[?length(@.a, @.b) == 1]')).toMatch(/takes 1 argument/);
  });

  it('refuses ungrouped chains of three "&&" (the engine would evaluate them wrongly), accepts grouped ones', () => {
    expect(refusal('@[?@.a && @.b && @.c]')).toMatch(/parentheses/);
    expect(
      compiled('@[?@.a && (@.b && @.c)]').select([
        { a: 1, b: 1, c: 1 },
        { a: 1, b: 1 },
      ]),
    ).toEqual([{ a: 1, b: 1, c: 1 }]);
    expect(compiled('@[?@.a == "&& && &&" && @.b]').usesFilter).toBe(true);
    expect(compiled('@[?@.a && @.b || @.c && @.d]').usesFilter).toBe(true);
  });

  it('never evaluates code: script-like text is just an invalid query or a plain name', () => {
    expect(refusal('@[?(function(){ return true })()]')).toMatch(/RFC 9535/);
    expect(refusal('@constructor.constructor("return process")()')).toMatch(/RFC 9535/);
    expect(compiled("@['constructor']").select({})).toEqual([]);
  });

  it('reports a parse error with the query text', () => {
    expect(refusal('@[')).toMatch(/^is not a valid RFC 9535 JSONPath query \(\$\[\):/);
  });
});
