import { describe, expect, it } from 'vitest';
import { compileRequest } from './index';

// RCP 0.4 query serialisations (issue 41 item 2): what OpenAPI's deepObject and non-exploded form write.
const url = (template: Parameters<typeof compileRequest>[0], styles: Record<string, 'repeat' | 'comma' | 'deepObject'>, values: Record<string, unknown>) =>
  compileRequest(template, { queryStyles: styles }).render(values).url;

describe('query styles (RCP 0.4)', () => {
  const list = { method: 'GET', url: 'https://api.example.com/charges', queryParams: { created: '{{created}}', ids: '{{ids}}', limit: '{{limit}}' } };

  it('deepObject writes the bracket form of form bodies under the key: nested objects by path, scalar arrays repeated, object arrays indexed, null left out', () => {
    expect(url(list, { created: 'deepObject' }, { created: { gte: 1, lt: 5 }, limit: 3 })).toBe(
      'https://api.example.com/charges?created%5Bgte%5D=1&created%5Blt%5D=5&limit=3',
    );
    expect(url(list, { created: 'deepObject' }, { created: { a: { 'b c': 'x&y' }, list: ['p', true] } })).toBe(
      'https://api.example.com/charges?created%5Ba%5D%5Bb%20c%5D=x%26y&created%5Blist%5D=p&created%5Blist%5D=true',
    );
    expect(url(list, { created: 'deepObject' }, { created: { items: [{ price: 'p1' }, { price: 'p2' }], skip: null } })).toBe(
      'https://api.example.com/charges?created%5Bitems%5D%5B0%5D%5Bprice%5D=p1&created%5Bitems%5D%5B1%5D%5Bprice%5D=p2',
    );
  });

  it('deepObject: an empty object writes nothing; a scalar, a bracket in a name or nesting past 64 levels is RCP_TEMPLATE_VALUE', () => {
    expect(url(list, { created: 'deepObject' }, { created: {}, limit: 1 })).toBe('https://api.example.com/charges?limit=1');
    const compiled = compileRequest(list, { queryStyles: { created: 'deepObject' } });
    expect(() => compiled.render({ created: 5 })).toThrow(expect.objectContaining({ code: 'RCP_TEMPLATE_VALUE' }));
    expect(() => compiled.render({ created: { 'a[b]': 1 } })).toThrow(expect.objectContaining({ code: 'RCP_TEMPLATE_VALUE' }));
    let deep: unknown = 1;
    for (let level = 0; level < 70; level++) deep = { d: deep };
    expect(() => compiled.render({ created: deep })).toThrow(expect.objectContaining({ code: 'RCP_TEMPLATE_VALUE' }));
  });

  it('comma writes one entry, elements encoded and joined by a literal comma; repeat stays the default', () => {
    expect(url(list, { ids: 'comma' }, { ids: ['a', 'b,c', 3] })).toBe('https://api.example.com/charges?ids=a,b%2Cc,3');
    expect(url(list, { ids: 'comma' }, { ids: [], limit: 2 })).toBe('https://api.example.com/charges?limit=2');
    expect(url(list, { ids: 'comma' }, { ids: 'one' })).toBe('https://api.example.com/charges?ids=one');
    expect(url(list, {}, { ids: ['a', 'b'] })).toBe('https://api.example.com/charges?ids=a&ids=b');
    expect(() => compileRequest(list, { queryStyles: { ids: 'comma' } }).render({ ids: [{ a: 1 }] })).toThrow(
      expect.objectContaining({ code: 'RCP_TEMPLATE_VALUE' }),
    );
  });

  it('a style for a token not the whole value of a query entry, or an unknown style, is RCP_TEMPLATE_SYNTAX at compile time', () => {
    const longer = { method: 'GET', url: 'https://api.example.com/x?tag=t-{{tag}}' };
    expect(() => compileRequest(longer, { queryStyles: { tag: 'comma' } })).toThrow(expect.objectContaining({ code: 'RCP_TEMPLATE_SYNTAX' }));
    expect(() => compileRequest(list, { queryStyles: { nope: 'deepObject' } })).toThrow(expect.objectContaining({ code: 'RCP_TEMPLATE_SYNTAX' }));
    expect(() => compileRequest(list, { queryStyles: { ids: 'pipe' as never } })).toThrow(expect.objectContaining({ code: 'RCP_TEMPLATE_SYNTAX' }));
  });
});
