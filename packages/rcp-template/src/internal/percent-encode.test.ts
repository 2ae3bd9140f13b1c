import { describe, expect, it } from 'vitest';
import { encodeUnreserved, isDotOrEmptySegment, normalizePathLiteral, normalizeQueryLiteral } from './percent-encode';

describe('encodeUnreserved', () => {
  it('keeps unreserved characters as they are', () => {
    const unreserved = 'ABCXYZabcxyz0189-._~';
    expect(encodeUnreserved(unreserved)).toBe(unreserved);
  });

  it('encodes every other ASCII character as uppercase %XX', () => {
    for (let code = 0; code < 128; code++) {
      const char = String.fromCharCode(code);
      if (/[A-Za-z0-9\-._~]/.test(char)) continue;
      expect(encodeUnreserved(char)).toBe(`%${code.toString(16).toUpperCase().padStart(2, '0')}`);
    }
  });

  it("encodes the characters encodeURIComponent leaves: ! ' ( ) *", () => {
    expect(encodeUnreserved("a!b'c(d)e*f")).toBe('a%21b%27c%28d%29e%2Af');
  });

  it('encodes non-ASCII as UTF-8 bytes', () => {
    expect(encodeUnreserved('\u00e9\u4e2d\u{1f600}')).toBe('%C3%A9%E4%B8%AD%F0%9F%98%80');
  });

  it('returns undefined for a lone surrogate', () => {
    expect(encodeUnreserved('\ud800')).toBeUndefined();
    expect(encodeUnreserved('a\udc00')).toBeUndefined();
  });
});

describe('literal normalisation', () => {
  it('keeps path delimiters and valid escapes, uppercasing them', () => {
    expect(normalizePathLiteral("a:b@c!$&'()*+,;=-._~%2f")).toBe("a:b@c!$&'()*+,;=-._~%2F");
    expect(normalizePathLiteral('a b{}|^`"<>%zz\u00e9')).toBe('a%20b%7B%7D%7C%5E%60%22%3C%3E%25zz%C3%A9');
  });

  it('also keeps "/" and "?" in query text', () => {
    expect(normalizeQueryLiteral('a/b?c')).toBe('a/b?c');
    expect(normalizePathLiteral('a?')).toBe('a%3F');
  });

  it('returns the offset of a lone surrogate', () => {
    expect(normalizePathLiteral('ab\ud800')).toBe(2);
  });
});

describe('isDotOrEmptySegment', () => {
  it.each(['', '.', '..', '%2e', '%2E', '.%2e', '%2E.', '%2e%2E'])('is true for %j', (segment) => {
    expect(isDotOrEmptySegment(segment)).toBe(true);
  });

  it.each(['...', 'a', '.a', '%252e', '%2e%2e%2e', '%2f', '..%2F'])('is false for %j', (segment) => {
    expect(isDotOrEmptySegment(segment)).toBe(false);
  });
});
