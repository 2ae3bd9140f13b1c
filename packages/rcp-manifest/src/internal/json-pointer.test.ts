import { describe, expect, it } from 'vitest';
import { comparePointers, joinPointer, splitPointer } from './json-pointer';

describe('JSON Pointer (RFC 6901)', () => {
  it('escapes ~ and / in reference tokens', () => {
    expect(joinPointer('', 'tools', 0, 'headers', 'a/b~c')).toBe('/tools/0/headers/a~1b~0c');
    expect(joinPointer('/x', '')).toBe('/x/');
    expect(splitPointer('/tools/0/headers/a~1b~0c')).toEqual(['tools', '0', 'headers', 'a/b~c']);
  });

  it('orders pointers in document order with numeric array indexes', () => {
    const sorted = ['/tools/10/name', '/tools/2/url', '/auth', '/tools/2', ''].sort(comparePointers);
    expect(sorted).toEqual(['', '/auth', '/tools/2', '/tools/2/url', '/tools/10/name']);
  });
});
