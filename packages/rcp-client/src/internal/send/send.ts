/**
 * Send, the transport step of a call: the policies above the wire, each written once — redirects
 * (`redirect-policy.ts`), retries (`retry-policy.ts`), the call's one deadline (`deadline.ts`), the
 * size cap (`read-body.ts`), the content-coding cap (`content-coding.ts`), the HTTP error with its redacted excerpt and challenge
 * (`www-authenticate.ts`) — over a transport that moves one attempt's bytes (`transport-types.ts`:
 * undici on Node in `transport.node.ts`, fetch elsewhere in `transport.ts`, or the operator's
 * fetch in `fetch-transport.ts`).
 */
import { RcpError, escapeUnsafeText, isRcpError } from 'rcp-errors';
import { RcpHttpError } from '../../http-error';
import { readBody, readBodyPrefix, readBodyUpTo } from './read-body';
import { isTextMediaType, mediaTypeOf } from '../respond/response-kind';
import { createRedactor, redact, withoutCutSecrets } from '../redaction/redact';
import { decodeBodyText } from '../respond/decode-response';
import { challengeOf } from './www-authenticate';
import { tooManyContentCodings } from './content-coding';
import { startDeadline, sleep, type Deadline } from './deadline';
import { nextHop, type Hop } from './redirect-policy';
import { parseRetryAfter, type RetryPolicy } from './retry-policy';
import { ADDRESS_REFUSED, type RequestBody, type ResponseHeaders, type Transport, type TransportResponse } from './transport-types';
import type { CallObserver } from '../../hooks';
import type { RcpStreamProgress } from '../../client-types';
import { RcpResponseError } from '../../response-error';
import { collectStream } from '../respond/collect-stream';
import { isStreamMediaType, type CollectedStream, type StreamPlan } from '../respond/stream-plan';
import { mediaTypeLabel } from '../respond/media-type';

/** One HTTP request, fully rendered. */
export interface SendRequest {
  method: string;
  /** Absolute http(s) URL. */
  url: string;
  headers: Record<string, string>;
  /** Text, or (a multipart upload) chunks with their length. */
  body?: RequestBody;
  /**
   * The URL's origin when the caller already knows it (a compiled tool's URL always starts with
   * its origin and `/`): the URL is then not parsed again.
   */
  origin?: string;
}

/** Settings fixed for the lifetime of a sender (one per client). */
export interface SenderOptions {
  /** One deadline in milliseconds for the whole call: every attempt, redirect, retry wait, headers and body. */
  timeout: number;
  /** Which calls are retried, how often, and how long to wait. */
  retry: RetryPolicy;
  /** Largest response body accepted, in bytes, counted while streaming. */
  maxResponseBytes: number;
  /** What moves the bytes: undici's `dispatch()` on Node, `fetch` elsewhere or when the operator passes one. */
  transport: Transport;
  /** Client-wide default headers; a request's own headers win (names compared case-insensitively). */
  headers?: Record<string, string>;
}

/** Per-call settings. */
export interface SendCallOptions {
  /** Aborts the call (`RCP_ABORTED`). */
  signal?: AbortSignal;
  /** `Accept` header used when the request has none (wins over the client-wide default). */
  accept?: string;
  /** Overrides the sender's `maxResponseBytes` for this call. */
  maxResponseBytes?: number;
  /**
   * Strings replaced by `[redacted]` in `RcpHttpError.bodyExcerpt` and `RcpHttpError.url`, or a
   * function returning them (called only when an error is built).
   */
  secrets?: readonly string[] | (() => readonly string[]);
  /** Extra policy for redirect targets (after the same-origin rule), e.g. the operator's `allowOrigin`. */
  isRedirectAllowed?: (target: URL) => boolean;
  /** A person approved this exact request: a redirect must keep its method, origin, path and query. */
  approved?: boolean;
  /**
   * The request carries an idempotency key its tool declared (SPEC §20.1): it is retried as an
   * idempotent one whatever its method — on a transport failure or a status the policy retries,
   * and on a 409 (the server still runs the first request with the key) — with the same key.
   */
  idempotent?: boolean;
  /**
   * The call's own deadline, started by the caller before anything else of the call (the
   * client starts it before the resolvers run): the sender neither starts nor ends one then, so
   * a call has exactly one timer. Its `signal` should be the caller's too.
   */
  deadline?: Deadline;
  /** This call's transport instead of the sender's (one that checks the address each connection goes to). */
  transport?: Transport;
  /** The client's hooks for this call. */
  observer?: CallObserver;
  /** A conditional request: a 304 is a result (empty body), not an error. */
  notModified?: boolean;
  /**
   * A 2xx text answer (by its Content-Type: `text/*`, XML …, never JSON) longer than the cap is
   * cut at the cap instead of failing, and the result says `truncated` (tool calls; never the
   * manifest).
   */
  cutText?: boolean;
  /**
   * Sees the final response (after redirects and retries) once its body is read: the whole body
   * of a 2xx, the excerpt's bytes of an error. It must not throw (what it throws is ignored).
   */
  observe?: (response: WireResponse) => void;
  /**
   * The tool answers with a stream (SPEC §20.6): a 2xx is read event by event and collected
   * (never buffered whole), under the size cap and the deadline; `onProgress` sees each event.
   */
  stream?: { readonly plan: StreamPlan; readonly onProgress?: (progress: RcpStreamProgress) => void };
}

