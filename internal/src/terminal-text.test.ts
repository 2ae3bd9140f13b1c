import { describe, expect, it } from 'vitest';
import { annotationMessage, annotationProperty, terminalJson, terminalLines, terminalStrings, terminalText } from './terminal-text';

/** Every character the sanitiser must never let through raw. */
const UNSAFE = [
  ...Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)),
  '\u007f',
  ...Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(0x80 + code)),
  '\u2028',
  '\u2029',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
];
const RAW = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('terminalText', () => {
  it('shows every unsafe character escaped, never raw', () => {
    for (const char of UNSAFE) expect(terminalText(`a${char}b`)).not.toMatch(RAW);
    expect(terminalText('\x1b]0;owned\x07')).toBe('\\x1b]0;owned\\x07');
    expect(terminalText('\x1b[2K\rwarning forged')).toBe('\\x1b[2K\\x0dwarning forged');
    expect(terminalText('one\ntwo')).toBe('one\\x0atwo');
    expect(terminalText('\u009b31m \u007f')).toBe('\\x9b31m \\x7f');
    expect(terminalText('\u202eevil\u2066\u2028')).toBe('\\u202eevil\\u2066\\u2028');
  });

  it('leaves ordinary text alone, non-ASCII included', () => {
    for (const text of ['list_notes', 'Grüße — ✓ 日本語', 'a\\x1b stays as typed', '']) expect(terminalText(text)).toBe(text);
  });
});

it('terminalLines keeps the lines the CLI composed and escapes within each', () => {
  expect(terminalLines('one\ntwo\x1b[31m\nthree')).toBe('one\ntwo\\x1b[31m\nthree');
  expect(terminalLines('a\r\nb')).toBe('a\\x0d\nb');
});

it('terminalJson is the same JSON value with nothing raw', () => {
  const value = { name: `x${UNSAFE.join('')}`, [`k\u202e`]: ['\u009b'] };
  const text = terminalJson(value);
  for (const line of text.split('\n')) expect(line).not.toMatch(RAW); // pretty-printing's own line breaks only
  expect(JSON.parse(text)).toEqual(value);
  expect(terminalJson(undefined)).toBe('null');
});

it('terminalStrings makes every string and key of plain data safe', () => {
  expect(terminalStrings({ title: 'Pets\n::error::x', list: [{ 'a\x07': 1, b: null }] })).toEqual({
    title: 'Pets\\x0a::error::x',
    list: [{ 'a\\x07': 1, b: null }],
  });
});

describe('GitHub annotations (as @actions/core escapes them)', () => {
  it('a message: %, CR and LF, so it stays one command', () => {
    expect(annotationMessage('50% done\r\n::add-mask::x')).toBe('50%25 done%0D%0A::add-mask::x');
    expect(annotationMessage('\x1b[31mred')).toBe('\\x1b[31mred');
  });

  it('a property: also ":" and ",", so it can neither end the properties nor add one', () => {
    expect(annotationProperty('RCP manifest /tools/0/x::error::y,file=z%')).toBe('RCP manifest /tools/0/x%3A%3Aerror%3A%3Ay%2Cfile=z%25');
    expect(annotationProperty('a\nb')).toBe('a%0Ab');
  });
});
