/**
 * The platform transport on Node (selected by the package's `#transport` import under the `node`
 * condition): undici's `request()` on a keep-alive `Agent`. Node's own fetch builds a WHATWG
 * Request and Response per call, and that is where its time goes; `request()` does not, so the
 * client is faster than calling fetch yourself (see bench/README.md).
 *
 * `request()` neither follows redirects (the sender does) nor decodes `Content-Encoding`: this
 * file decodes gzip, deflate and br, so the sender's size cap counts decoded bytes, as with fetch.
 *
 * With an address check, the agent's `lookup` resolves a host name once, refuses the connection
 * when any address it resolves to is refused by the private-network boundary, and connects to
 * exactly the addresses it checked — so a rebinding name cannot switch to 127.0.0.1 between the
 * check and the connection.
 */
import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { ADDRESS_REFUSED, pathOf, type AddressCheck, type BodyReader, type PlatformTransport, type Transport } from './transport-types';

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

/** The decoders for a `Content-Encoding` value, in the order to apply them; undefined when unknown. */
function decodersFor(encoding: string): NodeJS.ReadWriteStream[] | undefined {
  const decoders: NodeJS.ReadWriteStream[] = [];
  const codings = encoding.toLowerCase().split(',');
  for (let i = codings.length - 1; i >= 0; i--) {
    const coding = codings[i]!.trim();
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push(createGunzip(ZLIB_OPTIONS));
    else if (coding === 'deflate') decoders.push(createInflate(ZLIB_OPTIONS));
    else if (coding === 'br') decoders.push(createBrotliDecompress());
    else if (coding !== 'identity' && coding !== '') return undefined;
  }
  return decoders;
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

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | null {
  const value = headers[name.toLowerCase()];
  if (value === undefined) return null;
  return typeof value === 'string' ? value : value.join(', ');
}

function hasHeader(headers: Record<string, string>, lower: string): boolean {
  for (const name in headers) if (name.toLowerCase() === lower) return true;
  return false;
}

/**
 * Node's transport: undici `request()` on this transport's own keep-alive agent, every
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
    const headers = hasHeader(request.headers, 'accept-encoding')
      ? request.headers
      : { ...request.headers, 'accept-encoding': ACCEPT_ENCODING };
    const response = await dispatcher.request({
      origin: request.origin,
      path: pathOf(request.url, request.origin),
      method: request.method as Dispatcher.HttpMethod,
      headers,
      body: request.body ?? null,
      // The deadline itself: undici takes an emitter with `once` / `removeListener` as its signal.
      signal: request.abort as unknown as AbortSignal,
    });
    const responseHeaders = response.headers;
    const encoding = headerValue(responseHeaders, 'content-encoding');
    let body: Readable = response.body;
    if (encoding !== null && request.method !== 'HEAD') {
      const decoders = decodersFor(encoding);
      if (decoders !== undefined && decoders.length > 0) {
        body = (pipeline as (...streams: unknown[]) => Readable)(response.body, ...decoders, ignore);
      }
    }
    return {
      status: response.statusCode,
      statusText: response.statusText,
      headers: {
        get: (name) => headerValue(responseHeaders, name),
        entries: () => Object.keys(responseHeaders).map((name): [string, string] => [name, headerValue(responseHeaders, name)!]),
      },
      body: readerOf(body),
    };
  };
  // Closing before any request: nothing was opened (and a request still loading undici gets its agent closed).
  return Object.assign(send, { close: async () => (loading === undefined ? undefined : (await loading).close()) });
}