/** The final response of a call as the wire gave it, for an observer (nothing redacted yet). */
export interface WireResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: ResponseHeaders;
  /** The URL that answered (after redirects), query included. */
  readonly url: string;
  /** The bytes the client read: the whole body of a 2xx, the first bytes of an error's. */
  readonly body: Uint8Array;
  /** False when `body` may be only the start of what the server sent (an error's excerpt cut short). */
  readonly complete: boolean;
}

/** A 2xx response with its whole body. */
export interface SendResult {
  status: number;
  headers: ResponseHeaders;
  /** The final URL, after redirects. */
  url: string;
  body: Uint8Array;
  /** How many redirects were followed. */
  redirects: number;
  /** True when `body` is only the start of a text answer longer than the cap (see `cutText`), or a stream was cut. */
  truncated?: boolean;
  /** A streamed answer's collected value (`body` is then empty). */
  collected?: CollectedStream;
}

/** Sends one request: redirects, retries, deadline and size cap included. */
export type Sender = (request: SendRequest, options?: SendCallOptions) => Promise<SendResult>;

/** Characters of a reason phrase kept in an error; a longer one is cut. */
const REASON_CHARS = 128;

/**
 * The reason phrase as an error may carry it: the server's text with every control character
 * (C0, DEL, C1) and every character that reorders or breaks lines (U+2028/2029, the bidi
 * controls) written as a visible escape (`\x1b`, `\u202e`, as the CLI shows them), never passed
 * on to be interpreted by a terminal or a log viewer; at most {@link REASON_CHARS} characters.
 */
export function cleanReasonPhrase(text: string): string {
  const cleaned = escapeUnsafeText(text);
  return cleaned.length > REASON_CHARS ? `${cleaned.slice(0, REASON_CHARS)}…` : cleaned;
}

/** Characters kept in `RcpHttpError.bodyExcerpt`. */
export const BODY_EXCERPT_CHARS = 1_024;
/** Bytes read from an error body to build the excerpt (redaction runs on all of them before the cut). */
const EXCERPT_READ_BYTES = 64 * 1024;

export { MAX_REDIRECTS } from './redirect-policy';

const EMPTY = new Uint8Array(0);

/** The first `BODY_EXCERPT_CHARS` characters, never ending in half a surrogate pair. */
function cutExcerpt(text: string): string {
  if (text.length <= BODY_EXCERPT_CHARS) return text;
  const last = text.charCodeAt(BODY_EXCERPT_CHARS - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? BODY_EXCERPT_CHARS - 1 : BODY_EXCERPT_CHARS;
  return text.slice(0, end);
}

/** A short, value-free reason for a network failure, e.g. `ECONNREFUSED`. */
function networkReason(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 3 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code)) return ` (${code})`;
    current = current.cause;
  }
  return '';
}

/**
 * Creates the client's HTTP sender: the policies above the transport, each written once. Per call
 * it follows redirects through the redirect policy (`redirect-policy.ts`: same origin only, at
 * most `MAX_REDIRECTS` hops, fetch's method rule), retries through the retry policy
 * (`retry-policy.ts`: which methods and statuses, how long to wait, never past the deadline),
 * keeps one deadline (`deadline.ts`, `RCP_TIMEOUT`) and the caller's signal (`RCP_ABORTED`) over
 * everything, reads the body under the size cap (`read-body.ts`, `RCP_RESPONSE_TOO_LARGE`),
 * turns a final non-2xx into {@link RcpHttpError} with a redacted excerpt (`redaction/redact.ts`) and a
 * transport failure into `RCP_NETWORK_ERROR` (with `cause`).
 *
 * @example
 * ```ts
 * const send = createSender({ timeout: 10_000, retry, maxResponseBytes: 1 << 20, transport: createFetchTransport(undefined) });
 * const { status, body } = await send({ method: 'GET', url: 'https://api.example.com/notes', headers: {} });
 * ```
 */
