import { describe, expect, it } from 'vitest';
import { collectTemplateTokens } from './collect-template-tokens';
import { RcpTemplateError } from './template-error';

describe('collectTemplateTokens', () => {
  it('collects tokens from every string value, unique, in document order', () => {
    expect(
      collectTemplateTokens({
        user: '{{userId}}',
        nested: { list: ['{{tag}}', 'fixed', { deep: 'Hi {{name}} {{userId}}' }] },
        count: 3,
        flag: true,
        none: null,
      }),
    ).toEqual(['userId', 'tag', 'name']);
  });

  it('never treats object keys as templates', () => {
    expect(collectTemplateTokens({ '{{key}}': 'v', 'a {{ b': 1 })).toEqual([]);
  });

  it('accepts a scalar root', () => {
    expect(collectTemplateTokens('{{x}}')).toEqual(['x']);
    expect(collectTemplateTokens(5)).toEqual([]);
    expect(collectTemplateTokens(null)).toEqual([]);
    expect(collectTemplateTokens(undefined)).toEqual([]);
  });

  it('reads own keys only, including a JSON "__proto__" key', () => {
    const inherited = Object.create({ hidden: '{{inherited}}' }) as Record<string, unknown>;
    inherited.own = '{{own}}';
    expect(collectTemplateTokens(inherited)).toEqual(['own']);
    expect(collectTemplateTokens(JSON.parse('{"__proto__": "{{p}}"}'))).toEqual(['p']);
  });

  it('throws RCP_TEMPLATE_SYNTAX for a bad string value', () => {
    try {
      collectTemplateTokens({ a: ['ok', 'x {{ y}}'] });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(RcpTemplateError);
      expect((error as RcpTemplateError).code).toBe('RCP_TEMPLATE_SYNTAX');
      expect((error as RcpTemplateError).offset).toBe(4);
      expect((error as RcpTemplateError).template).toBe('x {{ y}}');
    }
  });
});
