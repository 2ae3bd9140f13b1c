import { contentCodingsRefusal, fetchRefusedCodings } from './content-coding';
import type { BodyReader, Transport, TransportResponse } from './transport-types';

function ignore(): void {}

/** A pull reader over a fetch body stream. */
function readerOf(stream: ReadableStream<Uint8Array>): BodyReader {
  const reader = stream.getReader();
  return {
    async read() {
      const { done, value } = await reader.read();
      return done ? undefined : value;
    },
    cancel() {
      void reader.cancel().catch(ignore);
    },
  };
}

/**
 * A fetch `Response` as the transport's response.
 *
 * @example
 * ```ts
 * const response = fromFetchResponse(new Response('hi'));
 * await response.body?.read(); // the bytes of 'hi'
 * ```
 */
export function fromFetchResponse(response: Response): TransportResponse {
  return {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
    body: response.body === null ? null : readerOf(response.body),
  };
}

/**
 * The transport over a `fetch`: the operator's (`createRcpClient({ fetch })`, a ky instance
 * included) or, when `fetchImpl` is undefined, `globalThis.fetch` looked up per call (so a fetch
 * installed later, a polyfill or a test proxy, is the one used). Always `redirect: 'manual'`:
 * redirects are the sender's. fetch decodes `Content-Encoding` itself; its refusal of too many
 * codings (Node's fetch has undici's limit) is the client's `RCP_INVALID_RESPONSE`.
 *
 * @example
 * ```ts
 * const transport = createFetchTransport(undefined);
 * const response = await transport({ method: 'GET', url, origin, headers: {}, body: undefined, abort: deadline });
 * ```
 */
export function createFetchTransport(fetchImpl: typeof globalThis.fetch | undefined): Transport {
  return async (request) => {
    const init: RequestInit = {
      method: request.method,
      headers: request.headers,
      // Chunks go as a Blob: fetch then knows the length (Content-Length) and can send it again on a retry.
      body: request.body === undefined || typeof request.body === 'string' ? request.body : new Blob(request.body.chunks as Uint8Array<ArrayBuffer>[]),
      signal: request.abort.signal,
      redirect: 'manual',
    };
    let response: Response;
    try {
      response = await (fetchImpl ?? globalThis.fetch)(request.url, init);
    } catch (error) {
      // Node's fetch refuses too many content codings itself: the client's one error for it.
      const codings = fetchRefusedCodings(error);
      throw codings === undefined ? error : contentCodingsRefusal(codings, request.origin);
    }
    return fromFetchResponse(response);
  };
}