export function createSender(options: SenderOptions): Sender {
  const policy = options.retry;
  const headersFor = createHeaderMerger(options.headers);

  return async function send(request: SendRequest, call: SendCallOptions = NO_CALL_OPTIONS): Promise<SendResult> {
    const callerSignal = call.signal;
    const origin = requestOrigin(request);
    if (callerSignal?.aborted) throw abortedError(callerSignal.reason);
    const deadline = call.deadline ?? startDeadline(options.timeout, callerSignal);
    const exchange: Exchange = {
      transport: call.transport ?? options.transport,
      policy,
      origin,
      deadline,
      observer: call.observer,
      idempotent: call.idempotent === true,
      retries: 0,
      attempt: 0,
    };
    let hop: Hop = {
      method: request.method.toUpperCase(),
      url: request.url,
      headers: headersFor(request.headers, call.accept),
      body: request.body,
    };
    try {
      for (let redirects = 0; ; redirects += 1) {
        const response = await attemptHop(exchange, hop);
        const status = response.status;
        const next = nextHop(hop, status, response.headers, { origin, redirects, isRedirectAllowed: call.isRedirectAllowed, approved: call.approved });
        if (next === undefined) return await finalResult(response, hop, redirects, call, call.maxResponseBytes ?? options.maxResponseBytes, deadline);
        response.body?.cancel();
        hop = next;
        exchange.observer?.emit('onRedirect', { status, hop: redirects + 1 });
      }
    } catch (error) {
      throw sendFailure(error, origin, deadline, callerSignal);
    } finally {
      if (call.deadline === undefined) deadline.end();
    }
  };
}

/** The client-wide default headers under a request's own, and `accept` over the defaults' Accept (names compared case-insensitively). */
function createHeaderMerger(
  defaults: Record<string, string> | undefined,
): (request: Record<string, string>, accept: string | undefined) => Record<string, string> {
  const defaultHeaders = Object.entries(defaults ?? {}).map(([name, value]) => [name, name.toLowerCase(), value] as const);
  return (request, accept) => {
    if (defaultHeaders.length === 0 && accept === undefined) return request;
    const names = Object.keys(request);
    const out: Record<string, string> = Object.create(null) as Record<string, string>;
    if (names.length === 0) {
      // The common case (a tool without headers): no name to compare.
      for (const [name, lower, value] of defaultHeaders) {
        if (lower !== 'accept' || accept === undefined) out[name] = value;
      }
      if (accept !== undefined) out.accept = accept;
      return out;
    }
    const present = new Set<string>();
    for (const name of names) present.add(name.toLowerCase());
    for (const [name, lower, value] of defaultHeaders) {
      if (present.has(lower) || (lower === 'accept' && accept !== undefined)) continue;
      out[name] = value;
    }
    if (accept !== undefined && !present.has('accept')) out.accept = accept;
    for (const name of names) out[name] = request[name]!;
    return out;
  };
}

/** One call's exchange with the server: what moves the bytes, the rules, and the counts over every hop. */
interface Exchange {
  readonly transport: Transport;
  readonly policy: RetryPolicy;
  readonly origin: string;
  readonly deadline: Deadline;
  readonly observer: CallObserver | undefined;
  /** The request carries a declared idempotency key: retried whatever its method. */
  readonly idempotent: boolean;
  /** Retries so far, every hop counted (the policy's limit is per call). */
  retries: number;
  /** Attempts so far, every hop counted (for the hooks). */
  attempt: number;
}

/** The draft's answer to a duplicate while the first request with the key still runs: retried for a keyed call. */
const IN_USE = 409;

