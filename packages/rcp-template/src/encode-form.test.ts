import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRcpError } from 'rcp-errors';
import { encodeFormBody } from './encode-form';

/** What a server's form parser sees: decoded name → values, in order. */
function parsed(text: string): [string, string][] {
  return [...new URLSearchParams(text)];
}

describe('encodeFormBody', () => {
  it('writes the documented forms: scalars, Stripe brackets, Twilio repeats, indexed objects', () => {
    expect(encodeFormBody({ amount: 500, live: true, note: 'a b' })).toBe('amount=500&live=true&note=a%20b');
    expect(parsed(encodeFormBody({ metadata: { order: 'o-1', nested: { x: 1 } } }))).toEqual([
      ['metadata[order]', 'o-1'],
      ['metadata[nested][x]', '1'],
    ]);
    expect(encodeFormBody({ To: ['+1', '+2'] })).toBe('To=%2B1&To=%2B2');
    expect(parsed(encodeFormBody({ items: [{ price: 'p_1', quantity: 2 }, { price: 'p_2' }] }))).toEqual([
      ['items[0][price]', 'p_1'],
      ['items[0][quantity]', '2'],
      ['items[1][price]', 'p_2'],
    ]);
    expect(encodeFormBody({ gone: null, empty: [], none: {} })).toBe('');
  });

  it('a value can never add a field or nest: & = [ ] and % are encoded', () => {
    for (const value of ['a&b=c', 'x[y]=1', '%26', 'a=b&c[d]=e', '\r\n']) {
      expect(parsed(encodeFormBody({ q: value }))).toEqual([['q', value]]);
    }
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const text = encodeFormBody({ a, b });
        expect(parsed(text)).toEqual([
          ['a', a],
          ['b', b],
        ]);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses an object key with a bracket (it could pass for nesting), a lone surrogate and a non-object body', () => {
    const code = (run: () => unknown) => {
      try {
        run();
        return undefined;
      } catch (error) {
        return isRcpError(error) ? error.code : String(error);
      }
    };
    expect(code(() => encodeFormBody({ meta: { 'a][b': 1 } }))).toBe('RCP_TEMPLATE_VALUE');
    expect(code(() => encodeFormBody({ q: '\ud800' }))).toBe('RCP_TEMPLATE_VALUE');
    expect(code(() => encodeFormBody(['a']))).toBe('RCP_TEMPLATE_VALUE');
  });
});
