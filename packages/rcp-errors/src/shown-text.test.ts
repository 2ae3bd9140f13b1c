import { describe, expect, it } from 'vitest';
import { REDACTED, blankUnsafeText, escapeUnsafeText } from './index';

const UNSAFE = ['\u0000', '\u0007', '\u001b', '\n', '\r', '\t', '\u007f', '\u0085', '\u009b', '\u2028', '\u2029', '\u202a', '\u202e', '\u2066', '\u2069'];

describe('text shown from a server or a document', () => {
  it('escapeUnsafeText shows every unsafe character as an escape and keeps the rest', () => {
    for (const char of UNSAFE) expect(escapeUnsafeText(`a${char}b`)).not.toContain(char);
    expect(escapeUnsafeText('a\u001b]0;x\u0007b\u202ec')).toBe('a\\x1b]0;x\\x07b\\u202ec');
    expect(escapeUnsafeText('plain é 😀')).toBe('plain é 😀');
  });

  it("lineBreaks: 'keep' leaves CR and LF and escapes the rest of the set", () => {
    expect(escapeUnsafeText('a\r\nb\u001b\u202e', { lineBreaks: 'keep' })).toBe('a\r\nb\\x1b\\u202e');
    for (const char of UNSAFE.filter((c) => c !== '\n' && c !== '\r')) {
      expect(escapeUnsafeText(`a${char}b`, { lineBreaks: 'keep' })).not.toContain(char);
    }
  });

  it("form: 'json' writes \\uXXXX escapes, so JSON.stringify's output stays the same JSON value", () => {
    const value = { name: 'x\u009b\u2028\u202e\u007f', list: ['\u0085'] };
    const shown = escapeUnsafeText(JSON.stringify(value, null, 2), { lineBreaks: 'keep', form: 'json' });
    for (const char of UNSAFE.filter((c) => c !== '\n')) expect(shown).not.toContain(char);
    expect(JSON.parse(shown)).toEqual(value);
    expect(shown).toContain('\\u009b');
  });

  it('blankUnsafeText replaces each one by a space', () => {
    for (const char of UNSAFE) expect(blankUnsafeText(`a${char}b`)).toBe('a b');
    expect(blankUnsafeText('plain é 😀')).toBe('plain é 😀');
  });

  it('REDACTED is the one marker', () => {
    expect(REDACTED).toBe('[redacted]');
  });
});