/** One hop: the first attempt and its retries (never past the deadline); the response that ends it. */
async function attemptHop(exchange: Exchange, hop: Hop): Promise<TransportResponse> {
  const { policy, deadline, observer } = exchange;
  const retriable = policy.retries(hop.method) || (exchange.idempotent && policy.limit > 0);
  for (;;) {
    exchange.attempt += 1;
    const attempt = exchange.attempt;
    observer?.emit('onRequest', { attempt });
    let response: TransportResponse;
    try {
      response = await exchange.transport({ method: hop.method, url: hop.url, headers: hop.headers, body: hop.body, origin: exchange.origin, abort: deadline });
    } catch (error) {
      // An RCP error from the transport is a refusal (too many content codings), never retried.
      if (!retriable || exchange.retries >= policy.limit || deadline.aborted || isRcpError(error) || addressRefusal(error) !== undefined) throw error;
      const wait = policy.delay(exchange.retries + 1, { error });
      if (wait === undefined || !deadline.fits(wait)) throw error;
      exchange.retries += 1;
      observer?.emit('onRetry', { attempt, delayMs: wait });
      await sleep(wait, deadline.signal);
      continue;
    }
    observer?.emit('onResponse', { attempt, status: response.status });
    // Refused before its body is read or its redirect followed, and never retried.
    const refusal = tooManyContentCodings(response.headers.get('content-encoding'), exchange.origin);
    if (refusal !== undefined) {
      response.body?.cancel();
      throw refusal;
    }
    const retriedStatus = policy.retriesStatus(response.status) || (exchange.idempotent && response.status === IN_USE);
    if (!retriable || exchange.retries >= policy.limit || !retriedStatus) return response;
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
    const status = response.status;
    const wait = policy.delay(exchange.retries + 1, retryAfter === undefined ? { status } : { status, retryAfter });
    if (wait === undefined || !deadline.fits(wait)) return response;
    exchange.retries += 1;
    observer?.emit('onRetry', { attempt, delayMs: wait, status });
    response.body?.cancel();
    await sleep(wait, deadline.signal);
  }
}

/** The final response of a call: a 304 result, an {@link RcpHttpError}, or a 2xx with its body read under the cap. */
async function finalResult(
  response: TransportResponse,
  hop: Hop,
  redirects: number,
  call: SendCallOptions,
  maxBytes: number,
  deadline: Deadline,
): Promise<SendResult> {
  const status = response.status;
  const observe = call.observe;
  if (status === 304 && call.notModified === true) {
    response.body?.cancel();
    observe?.(wire(response, hop.url, EMPTY, true));
    return { status, headers: response.headers, url: hop.url, body: EMPTY, redirects };
  }
  if (status < 200 || status > 299) {
    const { body, complete } = await readBodyPrefix(response, Math.min(maxBytes, EXCERPT_READ_BYTES), deadline);
    observe?.(wire(response, hop.url, body, complete));
    throw httpError(response, hop, body, complete, call.secrets);
  }
  // A HEAD response has no body, but may announce the size of the one a GET would get.
  if (hop.method === 'HEAD') response.body?.cancel();
  if (hop.method !== 'HEAD' && call.stream !== undefined) return streamResult(response, hop, redirects, call, call.stream, maxBytes, deadline);
  if (hop.method !== 'HEAD' && call.cutText === true && isTextMediaType(mediaTypeOf(response.headers.get('content-type') ?? ''))) {
    const { body, truncated } = await readBodyUpTo(response, maxBytes);
    observe?.(wire(response, hop.url, body, !truncated));
    return { status, headers: response.headers, url: hop.url, body, redirects, ...(truncated && { truncated }) };
  }
  const bytes = hop.method === 'HEAD' ? EMPTY : await readBody(response, maxBytes);
  observe?.(wire(response, hop.url, bytes, true));
  return { status, headers: response.headers, url: hop.url, body: bytes, redirects };
}

/**
 * A 2xx answer of a tool that declares a stream: refused before its body is read when it is not
 * of the stream's media type (SPEC §20.6); otherwise its events collected. An observer is shown
 * the response with an empty body, `complete: false` (the stream is never held whole).
 */
async function streamResult(
  response: TransportResponse,
  hop: Hop,
  redirects: number,
  call: SendCallOptions,
  stream: NonNullable<SendCallOptions['stream']>,
  maxBytes: number,
  deadline: Deadline,
): Promise<SendResult> {
  const { plan } = stream;
  const type = mediaTypeOf(response.headers.get('content-type') ?? '');
  if (!isStreamMediaType(plan, type)) {
    response.body?.cancel();
    throw new RcpResponseError(
      'not-a-stream',
      `Tool "${plan.tool}" declares a ${plan.format === 'sse' ? 'Server-Sent Events' : 'NDJSON'} stream but was answered with ${mediaTypeLabel(type)}`,
      { tool: plan.tool, mediaType: type },
    );
  }
  const collected: CollectedStream =
    response.body === null
      ? { data: plan.collect === 'array' ? [] : plan.collect === 'concat' ? '' : null, events: 0, bytes: 0, truncated: false }
      : await collectStream(response.body, plan, maxBytes, deadline, stream.onProgress);
  call.observe?.(wire(response, hop.url, EMPTY, false));
  return {
    status: response.status,
    headers: response.headers,
    url: hop.url,
    body: EMPTY,
    redirects,
    collected,
    ...(collected.truncated && { truncated: true }),
  };
}

/**
 * An error body's bytes as the text its excerpt is cut from: decoded by its declared charset
 * (the one rule, `decodeBodyText`), and, when the bytes may be only the start of the body, without
 * the end a secret the read limit cut through could be in.
 */
