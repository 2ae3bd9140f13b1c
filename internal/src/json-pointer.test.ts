import { describe, expect, it } from 'vitest';
import { escapePointerToken, unescapePointerToken } from './index';

describe('JSON Pointer reference tokens (RFC 6901)', () => {
  it('unescape undoes escape, ~1 before ~0', () => {
    for (const token of ['plain', 'a/b', 'a~b', '~1', '~0', '/~/', '~01', '']) {
      expect(unescapePointerToken(escapePointerToken(token))).toBe(token);
    }
    expect(unescapePointerToken('~01')).toBe('~1');
    expect(escapePointerToken(3)).toBe('3');
  });
});
