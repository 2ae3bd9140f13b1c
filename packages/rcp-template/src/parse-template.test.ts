import { describe, expect, it } from 'vitest';
import { parseTemplate } from './parse-template';
import { RcpTemplateError } from './template-error';

function syntaxErrorOf(text: string): RcpTemplateError {
  try {
    parseTemplate(text);
  } catch (error) {
    expect(error).toBeInstanceOf(RcpTemplateError);
    return error as RcpTemplateError;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be refused`);
}

describe('parseTemplate', () => {
  it('splits text and tokens, with offsets', () => {
    const parsed = parseTemplate('/users/{{userId}}/posts/{{post_2}}');
    expect(parsed.parts).toEqual([
      { kind: 'text', text: '/users/' },
      { kind: 'token', name: 'userId', offset: 7 },
      { kind: 'text', text: '/posts/' },
      { kind: 'token', name: 'post_2', offset: 24 },
    ]);
    expect(parsed.tokens).toEqual(['userId', 'post_2']);
    expect(parsed.single).toBeUndefined();
    expect(parsed.text).toBe('/users/{{userId}}/posts/{{post_2}}');
  });

  it('lists tokens once, in first-use order', () => {
    expect(parseTemplate('{{b}}{{a}}{{b}} {{a}}').tokens).toEqual(['b', 'a']);
  });

  it.each(['x', 'X', '_', '_1', 'a1_B2', 'userId', '__proto__'])('accepts the name %s', (name) => {
    const parsed = parseTemplate(`{{${name}}}`);
    expect(parsed.single).toBe(name);
    expect(parsed.tokens).toEqual([name]);
  });

  it('marks a template that is exactly one token as single', () => {
    expect(parseTemplate('{{count}}').single).toBe('count');
    expect(parseTemplate(' {{count}}').single).toBeUndefined();
    expect(parseTemplate('{{a}}{{b}}').single).toBeUndefined();
  });

  it('returns no parts for empty text and one text part for plain text', () => {
    expect(parseTemplate('').parts).toEqual([]);
    expect(parseTemplate('').tokens).toEqual([]);
    expect(parseTemplate('plain').parts).toEqual([{ kind: 'text', text: 'plain' }]);
  });

  it.each(['{', '}', '}}', 'a { b } c', '{x}', '{ {x} }', '}}{x}', 'json: {"a": 1}', 'x}}}'])('treats lone braces as literal text: %s', (text) => {
    const parsed = parseTemplate(text);
    expect(parsed.tokens).toEqual([]);
    expect(parsed.parts).toEqual([{ kind: 'text', text }]);
  });

  it('keeps a literal "}" right after a token', () => {
    expect(parseTemplate('{{x}}}').parts).toEqual([
      { kind: 'token', name: 'x', offset: 0 },
      { kind: 'text', text: '}' },
    ]);
  });

  it('returns frozen results', () => {
    const parsed = parseTemplate('a{{b}}');
    expect(Object.isFrozen(parsed)).toBe(true);
    expect(Object.isFrozen(parsed.parts)).toBe(true);
    expect(Object.isFrozen(parsed.tokens)).toBe(true);
    expect(Object.isFrozen(parsed.parts[0])).toBe(true);
  });

  it.each([
    ['{{+x}}', 2],
    ['{{x|y}}', 3],
    ['{{ x }}', 2],
    ['{{x }}', 3],
    ['{{1x}}', 2],
    ['{{}}', 2],
    ['{{x-y}}', 3],
    ['{{x.y}}', 3],
    ['{{#x}}', 2],
    ['{{{x}}}', 2],
    ['{{x}y', 4],
    ['ab{{é}}', 4],
    ['ok {{a}} then {{b c}}', 17],
  ])('refuses %s with RCP_TEMPLATE_SYNTAX at offset %i', (text, offset) => {
    const error = syntaxErrorOf(text);
    expect(error.code).toBe('RCP_TEMPLATE_SYNTAX');
    expect(error.offset).toBe(offset);
    expect(error.template).toBe(text);
    expect(error.token).toBeUndefined();
  });

  it.each([
    ['{{', 0],
    ['{{x', 0],
    ['a{{x}', 1],
    ['/p/{{id}}/{{', 10],
    ['{{abc', 0],
  ])('refuses the unterminated %s at the offset of its "{{" (%i)', (text, offset) => {
    const error = syntaxErrorOf(text);
    expect(error.code).toBe('RCP_TEMPLATE_SYNTAX');
    expect(error.offset).toBe(offset);
    expect(error.message).toContain('unterminated');
  });

  it('refuses a non-string', () => {
    const error = syntaxErrorOf(42 as unknown as string);
    expect(error.code).toBe('RCP_TEMPLATE_SYNTAX');
    expect(error.offset).toBe(0);
  });
});
