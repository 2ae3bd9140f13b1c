import { RcpError, isRcpError } from 'rcp-errors';
import { RcpHttpError } from '../http-error';
import { readBody, readBodyPrefix } from './read-body';
import { redact } from './redact';
import { ADDRESS_REFUSED } from './connect-guard-types';
import { parseRetryAfter, type RetryPolicy } from './retry-policy';
import type { CallObserver } from '../hooks';

/** One HTTP request, fully rendered. */
export interface SendRequest {
  method: string;
  /** Absolute http(s) URL. */
  url: string;
  headers: Record<string, string>;
  body?: string;
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
  /** A replacement for `globalThis.fetch`, called with `redirect: 'manual'`. */
  fetch?: typeof globalThis.fetch;
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
  /** This call's deadline in milliseconds, instead of the sender's `timeout` (what is left of the call's). */
  timeout?: number;
  /** Node's fetch `dispatcher` that checks the address each connection goes to (the private-network boundary). */
  dispatcher?: object;
  /** The client's hooks for this call. */
  observer?: CallObserver;
  /** A conditional request: a 304 is a result (empty body), not an error. */
  notModified?: boolean;
}

/** A 2xx response with its whole body. */
export interface SendResult {
  status: number;
  headers: Headers;
  /** The final URL, after redirects. */
  url: string;
  body: Uint8Array;
  /** How many redirects were followed. */
  redirects: number;
}

/** Sends one request: redirects, retries, deadline and size cap included. */
export type Sender = (request: SendRequest, options?: SendCallOptions) => Promise<SendResult>;

/** Redirect hops followed at most; one more is `RCP_NETWORK_ERROR`. */
export const MAX_REDIRECTS = 5;
/** Characters kept in `RcpHttpError.bodyExcerpt`. */
export const BODY_EXCERPT_CHARS = 1_024;
/** Bytes read from an error body to build the excerpt (redaction runs on all of them before the cut). */
const EXCERPT_READ_BYTES = 64 * 1024;

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Headers that describe a request body; dropped when a redirect turns the request into a GET. */
const BODY_HEADERS: ReadonlySet<string> = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-location',
]);

const UTF8 = new TextDecoder();
const EMPTY = new Uint8Array(0);

function ignore(): void {}

/** The first `BODY_EXCERPT_CHARS` characters, never ending in half a surrogate pair. */
function cutExcerpt(text: string): string {
  if (text.length <= BODY_EXCERPT_CHARS) return text;
  const last = text.charCodeAt(BODY_EXCERPT_CHARS - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? BODY_EXCERPT_CHARS - 1 : BODY_EXCERPT_CHARS;
  return text.slice(0, end);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function discard(response: Response): void {
  void response.body?.cancel().catch(ignore);
}

/** A short, value-free reason for a network failure, e.g. `ECONNREFUSED`. */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  const code = cause?.code;
  if (typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code)) return ` (${code})`;
  return '';
}

/**
 * Creates the client's HTTP sender. It calls `fetch` directly with `redirect: 'manual'` — no HTTP
 * library in between: ky's per-call option merging, Request cloning and signal combining cost
 * about 40% of loopback throughput (measured, see SPEC §11), and everything ky would add here
 * (retries, timeout, redirects, body reading) the sender does itself. Per call it
 *
 * - follows redirects itself: same origin only (scheme, host and port), at most
 *   {@link MAX_REDIRECTS} hops; fetch's method rule: 303 turns anything but HEAD into a GET
 *   without body, 301/302 turn only POST into one, 307/308 keep method and body. A redirect elsewhere, or one `isRedirectAllowed` refuses, is
 *   `RCP_ORIGIN_NOT_ALLOWED` and is never followed; too many hops is `RCP_NETWORK_ERROR`;
 * - retries GET, HEAD, PUT, DELETE and OPTIONS up to `retry` times on network errors and
 *   408/429/502/503/504, waiting `Retry-After` (up to {@link MAX_RETRY_AFTER_MS}; longer means
 *   no retry) or {@link retryBackoff}, never past the deadline (a wait that would not fit means
 *   no retry: the last error stands). POST and PATCH are never retried;
 * - enforces one deadline (`RCP_TIMEOUT`) over everything, the caller's signal (`RCP_ABORTED`)
 *   and the body size cap (`RCP_RESPONSE_TOO_LARGE`);
 * - turns a final non-2xx into {@link RcpHttpError} and a transport failure into
 *   `RCP_NETWORK_ERROR` (with `cause`).
 */
