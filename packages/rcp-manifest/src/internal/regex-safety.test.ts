import { describe, expect, it } from 'vitest';
import { MAX_PATTERN_LENGTH, unsafePatternReason } from './regex-safety';

describe('unsafePatternReason', () => {
  it.each(['(a+)+$', '(a*)*', '(a|aa)*', '(\\w*\\s?)*', '^(a+){2,}$', '((ab)*c)+', '(?:x+y?)+'])('refuses %s', (pattern) => {
    expect(unsafePatternReason(pattern)).toMatch(/repeated group/);
  });
  it.each(['\\1', '(a)\\1', '\\k<n>'])('refuses the backreference %s', (pattern) => {
    expect(unsafePatternReason(pattern)).toMatch(/backreferences/);
  });
  it.each(['(?=a)b', '(?!a)', '(?<=a)b', '(?<!a)b'])('refuses the lookaround %s', (pattern) => {
    expect(unsafePatternReason(pattern)).toMatch(/lookahead/);
  });
  it.each(['a.b', '^[a-z]+@[a-z]+\\.[a-z]+$', '(ab)+', 'a+b*', '[(+*]+', '(a|b)', '(a|b)?', '\\d{4}-\\d{2}', 'x(y+)?z', '(ab){2}c'])('accepts %s', (pattern) =>
    expect(unsafePatternReason(pattern)).toBeUndefined(),
  );
  it('refuses a pattern that is too long', () => {
    expect(unsafePatternReason('a'.repeat(MAX_PATTERN_LENGTH + 1))).toMatch(/longer than/);
  });
});
