/** The client's multipart encoder (RCP 0.4, SPEC §20.7), read back by undici's multipart parser. */
import { describe, expect, it } from 'vitest';
import { isRcpError } from 'rcp-errors';
import { encodeMultipartBody, multipartFieldText } from './multipart-encoding';

const text = (chunks: readonly Uint8Array[]): string => Buffer.concat(chunks).toString('latin1');

describe('encodeMultipartBody', () => {
  it('writes one part per entry, text parts without a Content-Type, file parts with filename and type, CRLF lines', () => {
    const bytes = new Uint8Array([0x89, 0x50, 0x0d, 0x0a, 0x00]);
    const chunks = encodeMultipartBody(
      [
        { name: 'purpose', text: 'assistants' },
        { name: 'file', filename: 'a.png', mediaType: 'image/png', chunks: [bytes] },
      ],
      'rcp-b',
    );
    expect(text(chunks)).toBe(
      '--rcp-b\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nassistants\r\n' +
        '--rcp-b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89P\r\n\x00\r\n' +
        '--rcp-b--\r\n',
    );
    expect(chunks).toContain(bytes); // the file's chunk itself, not a copy
  });

  it('escapes quotes, CR and LF in names and filenames as the WHATWG encoder does, so none can end the header', async () => {
    const chunks = encodeMultipartBody(
      [{ name: 'f"x', filename: 'a"\r\nContent-Type: text/html.png', mediaType: 'image/png', chunks: [new Uint8Array([1])] }],
      'rcp-c',
    );
    expect(text(chunks)).toContain('name="f%22x"; filename="a%22%0D%0AContent-Type: text/html.png"\r\nContent-Type: image/png\r\n');
    const form = await new Response(Buffer.concat(chunks), { headers: { 'content-type': 'multipart/form-data; boundary=rcp-c' } }).formData();
    const file = form.get('f"x') as File;
    expect(file.type).toBe('image/png');
  });

  it('refuses a boundary outside RFC 2046', () => {
    for (const boundary of ['', 'a b', 'x'.repeat(71), 'a\r\nb']) {
      let error: unknown;
      try {
        encodeMultipartBody([], boundary);
      } catch (caught) {
        error = caught;
      }
      expect(isRcpError(error, 'RCP_TEMPLATE_VALUE'), boundary).toBe(true);
    }
  });
});

describe('multipartFieldText', () => {
  it('strings as written, numbers and booleans as text, objects and arrays as JSON, missing values as no part', () => {
    expect(multipartFieldText('a b')).toBe('a b');
    expect(multipartFieldText(1.5)).toBe('1.5');
    expect(multipartFieldText(false)).toBe('false');
    expect(multipartFieldText({ a: [1, 'x'] })).toBe('{"a":[1,"x"]}');
    expect(multipartFieldText(['a'])).toBe('["a"]');
    expect(multipartFieldText(undefined)).toBeUndefined();
    expect(multipartFieldText(null)).toBeUndefined();
  });
});