export function createSender(options: SenderOptions): Sender {
  // Looked up per call when not given, so a fetch installed later (a polyfill, a test proxy) is used.
  const fetchImpl: typeof globalThis.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const policy = options.retry;
  const defaultHeaders = Object.entries(options.headers ?? {}).map(
    ([name, value]) => [name, name.toLowerCase(), value] as const,
  );

  /** Request headers over `accept` over client defaults, case-insensitively. */
  function headersFor(request: Record<string, string>, accept: string | undefined): Record<string, string> {
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
  }

  return async function send(request: SendRequest, call: SendCallOptions = NO_CALL_OPTIONS): Promise<SendResult> {
    const callerSignal = call.signal;
    const timeout = call.timeout ?? options.timeout;
    const origin = requestOrigin(request);
    if (callerSignal?.aborted) throw abortedError(origin, callerSignal.reason);

    const controller = new AbortController();
    const signal = controller.signal;
    const started = performance.now();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`The request timed out after ${timeout} ms`, 'TimeoutError'));
    }, timeout);
    let onCallerAbort: (() => void) | undefined;
    if (callerSignal !== undefined) {
      onCallerAbort = (): void => controller.abort(callerSignal.reason);
      callerSignal.addEventListener('abort', onCallerAbort, { once: true });
    }

    const maxBytes = call.maxResponseBytes ?? options.maxResponseBytes;
    let method = request.method.toUpperCase();
    let url = request.url;
    let init: RequestInit = {
      method,
      headers: headersFor(request.headers, call.accept),
      body: request.body,
      signal,
      redirect: 'manual',
    };
    if (call.dispatcher !== undefined) (init as { dispatcher?: unknown }).dispatcher = call.dispatcher;
    let retries = 0;
    let attempt = 0;
    const observer = call.observer;

    try {
      for (let redirects = 0; ; redirects += 1) {
        // One hop: the first attempt and its retries.
        const retriable = policy.retries(method);
        let response: Response;
        for (;;) {
          attempt += 1;
          observer?.emit('onRequest', { attempt });
          try {
            response = await fetchImpl(url, init);
          } catch (error) {
            if (!retriable || retries >= policy.limit || signal.aborted || addressRefusal(error) !== undefined) throw error;
            const wait = policy.delay(retries + 1, { error });
            if (wait === undefined || performance.now() + wait >= started + timeout) throw error;
            retries += 1;
            observer?.emit('onRetry', { attempt, delayMs: wait });
            await sleep(wait, signal);
            continue;
          }
          observer?.emit('onResponse', { attempt, status: response.status });
          if (!retriable || retries >= policy.limit || !policy.retriesStatus(response.status)) break;
          const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
          const wait = policy.delay(retries + 1, retryAfter === undefined ? { status: response.status } : { status: response.status, retryAfter });
          if (wait === undefined || performance.now() + wait >= started + timeout) break;
          retries += 1;
          observer?.emit('onRetry', { attempt, delayMs: wait, status: response.status });
          discard(response);
          await sleep(wait, signal);
        }
        const status = response.status;
        const location = REDIRECT_STATUSES.has(status) ? response.headers.get('location') : null;
        if (location !== null) {
          discard(response);
          let target: URL;
          try {
            target = new URL(location, url);
          } catch {
            // The parser's error quotes the Location value: not kept.
            throw new RcpError('RCP_NETWORK_ERROR', `${origin} answered ${status} with an invalid Location header`);
          }
          if (target.username !== '' || target.password !== '') {
            // Userinfo is a credential in the URL: never followed, never quoted.
            throw new RcpError('RCP_ORIGIN_NOT_ALLOWED', `${origin} redirected (${status}) to a URL with user info; such redirects are never followed`);
          }
          if (target.origin !== origin) {
            throw new RcpError(
              'RCP_ORIGIN_NOT_ALLOWED',
              `${origin} redirected (${status}) to another origin, ${originLabel(target)}; cross-origin redirects are never followed`,
            );
          }
          if (call.isRedirectAllowed !== undefined && !redirectAllowed(call.isRedirectAllowed, target)) {
            throw new RcpError('RCP_ORIGIN_NOT_ALLOWED', `The client's policy refuses the redirect (${status}) within ${origin}`);
          }
          if (redirects >= MAX_REDIRECTS) {
            throw new RcpError('RCP_NETWORK_ERROR', `Too many redirects from ${origin} (more than ${MAX_REDIRECTS})`);
          }
          // fetch's rule (WHATWG Fetch, "HTTP-redirect fetch"): 303 turns anything but HEAD into a GET;
          // 301 and 302 turn only POST into a GET. A PUT or DELETE is never silently turned into a GET.
          if ((status === 303 && method !== 'GET' && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')) {
            method = 'GET';
            init = { ...init, method, body: undefined, headers: withoutBodyHeaders(init.headers as Record<string, string>) };
          }
          target.hash = '';
          url = target.href;
          observer?.emit('onRedirect', { status, hop: redirects + 1 });
          continue;
        }
        if (status === 304 && call.notModified === true) {
          discard(response);
          return { status, headers: response.headers, url, body: EMPTY, redirects };
        }
        if (status < 200 || status > 299) {
          const prefix = await readBodyPrefix(response, Math.min(maxBytes, EXCERPT_READ_BYTES), signal);
          const secrets = typeof call.secrets === 'function' ? call.secrets() : call.secrets;
          throw new RcpHttpError({
            status,
            statusText: response.statusText,
            method,
            url: redact(withoutQuery(url), secrets),
            bodyExcerpt: cutExcerpt(redact(UTF8.decode(prefix), secrets)),
          });
        }
        // A HEAD response has no body, but may announce the size of the one a GET would get.
        if (method === 'HEAD') discard(response);
        const bytes = method === 'HEAD' ? EMPTY : await readBody(response, maxBytes);
        return { status, headers: response.headers, url, body: bytes, redirects };
      }
    } catch (error) {
      if (isRcpError(error)) throw error;
      const refusal = addressRefusal(error);
      if (refusal !== undefined) throw new RcpError('RCP_ORIGIN_NOT_ALLOWED', refusal);
      if (timedOut) {
        throw new RcpError('RCP_TIMEOUT', `The request to ${origin} timed out after ${timeout} ms`, { cause: error });
      }
      if (callerSignal?.aborted) throw abortedError(origin, callerSignal.reason);
      throw new RcpError('RCP_NETWORK_ERROR', `The request to ${origin} failed${networkReason(error)}`, { cause: error });
    } finally {
      clearTimeout(timer);
      if (onCallerAbort !== undefined) callerSignal!.removeEventListener('abort', onCallerAbort);
    }
  };
}

const NO_CALL_OPTIONS: SendCallOptions = Object.freeze({});

/** The refusal a connect guard put in a fetch failure's cause chain, if any. */
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

/** Asks the redirect policy about a copy of the target; a policy that throws refuses (fail closed, cause kept). */
function redirectAllowed(policy: (target: URL) => boolean, target: URL): boolean {
  try {
    return policy(new URL(target.href)) === true;
  } catch (error) {
    throw new RcpError('RCP_ORIGIN_NOT_ALLOWED', `The client's policy failed on a redirect within ${target.origin}`, {
      cause: error,
    });
  }
}

function abortedError(origin: string, reason: unknown): RcpError<'RCP_ABORTED'> {
  return new RcpError('RCP_ABORTED', `The request to ${origin} was aborted`, { cause: reason });
}

function originLabel(url: URL): string {
  return url.origin === 'null' ? `a ${url.protocol} URL` : url.origin;
}

function withoutQuery(url: string): string {
  const parsed = new URL(url);
  return parsed.origin + parsed.pathname;
}

function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const name of Object.keys(headers)) {
    if (!BODY_HEADERS.has(name.toLowerCase())) out[name] = headers[name]!;
  }
  return out;
}
