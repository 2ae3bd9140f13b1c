import { describe, expect, it } from 'vitest';
import { jsonTextDepth, utf8ByteLength, valueDepth } from './read-input';

describe('read-input helpers', () => {
  it('counts UTF-8 bytes like TextEncoder (lone surrogates as U+FFFD)', () => {
    for (const text of ['', 'abc', 'é', '€', '☺', '😀', 'a😀b€', '\uD800', '\uDC00x', '\uD800\uD800']) {
      expect(utf8ByteLength(text)).toBe(new TextEncoder().encode(text).byteLength);
    }
  });

  it('measures text depth, skipping strings and escapes', () => {
    expect(jsonTextDepth('1', 10)).toBe(0);
    expect(jsonTextDepth('{"a":[{"b":[]}]}', 10)).toBe(4);
    expect(jsonTextDepth('{"a":"[[[\\"[[["}', 10)).toBe(1);
    expect(jsonTextDepth('[[[[[[', 3)).toBe(4);
  });

  it('measures value depth, stopping past the maximum', () => {
    expect(valueDepth('x', 5)).toBe(0);
    expect(valueDepth({ a: [{ b: [] }] }, 10)).toBe(4);
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(valueDepth(cycle, 20)).toBe(21);
  });
});
