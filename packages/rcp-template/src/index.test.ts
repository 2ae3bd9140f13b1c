import { describe, expect, it } from 'vitest';
import * as api from './index';

describe('rcp-template public surface', () => {
  it('exports exactly the documented values', () => {
    expect(Object.keys(api).sort()).toEqual(
      ['RcpError', 'RcpTemplateError', 'collectTemplateTokens', 'compileRequest', 'isRcpError', 'parseTemplate'].sort(),
    );
  });

  it('re-exports the shared error base and guard', () => {
    const error = new api.RcpTemplateError('RCP_TEMPLATE_VALUE', 'x', { token: 'a', position: 'query' });
    expect(error).toBeInstanceOf(api.RcpError);
    expect(api.isRcpError(error, 'RCP_TEMPLATE_VALUE')).toBe(true);
  });
});
