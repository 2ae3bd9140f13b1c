import { encodeUnreserved } from './internal/percent-encode';

/**
 * Percent-encodes a value exactly as `compileRequest` writes it into a URL path segment or a
 * query value: only RFC 3986 unreserved characters stay, everything else becomes its UTF-8 bytes
 * as uppercase `%XX`. A string that is not well-formed Unicode (a lone surrogate) is returned
 * as it is. Clients use it to recognise a value in a URL (for redaction).
 *
 * @example
 * ```ts
 * import { percentEncode } from 'rcp-template';
 *
 * percentEncode('a b/c'); // 'a%20b%2Fc'
 * percentEncode("it's"); // 'it%27s'
 * ```
 */
export function percentEncode(value: string): string {
  return encodeUnreserved(value) ?? value;
}
