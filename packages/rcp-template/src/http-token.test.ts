import { describe, expect, it } from 'vitest';
import { isHttpToken, isTokenChar } from './index';

describe('the RFC 9110 token rule', () => {
  it('accepts letters, digits and the tchar symbols, nothing else', () => {
    const tchar = [...Array(128).keys()].filter(isTokenChar).map((code) => String.fromCharCode(code)).join('');
    expect(tchar).toBe("!#$%&'*+-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ^_`abcdefghijklmnopqrstuvwxyz|~");
    expect([0xe9, 0x2028, 0x1f].some(isTokenChar)).toBe(false);
    expect(['Authorization', 'X-Api-Key', "a!#$%&'*+-.^_`|~"].every(isHttpToken)).toBe(true);
    expect(['', 'a b', 'a:b', 'é', 'a\tb', 'a(b)'].some(isHttpToken)).toBe(false);
  });
});
