import { describe, expect, it } from 'vitest';
import { isRcpError } from 'rcp-errors';
import { decodeResponse } from './decode-response';
import type { SendResult } from '../send/send';

function result(body: string | Uint8Array, contentType?: string): SendResult {
  const headers = new Headers();
  if (contentType !== undefined) headers.set('content-type', contentType);
  return {
    status: 200,
    headers,
    url: 'https://api.example.com/items?key=secret',
    body: typeof body === 'string' ? new TextEncoder().encode(body) : body,
    redirects: 0,
  };
}

describe('decodeResponse', () => {
  it('parses application/json, with or without parameters', () => {
    expect(decodeResponse(result('{"a":[1,2]}', 'application/json'))).toEqual({
      data: { a: [1, 2] },
      contentType: 'application/json',
      text: '{"a":[1,2]}',
    });
    expect(decodeResponse(result('[true]', 'Application/JSON; charset=utf-8')).data).toEqual([true]);
  });

  it('parses any +json type', () => {
    expect(decodeResponse(result('{"title":"x"}', 'application/problem+json')).data).toEqual({ title: 'x' });
    expect(decodeResponse(result('{"data":1}', 'application/vnd.api+json')).data).toEqual({ data: 1 });
  });

  it('returns null for an empty JSON body', () => {
    expect(decodeResponse(result('', 'application/json')).data).toBeNull();
  });

  it('ignores a UTF-8 byte-order mark before JSON', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"ok":true}')]);
    expect(decodeResponse(result(bytes, 'application/json')).data).toEqual({ ok: true });
  });

  it('fails with RCP_INVALID_RESPONSE (with cause) for malformed JSON, without the URL query in the message', () => {
    try {
      decodeResponse(result('{"a":', 'application/json'));
      expect.unreachable();
    } catch (error) {
      expect(isRcpError(error, 'RCP_INVALID_RESPONSE')).toBe(true);
      expect((error as Error).cause).toBeInstanceOf(SyntaxError);
      expect((error as Error).message).toContain('https://api.example.com');
      expect((error as Error).message).not.toContain('secret');
    }
  });

  it('returns other types, and a missing type, as text', () => {
    expect(decodeResponse(result('<p>hi</p>', 'text/html'))).toEqual({ data: '<p>hi</p>', contentType: 'text/html', text: '<p>hi</p>' });
    expect(decodeResponse(result('{"looks":"like json"}'))).toMatchObject({ data: '{"looks":"like json"}', contentType: '' });
    expect(decodeResponse(result('', 'text/plain')).data).toBe('');
    expect(decodeResponse(result('a,b', 'text/json-ish')).data).toBe('a,b');
  });

  it('decodes text with a declared charset the platform knows, else as UTF-8', () => {
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9]); // "café" in ISO-8859-1
    expect(decodeResponse(result(latin1, 'text/plain; charset=ISO-8859-1')).data).toBe('café');
    expect(decodeResponse(result('café', 'text/plain; charset="utf-8"')).data).toBe('café');
    expect(decodeResponse(result('café', 'text/plain; charset=no-such-charset')).data).toBe('café');
  });
});
