import { describe, expect, it } from 'vitest';
import { nextLinkTarget } from './link-header';

describe('nextLinkTarget (RFC 8288)', () => {
  it.each([
    ['<https://api.example.com/items?page=2>; rel="next"', 'https://api.example.com/items?page=2'],
    ['<https://a.example/i?page=1>; rel="prev", <https://a.example/i?page=3>; rel="next"', 'https://a.example/i?page=3'],
    // GitHub's form, unquoted rel, other parameters before it
    ['<https://a.example/r?page=2>; title="a, b; c"; rel=next, <https://a.example/r?page=9>; rel=last', 'https://a.example/r?page=2'],
    ['</items?after=x>; rel="next last"', '/items?after=x'],
    ['<  /items?p=2  >;REL="NEXT"', '/items?p=2'],
    ['<https://a.example/i?p=2>; rel="next"', 'https://a.example/i?p=2'],
  ])('%s', (header, expected) => {
    expect(nextLinkTarget(header)).toBe(expected);
  });

  it.each([
    null,
    '',
    '<https://a.example/i?p=1>; rel="prev"',
    'https://a.example/i; rel=next',
    '<https://a.example/i; rel=next',
    '<a>; rel="nextpage"',
    '<a>; =next',
    'x'.repeat(20_000),
  ])('finds no next link in %j', (header) => {
    expect(nextLinkTarget(header as string | null)).toBeUndefined();
  });
});
