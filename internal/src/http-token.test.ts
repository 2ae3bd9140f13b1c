import { describe, expect, it } from 'vitest';
import { HTTP_TOKEN_PROBLEM, HTTP_TOKEN_SOURCE, isHttpToken, isTokenChar } from './index';

describe('the RFC 9110 token rule', () => {
  it('accepts letters, digits and the tchar symbols, nothing else', () => {
    const tchar = [...Array(128).keys()]
      .filter(isTokenChar)
      .map((code) => String.fromCharCode(code))
      .join('');
    expect(tchar).toBe("!#$%&'*+-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ^_`abcdefghijklmnopqrstuvwxyz|~");
    expect([0xe9, 0x2028, 0x1f].some(isTokenChar)).toBe(false);
    expect(['Authorization', 'X-Api-Key', "a!#$%&'*+-.^_`|~"].every(isHttpToken)).toBe(true);
    expect(['', 'a b', 'a:b', 'é', 'a\tb', 'a(b)'].some(isHttpToken)).toBe(false);
  });
});

describe('HTTP_TOKEN_SOURCE and HTTP_TOKEN_PROBLEM', () => {
  it('the regular expression accepts exactly what isHttpToken accepts (with and without the u flag)', () => {
    const samples = ['', 'a', 'Authorization', "a!#$%&'*+-.^_`|~", 'a b', 'a]', 'a\\', 'a^', 'a-', '-', '^', 'é', 'a:b', 'a,b', 'a"b', '[a]'];
    for (const code of Array(160).keys()) samples.push(`x${String.fromCharCode(code)}`);
    for (const flags of ['', 'u']) {
      const pattern = new RegExp(HTTP_TOKEN_SOURCE, flags);
      for (const sample of samples) expect([sample, pattern.test(sample)]).toEqual([sample, isHttpToken(sample)]);
    }
  });

  it('the problem lists the same symbols', () => {
    expect(HTTP_TOKEN_PROBLEM).toBe("must be an HTTP token (RFC 9110): letters, digits and !#$%&'*+-.^_`|~ only");
  });
});
