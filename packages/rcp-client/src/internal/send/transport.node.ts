/**
 * The platform transport on Node (selected by the package's `#transport` import under the `node`
 * condition): undici's `dispatch()` on a keep-alive `Agent`, with a handler of our own. Node's
 * fetch builds a WHATWG Request and Response per call, and undici's `request()` a Node stream
 * per response body; the handler queues the body's chunks for the sender to pull instead, so the
 * client is faster than calling either yourself (see bench/README.md).
 *
 * `dispatch()` neither follows redirects (the sender does) nor decodes `Content-Encoding`: this
 * file decodes gzip, deflate and br, so the sender's size cap counts decoded bytes, as with fetch,
 * and like fetch builds no decoder for a response naming more than five codings.
 *
 * With an address check, the agent's `lookup` resolves a host name once, refuses the connection
 * when any address it resolves to is refused by the private-network boundary, and connects to
 * exactly the addresses it checked — so a rebinding name cannot switch to 127.0.0.1 between the
 * check and the connection.
 */
import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Readable, pipeline } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { contentCodings, tooManyContentCodings } from './content-coding';
import {
  ADDRESS_REFUSED,
  pathOf,
  type AddressCheck,
  type BodyReader,
  type PlatformTransport,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from './transport-types';

export type { AddressCheck, PlatformTransport, Transport };

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** What fetch asks for; a server that compresses anyway is decoded all the same. */
const ACCEPT_ENCODING = 'gzip, deflate, br';
/** Lenient like fetch: a body cut short at a flush point still yields what it had. */
const ZLIB_OPTIONS = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };

function ignore(): void {}

function checkedLookup(check: AddressCheck) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '');
        return;
      }
      const resolved = addresses as LookupAddress[];
      const refusal = resolved.map((entry) => check(hostname, entry.address)).find((reason) => reason !== undefined);
      if (refusal !== undefined || resolved.length === 0) {
        const refused: NodeJS.ErrnoException = new Error(refusal ?? 'the host name resolved to no address');
        refused.code = ADDRESS_REFUSED;
        callback(refused, '');
        return;
      }
      if (options.all) callback(null, resolved);
      else callback(null, resolved[0]!.address, resolved[0]!.family);
    });
  };
}

/** The decoders for a `Content-Encoding` value (at most `MAX_CONTENT_CODINGS`), in the order to apply them; undefined when unknown. */
function decodersFor(encoding: string): NodeJS.ReadWriteStream[] | undefined {
  const decoders: NodeJS.ReadWriteStream[] = [];
  const codings = contentCodings(encoding);
  for (let i = codings.length - 1; i >= 0; i--) {
    const coding = codings[i]!.trim();
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push(createGunzip(ZLIB_OPTIONS));
    else if (coding === 'deflate') decoders.push(createInflate(ZLIB_OPTIONS));
    else if (coding === 'br') decoders.push(createBrotliDecompress());
    else if (coding !== 'identity' && coding !== '') return undefined;
  }
  return decoders;
}

/** A body that is never read: `read` cancels it and rejects with `refusal` (no decoder is built for it). */
function refusedBody(body: BodyReader, refusal: Error): BodyReader {
  return {
    read() {
      body.cancel();
      return Promise.reject(refusal);
    },
    cancel() {
      body.cancel();
    },
  };
}

/** A pull reader over a Node stream; cancelling destroys it (errors after that are nobody's). */
function readerOf(stream: Readable): BodyReader {
  stream.on('error', ignore);
  const chunks = stream[Symbol.asyncIterator]();
  return {
    async read() {
      const next = await chunks.next();
      return next.done === true ? undefined : (next.value as Uint8Array);
    },
    cancel() {
      stream.destroy();
    },
  };
}

/** Bytes queued unread before the connection is paused (undici resumes it when `read` drains them). */
const HIGH_WATER_MARK = 64 * 1024;

type Waiter = { resolve(chunk: Uint8Array | undefined): void; reject(error: unknown): void };

/**
 * A response body fed by undici's dispatch callbacks: the chunks queue here until `read` pulls
 * them. No Node stream, no async iterator per response: that is where `request()` spends most
 * of its time per call (bench/README.md). Over {@link HIGH_WATER_MARK} unread bytes the
 * connection is paused; `cancel` aborts the request, which closes the connection.
 */
class DispatchBody implements BodyReader {
  #chunks: Uint8Array[] = [];
  #queued = 0;
  #done = false;
  #error: unknown = undefined;
  #waiter: Waiter | undefined;
  #controller: Dispatcher.DispatchController | undefined;

  attach(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
  }

