import { describe, expect, it } from 'vitest';
import { isHeaderValue, isHeaderValueChar } from './header-value';

describe('isHeaderValue (RCP M7.3c over RFC 9110 field-value, the one rule)', () => {
  it('allows visible ASCII, obs-text, and a space inside', () => {
    for (const value of ['', 'a', 'Bearer abc', 'caf\u00e9', '\u00ff', 'x y z']) expect(isHeaderValue(value)).toBe(true);
  });

  it('refuses TAB (stricter than RFC 9110) and every other control, DEL, above U+00FF, and a space at either end', () => {
    for (const value of ['a\tb', 'a\rb', 'a\nb', 'a\0b', 'a\u001bb', 'a\u007fb', '\u0100', '\u{1f600}', ' a', 'a ', '\ta', 'a\t', ' ']) {
      expect(isHeaderValue(value)).toBe(false);
    }
    expect(isHeaderValueChar(0x09)).toBe(false);
  });

  it('accepts only what the Fetch API sends unchanged', () => {
    for (const value of ['x y', 'caf\u00e9', 'a!~']) expect(new Headers({ 'x-v': value }).get('x-v')).toBe(value);
  });
});
