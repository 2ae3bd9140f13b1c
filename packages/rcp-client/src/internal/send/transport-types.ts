import type { AbortState } from './deadline';

/**
 * The seam between the client's HTTP policies (redirects, retries, the deadline, the size cap,
 * redaction, decoding — all in `send.ts`, written once) and the thing that moves bytes. Two
 * implementations: undici's `dispatch()` on Node (`transport.node.ts`) and `fetch` everywhere
 * else, or wherever the operator passes one (`fetch-transport.ts`).
 */

/**
 * A body given as chunks (a multipart upload, RCP 0.4): sent as they are, never joined into one
 * buffer; `length` is their total, sent as Content-Length. Reusable: each attempt sends it again.
 */
export interface ChunkedBody {
  readonly chunks: readonly Uint8Array[];
  readonly length: number;
}

/** A request body: text, or chunks. */
export type RequestBody = string | ChunkedBody;

/** One attempt: no redirect is followed, no retry made, nothing decided. */
export interface TransportRequest {
  readonly method: string;
  /** Absolute http(s) URL. */
  readonly url: string;
  /** The URL's origin (scheme, host, port); `url` usually starts with it and `/`. */
  readonly origin: string;
  readonly headers: Record<string, string>;
  readonly body: RequestBody | undefined;
  /** Ends the attempt, headers or body (the call's deadline and the caller's signal). */
  readonly abort: AbortState;
}

/** Response headers, looked up by name (case-insensitively), or listed (names lower-cased). */
export interface ResponseHeaders {
  get(name: string): string | null;
  entries(): Iterable<[string, string]>;
}

/** A response body, pulled chunk by chunk, already content-decoded. */
export interface BodyReader {
  /** The next chunk, or undefined at the end. Rejects on a network failure or abort. */
  read(): Promise<Uint8Array | undefined>;
  /** Stops reading and releases the connection; never throws. */
  cancel(): void;
}

/** What a transport answers: status, headers and a body to pull. */
export interface TransportResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: ResponseHeaders;
  /** Null when there is no body at all. */
  readonly body: BodyReader | null;
}

/** Sends one attempt. */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/** A transport that owns its connections: `close()` lets them go once pending requests end. */
export interface PlatformTransport extends Transport {
  close(): Promise<void>;
}

/** Why `hostname`'s resolved `address` may not be connected to, or undefined when it may. */
export type AddressCheck = (hostname: string, address: string) => string | undefined;

/** The `code` of the error a guarded connection fails with when its address is refused. */
export const ADDRESS_REFUSED = 'RCP_ADDRESS_REFUSED';

/** The path and query of `url`, which is expected to start with `origin`. */
export function pathOf(url: string, origin: string): string {
  if (url.startsWith(origin) && url.charCodeAt(origin.length) === 0x2f /* / */) return url.slice(origin.length);
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}
