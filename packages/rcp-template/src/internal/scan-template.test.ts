import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTemplate } from '../parse-template';
import { firstToken, isValidTemplate, splitTemplate } from './scan-template';

const text = fc
  .array(fc.constantFrom('{{a}}', '{{b_1}}', '{{', '}}', '{', '}', '{{ a}}', '{{1}}', '{{{a}}}', '{{a', 'x', '/', ' ', 'é'), { maxLength: 8 })
  .map((pieces) => pieces.join(''));

function parses(template: string): boolean {
  try {
    parseTemplate(template);
    return true;
  } catch {
    return false;
  }
}

describe('scan-template', () => {
  it('isValidTemplate accepts exactly what parseTemplate accepts', () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.string()), (template) => {
        expect(isValidTemplate(template)).toBe(parses(template));
      }),
      {
        numRuns: 3000,
      },
    );
  });

  it('splitTemplate gives the pieces and tokens of parseTemplate, with exact-size lists', () => {
    fc.assert(
      fc.property(text, (template) => {
        if (!parses(template)) return;
        const { texts, names } = splitTemplate(template, 0, template.length);
        expect(texts.length).toBe(names.length + 1);
        const expected = parseTemplate(template)
          .parts.filter((part) => part.kind === 'token')
          .map((part) => part.name);
        expect(names).toEqual(expected);
        let joined = texts[0];
        names.forEach((name, index) => {
          joined += `{{${name}}}${texts[index + 1]}`;
        });
        expect(joined).toBe(template);
      }),
      { numRuns: 3000 },
    );
  });

  it('splits a range and transforms literal pieces with their offsets', () => {
    const template = '/a/{{x}}-{{y}}/b';
    const offsets: number[] = [];
    const pieces = splitTemplate(template, 3, 14, (piece, offset) => {
      offsets.push(offset);
      return piece.toUpperCase();
    });
    expect(pieces).toEqual({ texts: ['', '-', ''], names: ['x', 'y'] });
    expect(offsets).toEqual([3, 8, 14]);
    expect(splitTemplate('abc', 1, 2)).toEqual({ texts: ['b'], names: [] });
  });

  it('firstToken finds the first token inside a range only', () => {
    expect(firstToken('ab{{x}}cd{{y}}', 0, 14)).toBe(2);
    expect(firstToken('ab{{x}}cd{{y}}', 3, 14)).toBe(9);
    expect(firstToken('ab{{x}}cd{{y}}', 3, 9)).toBe(-1);
  });
});