function excerptText(response: TransportResponse, prefix: Uint8Array, complete: boolean, secrets: readonly string[] | undefined): string {
  const text = decodeBodyText(prefix, response.headers.get('content-type') ?? '');
  return complete || secrets === undefined ? text : withoutCutSecrets(text, secrets);
}

/** A final non-2xx as {@link RcpHttpError}: URL, excerpt and challenge redacted with the call's secrets. */
function httpError(response: TransportResponse, hop: Hop, prefix: Uint8Array, complete: boolean, callSecrets: SendCallOptions['secrets']): RcpHttpError {
  const status = response.status;
  const secretList = typeof callSecrets === 'function' ? callSecrets() : callSecrets;
  const secrets = createRedactor(secretList);
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  return new RcpHttpError({
    status,
    statusText: cleanReasonPhrase(response.statusText),
    method: hop.method,
    url: redact(withoutQuery(hop.url), secrets),
    bodyExcerpt: cutExcerpt(redact(excerptText(response, prefix, complete, secretList), secrets)),
    challenge: challengeOf(status, response.headers, secrets),
    ...(retryAfter !== undefined && { retryAfterSeconds: Math.ceil(retryAfter / 1_000) }),
  });
}

/** What a failed send throws: an RCP error as it is; the address refusal, the timeout, the abort, or `RCP_NETWORK_ERROR` (with `cause`). */
function sendFailure(error: unknown, origin: string, deadline: Deadline, callerSignal: AbortSignal | undefined): unknown {
  if (isRcpError(error)) return error;
  const refusal = addressRefusal(error);
  if (refusal !== undefined) return new RcpError('RCP_ORIGIN_NOT_ALLOWED', refusal);
  if (deadline.timedOut()) {
    return new RcpError('RCP_TIMEOUT', `The request to ${origin} timed out after ${deadline.timeout} ms`, { cause: error });
  }
  if (callerSignal?.aborted) return abortedError(callerSignal.reason);
  return new RcpError('RCP_NETWORK_ERROR', `The request to ${origin} failed${networkReason(error)}`, { cause: error });
}

const NO_CALL_OPTIONS: SendCallOptions = Object.freeze({});

/** What an observer is handed of a final response. */
function wire(response: TransportResponse, url: string, body: Uint8Array, complete: boolean): WireResponse {
  return { status: response.status, statusText: response.statusText, headers: response.headers, url, body, complete };
}

/** The refusal a guarded transport put in a failure's cause chain, if any. */
function addressRefusal(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    if ((current as NodeJS.ErrnoException).code === ADDRESS_REFUSED) return current.message;
    current = current.cause;
  }
  return undefined;
}

/**
 * The origin of the request URL: the one the caller gives when the URL starts with it and `/`,
 * otherwise parsed (an unparsable URL is `RCP_NETWORK_ERROR`, another scheme than http(s)
 * `RCP_ORIGIN_NOT_ALLOWED`).
 */
function requestOrigin(request: SendRequest): string {
  const known = request.origin;
  if (
    known !== undefined &&
    (known.startsWith('https://') || known.startsWith('http://')) &&
    request.url.startsWith(known) &&
    request.url.charCodeAt(known.length) === 0x2f /* / */
  ) {
    return known;
  }
  let startUrl: URL;
  try {
    startUrl = new URL(request.url);
  } catch (error) {
    throw new RcpError('RCP_NETWORK_ERROR', 'The request URL is not an absolute URL', { cause: error });
  }
  if (startUrl.protocol !== 'https:' && startUrl.protocol !== 'http:') {
    throw new RcpError('RCP_ORIGIN_NOT_ALLOWED', `Only http and https URLs can be requested, not ${startUrl.protocol}`);
  }
  return startUrl.origin;
}

/**
 * The one `RCP_ABORTED` error: a call the caller's signal ended (the send and the result
 * inspection; `reason` is the signal's), or a call to a client that was closed (`'closed'`).
 */
export function abortedError(reason: unknown): RcpError<'RCP_ABORTED'> {
  if (reason === CLIENT_CLOSED) return new RcpError('RCP_ABORTED', 'The client was closed (client.close())');
  return new RcpError('RCP_ABORTED', 'The request was aborted', { cause: reason });
}

/** The reason {@link abortedError} is given for a call to a closed client. */
export const CLIENT_CLOSED: unique symbol = Symbol('rcp.client-closed');

function withoutQuery(url: string): string {
  const parsed = new URL(url);
  return parsed.origin + parsed.pathname;
}
