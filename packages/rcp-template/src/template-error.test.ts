import { RcpError, isRcpError } from 'rcp-errors';
import { describe, expect, it } from 'vitest';
import { RcpTemplateError } from './template-error';

describe('RcpTemplateError', () => {
  it('is an RcpError with a stable code and only the fields given', () => {
    const error = new RcpTemplateError('RCP_TEMPLATE_SYNTAX', 'bad', { offset: 3, template: 'a{{ b' });
    expect(error).toBeInstanceOf(RcpError);
    expect(error).toBeInstanceOf(Error);
    expect(isRcpError(error, 'RCP_TEMPLATE_SYNTAX')).toBe(true);
    expect(error.name).toBe('RcpTemplateError');
    expect(error.offset).toBe(3);
    expect(error.template).toBe('a{{ b');
    expect('token' in error).toBe(false);
    expect(error.toJSON()).toEqual({
      name: 'RcpTemplateError',
      code: 'RCP_TEMPLATE_SYNTAX',
      message: 'bad',
      offset: 3,
      template: 'a{{ b',
    });
  });

  it('carries token and position for value errors, and chains cause', () => {
    const cause = new Error('inner');
    const error = new RcpTemplateError('RCP_TEMPLATE_VALUE', 'no', { token: 'id', position: 'path', cause });
    expect(error.token).toBe('id');
    expect(error.position).toBe('path');
    expect(error.cause).toBe(cause);
    expect(error.offset).toBeUndefined();
  });

  it('has read-only data fields', () => {
    const error = new RcpTemplateError('RCP_TEMPLATE_MISSING', 'm', { token: 'a', position: 'body' });
    expect(() => {
      (error as { token?: string }).token = 'b';
    }).toThrow(TypeError);
  });
});
