import { RcpError } from 'rcp-errors';
import { isJsonMediaType, mediaTypeLabel } from './media-type';
import type { SendResult } from '../send/send';

const UTF8 = new TextDecoder();

/** The `charset` parameter of a Content-Type, lower-cased, or undefined. */
function charsetOf(contentType: string): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return match?.[1]?.toLowerCase();
}

/**
 * A body as text, decoded with the `charset` its Content-Type declares when the platform knows
 * it, else as UTF-8: the one rule for every body text the client shows or redacts — a text
 * answer's data, an error's excerpt, an observed response — so a secret in a UTF-16 body is
 * found as the characters it is, not with NULs between them. (A JSON answer's data is parsed
 * from UTF-8, as fetch's `json()` does.)
 *
 * @example
 * ```ts
 * decodeBodyText(bytes, 'text/plain; charset=utf-16le');
 * ```
 */
export function decodeBodyText(body: Uint8Array, contentType: string): string {
  const charset = charsetOf(contentType);
  if (charset === undefined || charset === 'utf-8' || charset === 'utf8') return UTF8.decode(body);
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return UTF8.decode(body);
  }
}

/**
 * A UTF-8 body cut at a byte count, without the partial character at its end (a body in
 * another declared charset is returned as it is: its decoder marks a partial character itself).
 */
export function withoutPartialCharacter(body: Uint8Array, contentType: string): Uint8Array {
  const charset = charsetOf(contentType);
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return body;
  // Back over continuation bytes (10xxxxxx) to the last lead byte; drop its character if incomplete.
  let continuation = 0;
  while (continuation < 3 && continuation < body.byteLength && (body[body.byteLength - continuation - 1]! & 0xc0) === 0x80) continuation++;
  const lead = body.byteLength - continuation - 1;
  if (lead < 0) return body;
  const byte = body[lead]!;
  const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
  return length > continuation + 1 ? body.subarray(0, lead) : body;
}

/**
 * Turns a response body into data. `application/json` and any `+json` type are parsed as JSON
 * (UTF-8, a leading BOM ignored; an empty body is `null`; malformed JSON is
 * `RCP_INVALID_RESPONSE`). Every other type, or none, is returned as text, decoded with the
 * declared `charset` when known, else UTF-8. `contentType` is the header as sent (`''` when
 * absent); `text` is the body as decoded text.
 */
export function decodeResponse(result: SendResult): { data: unknown; contentType: string; text: string } {
  const contentType = result.headers.get('content-type') ?? '';
  if (!isJsonMediaType(contentType)) {
    const text = decodeBodyText(result.body, contentType);
    return { data: text, contentType, text };
  }
  if (result.body.byteLength === 0) return { data: null, contentType, text: '' };
  const text = UTF8.decode(result.body);
  try {
    return { data: JSON.parse(text) as unknown, contentType, text };
  } catch (error) {
    // The parser's message quotes the body around the error (where a server may echo a secret):
    // the cause keeps only the position.
    const position = /position (\d+)/.exec(String((error as Error).message))?.[1];
    throw new RcpError(
      'RCP_INVALID_RESPONSE',
      `The response from ${originOf(result.url)} is declared as JSON (${mediaTypeLabel(contentType)}) but is not valid JSON`,
      { cause: new SyntaxError(position === undefined ? 'Invalid JSON' : `Invalid JSON at position ${position}`) },
    );
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the server';
  }
}
