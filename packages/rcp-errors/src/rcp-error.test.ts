import { describe, expect, it } from 'vitest';
import { RCP_ERROR_CODES, RcpError, isRcpError } from './index';

describe('RcpError', () => {
  it('carries a stable code, a name and a chained cause', () => {
    const cause = new Error('socket hang up');
    const error = new RcpError('RCP_NETWORK_ERROR', 'Request failed', { cause });
    expect(error.code).toBe('RCP_NETWORK_ERROR');
    expect(error.name).toBe('RcpError');
    expect(error.cause).toBe(cause);
    expect(error).toBeInstanceOf(Error);
  });

  it('uses the subclass name', () => {
    class RcpThingError extends RcpError<'RCP_TIMEOUT'> {}
    expect(new RcpThingError('RCP_TIMEOUT', 'late').name).toBe('RcpThingError');
  });

  it('rejects look-alikes without a brand', () => {
    expect(isRcpError({ code: 'RCP_TIMEOUT', message: 'x' })).toBe(false);
    expect(isRcpError(new Error('x'))).toBe(false);
    expect(isRcpError(null)).toBe(false);
    expect(isRcpError('RCP_TIMEOUT')).toBe(false);
  });

  it('serialises to JSON with its code and data fields', () => {
    class WithStatus extends RcpError<'RCP_HTTP_ERROR'> {
      readonly status = 404;
    }
    const json = new WithStatus('RCP_HTTP_ERROR', 'Not found').toJSON();
    expect(json).toEqual({ name: 'WithStatus', code: 'RCP_HTTP_ERROR', message: 'Not found', status: 404 });
  });

  it('lists every code once', () => {
    expect(new Set(RCP_ERROR_CODES).size).toBe(RCP_ERROR_CODES.length);
    expect(Object.isFrozen(RCP_ERROR_CODES)).toBe(true);
  });
});
