import { describe, expect, it } from 'vitest';
import { isHeaderValue, isHeaderValueChar } from './header-value';

describe('isHeaderValue (RFC 9110 field-value, the one rule)', () => {
  it('allows visible ASCII, obs-text, and space or tab inside', () => {
    for (const value of ['', 'a', 'Bearer abc', 'a\tb', 'caf\u00e9', '\u00ff', 'x y\tz']) expect(isHeaderValue(value)).toBe(true);
  });

  it('refuses controls but tab, DEL, above U+00FF, and a space or tab at either end', () => {
    for (const value of ['a\rb', 'a\nb', 'a\0b', 'a\u001bb', 'a\u007fb', '\u0100', '\u{1f600}', ' a', 'a ', '\ta', 'a\t', ' ', '\t']) {
      expect(isHeaderValue(value)).toBe(false);
    }
  });

  it('agrees with the Fetch API: what it accepts is sent unchanged', () => {
    for (const value of ['a\tb', 'x y', 'caf\u00e9']) expect(new Headers({ 'x-v': value }).get('x-v')).toBe(value);
    expect(isHeaderValueChar(0x09)).toBe(true);
    expect(isHeaderValueChar(0x0a)).toBe(false);
  });
});
