/**
 * The rules other packages import from rcp-manifest instead of writing them again (issue #25):
 * each is pinned here, where it is defined.
 */
import { describe, expect, it } from 'vitest';
import { TOOL_NAME_CHARS, scalarFromText } from 'rcp-internal';
import { PARAM_TYPES, RESERVED_PARAM_NAMES, TOOL_NAME_MAX_LENGTH, TOOL_NAME_PATTERN, TOOL_NAME_RULE, compileArgumentCheck, hasType, isToolName } from './index';
import { typeProblem } from './value-check';

describe('the tool-name rule', () => {
  it('the pattern, the characters, the length and the words say the same', () => {
    expect(TOOL_NAME_PATTERN).toBe(`^[${TOOL_NAME_CHARS}]{1,${TOOL_NAME_MAX_LENGTH}}$`);
    expect(TOOL_NAME_RULE).toBe('1-64 characters from A-Z a-z 0-9 _ -');
    expect(isToolName('a'.repeat(TOOL_NAME_MAX_LENGTH))).toBe(true);
    expect(isToolName('a'.repeat(TOOL_NAME_MAX_LENGTH + 1))).toBe(false);
    expect('a.b c'.replace(new RegExp(`[^${TOOL_NAME_CHARS}]+`, 'g'), '_')).toBe('a_b_c');
  });
});

describe('the param types and their one wording', () => {
  it("PARAM_TYPES lists the six types; typeProblem is the argument check's own message", () => {
    expect(PARAM_TYPES).toEqual(['string', 'number', 'integer', 'boolean', 'array', 'object']);
    expect(Object.isFrozen(PARAM_TYPES)).toBe(true);
    expect(typeProblem('integer', 'seven')).toBe('must be a safe integer (got string)');
    const check = compileArgumentCheck([{ name: 'n', type: 'integer' }]);
    expect(check({ n: 'seven' })).toEqual({ ok: false, issues: [{ path: '/n', message: typeProblem('integer', 'seven') }] });
    expect(check([])).toEqual({ ok: false, issues: [{ path: '', message: typeProblem('object', []) }] });
  });

  it('reserved names are the ones a param may not have', () => {
    expect(RESERVED_PARAM_NAMES).toEqual(['__proto__', 'constructor', 'prototype']);
  });
});

describe('scalarFromText: a value written as text, read back as its type', () => {
  it('reads JSON number text, true / false and strings; nothing else', () => {
    expect(scalarFromText('integer', '42')).toBe(42);
    expect(scalarFromText('integer', '-0')).toBe(-0);
    expect(scalarFromText('number', '2.5e3')).toBe(2500);
    expect(scalarFromText('integer', '3.5')).toBe(3.5); // a number: the type check says it is no integer
    expect(hasType('integer', scalarFromText('integer', '3.5'))).toBe(false);
    for (const text of ['', ' 1', '1 ', '0x10', '01', '+1', 'NaN', 'Infinity', '1.', '.5']) expect(scalarFromText('number', text)).toBeUndefined();
    expect(scalarFromText('boolean', 'true')).toBe(true);
    expect(scalarFromText('boolean', 'false')).toBe(false);
    expect(scalarFromText('boolean', 'True')).toBeUndefined();
    expect(scalarFromText('string', '42')).toBe('42');
    expect(scalarFromText('array', '[1]')).toBeUndefined();
    expect(scalarFromText('object', '{}')).toBeUndefined();
    for (const value of [0, 7, -12, 1.25, 1e21, true, false]) {
      const type = typeof value === 'boolean' ? 'boolean' : 'number';
      expect(scalarFromText(type, String(value))).toBe(value);
    }
  });
});