  push(chunk: Uint8Array): void {
    if (this.#done) return;
    const waiter = this.#waiter;
    if (waiter !== undefined) {
      this.#waiter = undefined;
      waiter.resolve(chunk);
      return;
    }
    this.#chunks.push(chunk);
    this.#queued += chunk.byteLength;
    if (this.#queued > HIGH_WATER_MARK) this.#controller?.pause();
  }

  end(): void {
    this.#done = true;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.resolve(undefined);
  }

  fail(error: unknown): void {
    if (this.#done) return;
    this.#done = true;
    this.#error = error;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.reject(error);
  }

  read(): Promise<Uint8Array | undefined> {
    const chunk = this.#chunks.shift();
    if (chunk !== undefined) {
      this.#queued -= chunk.byteLength;
      if (this.#controller?.paused === true && this.#queued <= HIGH_WATER_MARK) this.#controller.resume();
      return Promise.resolve(chunk);
    }
    if (this.#error !== undefined) return Promise.reject(this.#error);
    if (this.#done) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
  }

  cancel(): void {
    this.#chunks = [];
    this.#queued = 0;
    if (this.#done) return;
    this.#done = true;
    this.#controller?.abort(new Error('The response body was cancelled'));
  }
}

/** A body's bytes through `Content-Encoding` decoders (zlib streams), pulled the same way. */
function decodedBody(body: BodyReader, decoders: NodeJS.ReadWriteStream[]): BodyReader {
  const source = new Readable({
    read() {
      body.read().then(
        (chunk) => this.push(chunk ?? null),
        (error: unknown) => this.destroy(error as Error),
      );
    },
    destroy(error, callback) {
      body.cancel();
      callback(error);
    },
  });
  return readerOf((pipeline as (...streams: unknown[]) => Readable)(source, ...decoders, ignore));
}

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | null {
  const lower = name.toLowerCase();
  if (!Object.hasOwn(headers, lower)) return null;
  const value = headers[lower];
  if (value === undefined) return null;
  return typeof value === 'string' ? value : value.join(', ');
}

function hasHeader(headers: Record<string, string>, lower: string): boolean {
  for (const name in headers) if (name.toLowerCase() === lower) return true;
  return false;
}

/** undici aborts with an `Error`; a caller's signal may carry any reason (the sender reads the deadline, not this). */
function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error('The request was aborted', { cause: reason });
}

/**
 * One request dispatched on `dispatcher`: resolves with the response once its headers are in
 * (1xx are skipped), its body a {@link DispatchBody}; rejects on a failure before that. The
 * call's abort state aborts the request at any point — before the connection is made too (the
 * promise rejects at once with its reason).
 */
function dispatchRequest(dispatcher: Dispatcher, request: TransportRequest, headers: Record<string, string>): Promise<TransportResponse> {
  const abort = request.abort;
  if (abort.aborted) return Promise.reject(abort.reason);
  return new Promise((resolve, reject) => {
    const body = new DispatchBody();
    let controller: Dispatcher.DispatchController | undefined;
    let started = false;
    const onAbort = (): void => {
      if (controller !== undefined) controller.abort(asError(abort.reason));
      if (!started) reject(abort.reason);
    };
    abort.once('abort', onAbort);
    const settle = (): void => abort.removeListener('abort', onAbort);
    dispatcher.dispatch(
      {
        origin: request.origin,
        path: pathOf(request.url, request.origin),
        method: request.method as Dispatcher.HttpMethod,
        headers,
        // Chunks are written one after another (undici checks their total against Content-Length).
        body: request.body === undefined ? null : typeof request.body === 'string' ? request.body : Readable.from(request.body.chunks, { objectMode: false }),
      },
      {
        onRequestStart(requestController) {
          controller = requestController;
          body.attach(requestController);
          if (abort.aborted) requestController.abort(asError(abort.reason));
        },
        onResponseStart(_controller, statusCode, responseHeaders, statusMessage) {
          if (statusCode < 200) return;
          started = true;
          const reader: BodyReader = responseBody(body, request, responseHeaders);
          resolve({
            status: statusCode,
            statusText: statusMessage ?? '',
            headers: {
              get: (name) => headerValue(responseHeaders, name),
              entries: () => Object.keys(responseHeaders).map((name): [string, string] => [name, headerValue(responseHeaders, name)!]),
            },
            body: reader,
          });
        },
        onResponseData(_controller, chunk) {
          body.push(chunk);
        },
        onResponseEnd() {
          settle();
          body.end();
        },
        onResponseError(_controller, error) {
          settle();
          if (started) body.fail(error);
          else reject(error);
        },
      },
    );
  });
}

/**
 * The body as the sender reads it: decoded when the response names a `Content-Encoding` this
 * transport knows; refused, with no decoder built, when it names more codings than fetch
 * decodes (the sender refuses such a response before reading it).
 */
function responseBody(body: DispatchBody, request: TransportRequest, headers: Record<string, string | string[] | undefined>): BodyReader {
  const encoding = headerValue(headers, 'content-encoding');
  if (encoding === null || request.method === 'HEAD') return body;
  const refusal = tooManyContentCodings(encoding, request.origin);
  if (refusal !== undefined) return refusedBody(body, refusal);
  const decoders = decodersFor(encoding);
  return decoders === undefined || decoders.length === 0 ? body : decodedBody(body, decoders);
}

/**
 * Node's transport: undici `dispatch()` on this transport's own keep-alive agent, every
 * connection checked by `check` when given. `close()` closes the agent's connections. undici is
 * loaded when the first request needs it, not when the client is imported (a CLI run or a cold
 * serverless start that only discovers, or fails early, never pays for it).
 *
 * @example
 * ```ts
 * const transport = createPlatformTransport((host, address) => (address.startsWith('10.') ? `${host}: private` : undefined));
 * const response = await transport({ method: 'GET', url, origin, headers: {}, body: undefined, abort: deadline });
 * ```
 */
export function createPlatformTransport(check?: AddressCheck): PlatformTransport {
  let agent: Dispatcher | undefined;
  let loading: Promise<Dispatcher> | undefined;
  const agentOf = (): Promise<Dispatcher> =>
    (loading ??= import('undici').then(({ Agent }) => (agent = new Agent(check === undefined ? {} : { connect: { lookup: checkedLookup(check) } }))));
  const send: Transport = async (request) => {
    const dispatcher = agent ?? (await agentOf());
    let headers = hasHeader(request.headers, 'accept-encoding') ? request.headers : { ...request.headers, 'accept-encoding': ACCEPT_ENCODING };
    if (typeof request.body === 'object') headers = { ...headers, 'content-length': String(request.body.length) };
    return dispatchRequest(dispatcher, request, headers);
  };
  // Closing before any request: nothing was opened (and a request still loading undici gets its agent closed).
  return Object.assign(send, { close: async () => (loading === undefined ? undefined : (await loading).close()) });
}
