import { RcpTemplateError } from 'rcp-template';

/**
 * One part of a multipart body (RCP 0.4): a text field, or a file with its name, media type and
 * bytes (given in chunks, which the encoder references without copying).
 *
 * @example
 * ```ts
 * const parts: MultipartPart[] = [
 *   { name: 'purpose', text: 'assistants' },
 *   { name: 'file', filename: 'a.png', mediaType: 'image/png', chunks: [pngBytes] },
 * ];
 * ```
 */
export type MultipartPart =
  | { readonly name: string; readonly text: string }
  | { readonly name: string; readonly filename: string; readonly mediaType: string; readonly chunks: readonly Uint8Array[] };

/**
 * The text of a rendered multipart field that is not a file: a string as written, a finite number
 * in decimal (`String(n)`), a boolean `true` / `false`, an object or array as its JSON text. A
 * missing value (`undefined`, `null`) is no part: `undefined` is returned.
 *
 * @example
 * ```ts
 * import { multipartFieldText } from './multipart-encoding';
 *
 * multipartFieldText(3); // '3'
 * multipartFieldText({ a: 1 }); // '{"a":1}'
 * ```
 */
export function multipartFieldText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw new RcpTemplateError('RCP_TEMPLATE_VALUE', 'A multipart field cannot carry a number that is not finite', { position: 'body' });
    return String(value);
  }
  return JSON.stringify(value);
}

/** A field name or filename inside a quoted Content-Disposition parameter, as the WHATWG form encoder writes it. */
function quoted(text: string): string {
  return text.replace(/[\r\n"]/g, (c) => (c === '\r' ? '%0D' : c === '\n' ? '%0A' : '%22'));
}

/** A boundary delimiter may appear nowhere else: it is random, 1–70 characters of RFC 2046's bchars without space. */
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=?]{1,70}$/;

/**
 * Encodes parts as a `multipart/form-data` body (RFC 7578) with `boundary`: each part starts with
 * `--boundary`, a `Content-Disposition: form-data; name="…"` header (and `; filename="…"` plus a
 * `Content-Type` for a file), a blank line and the content; the body ends with `--boundary--`.
 * Lines end in CRLF; names and filenames are UTF-8 with `"`, CR and LF written `%22`, `%0D`,
 * `%0A` (the WHATWG form encoder's escapes). A text part has no Content-Type (text/plain). Returns
 * the body as chunks: a file's chunks are the caller's, not copied. The caller picks a random
 * boundary per request (the client: 32 random hex digits after `rcp-`).
 *
 * @throws `RcpTemplateError` RCP_TEMPLATE_VALUE for a boundary outside RFC 2046's characters.
 * @example
 * ```ts
 * import { encodeMultipartBody } from './multipart-encoding';
 *
 * const chunks = encodeMultipartBody([{ name: 'purpose', text: 'assistants' }], 'rcp-1a2b');
 * new TextDecoder().decode(Buffer.concat(chunks));
 * // '--rcp-1a2b\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nassistants\r\n--rcp-1a2b--\r\n'
 * ```
 */
export function encodeMultipartBody(parts: readonly MultipartPart[], boundary: string): Uint8Array[] {
  if (!BOUNDARY.test(boundary))
    throw new RcpTemplateError('RCP_TEMPLATE_VALUE', 'A multipart boundary must be 1 to 70 characters of RFC 2046', { position: 'body' });
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(part.name)}"`;
    if ('chunks' in part) {
      head += `; filename="${quoted(part.filename)}"\r\nContent-Type: ${part.mediaType}\r\n\r\n`;
      chunks.push(encoder.encode(head));
      for (const chunk of part.chunks) if (chunk.byteLength > 0) chunks.push(chunk);
      chunks.push(encoder.encode('\r\n'));
    } else {
      chunks.push(encoder.encode(`${head}\r\n\r\n${part.text}\r\n`));
    }
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`));
  return chunks;
}
