import { describe, expect, it } from 'vitest';
import * as api from './index';

describe('rcp-template public surface', () => {
  it('exports exactly the documented values: its own API, at most ten (issue 40); the shared rules are rcp-internal, bundled', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'RcpError',
        'RcpTemplateError',
        'TOKEN_NAME_SOURCE',
        'collectTemplateTokens',
        'compileRequest',
        'encodeFormBody',
        'isRcpError',
        'isTokenName',
        'parseTemplate',
        'percentEncode',
      ].sort(),
    );
  });

  it('re-exports the shared error base and guard', () => {
    const error = new api.RcpTemplateError('RCP_TEMPLATE_VALUE', 'x', { token: 'a', position: 'query' });
    expect(error).toBeInstanceOf(api.RcpError);
    expect(api.isRcpError(error, 'RCP_TEMPLATE_VALUE')).toBe(true);
  });
});

describe('percentEncode', () => {
  it('encodes a value as compileRequest writes it into a path segment', () => {
    for (const value of ['a b/c', "it's (1)*!", 'é€😀', '~._-']) {
      const rendered = api.compileRequest({ method: 'GET', url: 'https://x.example/{{v}}/end' }).render({ v: value }).url;
      expect(rendered).toBe(`https://x.example/${api.percentEncode(value)}/end`);
    }
    expect(api.percentEncode("it's")).toBe('it%27s');
  });
});
