import { RcpError } from 'rcp-errors';

/**
 * The `Content-Encoding` rule, once: how a value splits into codings, and how many are decoded
 * at most. undici's fetch refuses a response naming more than five codings
 * (GHSA-g9mf-h72j-4rw9, after urllib3's GHSA-gm62-xv2j-4w53 and curl's CVE-2022-32206): each
 * coding is a decoder stream, so `br,br,…` five thousand times is five thousand streams built for
 * one response. The same rule here, on every transport: the sender refuses such a response
 * before reading or following it, and Node's transport never builds its decoders.
 */

/** Content codings one response may name at the most (undici's fetch's limit). */
export const MAX_CONTENT_CODINGS = 5;

/**
 * The codings of a `Content-Encoding` value, lower-cased, in the order the server applied them
 * (decode from the last). As undici's fetch counts them: split at every comma, so an empty
 * member counts too; trim each one before comparing it.
 *
 * @example
 * ```ts
 * contentCodings('gzip, BR'); // ['gzip', ' br']
 * ```
 */
export function contentCodings(header: string): string[] {
  return header.toLowerCase().split(',');
}

/**
 * The refusal of a response whose `Content-Encoding` names more than {@link MAX_CONTENT_CODINGS}
 * codings (`RCP_INVALID_RESPONSE`, never retried: the server would answer the same), or undefined.
 * undici's wording, with the origin.
 *
 * @example
 * ```ts
 * tooManyContentCodings(response.headers.get('content-encoding'), 'https://api.example.com'); // undefined for 'gzip'
 * ```
 */
export function tooManyContentCodings(header: string | null, origin: string): RcpError<'RCP_INVALID_RESPONSE'> | undefined {
  if (header === null) return undefined;
  // Counting commas needs no array of thousands of members.
  let count = 1;
  for (let index = header.indexOf(','); index !== -1; index = header.indexOf(',', index + 1)) count++;
  return count > MAX_CONTENT_CODINGS ? contentCodingsRefusal(count, origin) : undefined;
}

/**
 * The one error of a response with too many content codings: the sender's, and a platform
 * fetch's own refusal (Node's fetch rejects such a response itself, `too many content-encodings
 * in response: <n>, …`) turned into it by the fetch transport.
 *
 * @example
 * ```ts
 * throw contentCodingsRefusal(5000, 'https://api.example.com');
 * ```
 */
export function contentCodingsRefusal(count: number, origin: string): RcpError<'RCP_INVALID_RESPONSE'> {
  return new RcpError(
    'RCP_INVALID_RESPONSE',
    `The response from ${origin} has too many content-encodings: ${count}, maximum allowed is ${MAX_CONTENT_CODINGS}; nothing was decoded`,
  );
}

/** undici's fetch's refusal of the same response, as its message starts (`TypeError: fetch failed`, the reason as `cause`). */
const UNDICI_REFUSAL = /^too many content-encodings in response: (\d+)/;

/**
 * The count of content codings a platform fetch refused a response for, found in its error's
 * cause chain (Node's fetch, undici >= 6.23), or undefined for any other failure.
 *
 * @example
 * ```ts
 * fetchRefusedCodings(new TypeError('fetch failed', { cause: new Error('too many content-encodings in response: 9, maximum allowed is 5') })); // 9
 * ```
 */
export function fetchRefusedCodings(error: unknown): number | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 3 && current instanceof Error; depth++) {
    const match = UNDICI_REFUSAL.exec(current.message);
    if (match !== null) return Number(match[1]);
    current = current.cause;
  }
  return undefined;
}
