import { describe, expect, it } from 'vitest';
import { RcpError, isRcpError } from 'rcp-errors';
import { RcpHttpError } from './http-error';

describe('RcpHttpError', () => {
  const error = new RcpHttpError({
    status: 404,
    statusText: 'Not Found',
    method: 'GET',
    url: 'https://api.example.com/items/7',
    bodyExcerpt: '{"error":"no such item"}',
  });

  it('is an RcpError with code RCP_HTTP_ERROR and its data fields', () => {
    expect(error).toBeInstanceOf(RcpError);
    expect(isRcpError(error, 'RCP_HTTP_ERROR')).toBe(true);
    expect(error.name).toBe('RcpHttpError');
    expect(error.status).toBe(404);
    expect(error.url).toBe('https://api.example.com/items/7');
    expect(error.bodyExcerpt).toBe('{"error":"no such item"}');
  });

  it('names status, method and URL in its message, not the body', () => {
    expect(error.message).toBe('Request failed with status 404 Not Found: GET https://api.example.com/items/7');
    expect(new RcpHttpError({ status: 500, url: 'https://a.test/', bodyExcerpt: '' }).message).toBe('Request failed with status 500: https://a.test/');
  });

  it('serialises its fields and chains a cause', () => {
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'RcpHttpError',
      code: 'RCP_HTTP_ERROR',
      message: error.message,
      status: 404,
      bodyExcerpt: '{"error":"no such item"}',
      url: 'https://api.example.com/items/7',
    });
    const cause = new Error('inner');
    expect(new RcpHttpError({ status: 502, url: 'https://a.test/', bodyExcerpt: '', cause }).cause).toBe(cause);
    expect('cause' in error).toBe(false);
  });
});
