/**
 * A multipart body (RCP 0.4, SPEC §20.7): each field of the rendered body one part; a file param's
 * reference resolved by the client's `files` resolver, checked against the param's `mediaTypes`
 * and `maxBytes` and the client's `maxUploadBytes`, hashed (SHA-256, for the review and its
 * digest) and sent as a file part. Nothing is sent here; a problem is thrown before any request.
 */
import { MEDIA_TYPE_PATTERN } from 'rcp-manifest';
import { encodeMultipartBody, multipartFieldText, type MultipartPart } from './multipart-encoding';
import { kindOf, mediaTypeInRanges } from 'rcp-internal';
import type { RcpFileResolver, RcpResolvedFile } from '../../client-options';
import type { RcpClientTool } from '../../client-tool';
import { RcpInvalidArgumentsError } from '../../invalid-arguments-error';
import { RcpResolverError } from '../../resolver-error';
import type { ChunkedBody } from '../send/transport-types';

/** A top-level body field whose value is exactly one file param's token. */
export interface FileField {
  readonly field: string;
  readonly param: string;
  readonly mediaTypes: readonly string[] | undefined;
  readonly maxBytes: number | undefined;
}

/** How a tool's multipart body is built: its file fields, the resolver and the client's limit. */
export interface UploadPlan {
  readonly fields: readonly FileField[];
  readonly resolver: RcpFileResolver | undefined;
  readonly maxUploadBytes: number;
}

/** What a review and `prepare` show of one part: a text field's value, or a file's name, type, size and SHA-256. */
export type ShownPart =
  | { readonly name: string; readonly value: string }
  | { readonly name: string; readonly param: string; readonly filename: string; readonly mediaType: string; readonly size: number; readonly sha256: string };

/** A built multipart body: the chunks to send, the Content-Type with its boundary, and what a person is shown. */
export interface BuiltMultipart {
  readonly body: ChunkedBody;
  readonly contentType: string;
  readonly shown: { readonly multipart: readonly ShownPart[] };
}

const MEDIA_TYPE = new RegExp(MEDIA_TYPE_PATTERN);
const CONTROL = /[\u0000-\u001f\u007f]/;

function hex(bytes: ArrayBuffer | Uint8Array): string {
  let text = '';
  for (const byte of new Uint8Array(bytes)) text += byte.toString(16).padStart(2, '0');
  return text;
}

function accepts(ranges: readonly string[] | undefined, mediaType: string): boolean {
  return ranges === undefined || mediaTypeInRanges(mediaType, ranges);
}

function unresolved(tool: RcpClientTool, param: string, why: string, cause?: unknown): RcpResolverError {
  return new RcpResolverError('RCP_UNRESOLVED', `The file for param "${param}" of tool "${tool.name}" could not be resolved: ${why}`, {
    tool: tool.name,
    param,
    ...(cause !== undefined && { cause }),
  });
}

function failed(tool: RcpClientTool, param: string, why: string, cause?: unknown): RcpResolverError {
  return new RcpResolverError('RCP_RESOLVER_FAILED', `The file resolver for param "${param}" of tool "${tool.name}" ${why}`, {
    tool: tool.name,
    param,
    ...(cause !== undefined && { cause }),
  });
}

/** Refused for the model: the file it named does not fit the param (it may name another). */
function refused(tool: RcpClientTool, param: string, message: string): RcpInvalidArgumentsError {
  return new RcpInvalidArgumentsError(tool.name, [{ path: `/${param}`, message }]);
}

function tooLarge(tool: RcpClientTool, entry: FileField, limit: number): RcpInvalidArgumentsError {
  const whose = entry.maxBytes !== undefined && limit === entry.maxBytes ? 'this param accepts' : "the client's upload limit leaves";
  return refused(tool, entry.param, `the file is larger than the ${limit} bytes ${whose}`);
}

/** The resolver's answer checked field by field; its values never reach a message. */
function checkedFile(tool: RcpClientTool, entry: FileField, file: unknown): RcpResolvedFile {
  if (file === undefined || file === null) throw unresolved(tool, entry.param, 'the file resolver returned nothing');
  if (typeof file !== 'object') throw failed(tool, entry.param, `returned ${kindOf(file)}, not a file`);
  const candidate = file as Record<string, unknown>;
  const { filename, mediaType } = candidate;
  if (typeof filename !== 'string' || filename === '' || filename.length > 255 || CONTROL.test(filename)) {
    throw failed(tool, entry.param, 'returned a file without a usable filename (1 to 255 characters, no control characters)');
  }
  if (typeof mediaType !== 'string' || !MEDIA_TYPE.test(mediaType)) {
    throw failed(tool, entry.param, 'returned a file without a media type ("type/subtype", no parameters)');
  }
  const bytes = candidate['bytes'];
  const stream = candidate['stream'];
  if (bytes instanceof Uint8Array) return file as RcpResolvedFile;
  if (typeof stream === 'object' && stream !== null && (Symbol.asyncIterator in stream || typeof (stream as ReadableStream).getReader === 'function')) {
    const size = candidate['size'];
    if (size !== undefined && (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0)) {
      throw failed(tool, entry.param, 'returned a stream whose size is not a whole number of bytes');
    }
    return file as RcpResolvedFile;
  }
  throw failed(tool, entry.param, 'returned a file with neither bytes (a Uint8Array) nor a stream');
}

/** Cancels a resolver's stream we stop reading; never throws. */
function release(stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>, reader?: ReadableStreamDefaultReader<Uint8Array>): void {
  try {
    if (reader !== undefined) void reader.cancel().catch(() => {});
    else if (typeof (stream as ReadableStream).cancel === 'function') void (stream as ReadableStream).cancel().catch(() => {});
  } catch {
    // a stream that cannot be cancelled is left to the collector
  }
}

/**
 * A stream's bytes, read under `limit` (cancelled as soon as it passes it) and, when it declared
 * a size, checked against it. Joined into one buffer: its SHA-256 needs them together.
 */
async function readStream(tool: RcpClientTool, entry: FileField, file: Extract<RcpResolvedFile, { stream: unknown }>, limit: number): Promise<Uint8Array> {
  const { stream, size } = file;
  if (size !== undefined && size > limit) {
    release(stream);
    throw tooLarge(tool, entry, limit);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const take = (chunk: unknown): void => {
    if (!(chunk instanceof Uint8Array)) throw failed(tool, entry.param, 'returned a stream that yielded something other than bytes');
    total += chunk.byteLength;
    if (total > limit) throw tooLarge(tool, entry, limit);
    if (size !== undefined && total > size) throw failed(tool, entry.param, 'returned a stream longer than the size it declared');
    chunks.push(chunk);
  };
  try {
    if (typeof (stream as ReadableStream<Uint8Array>).getReader === 'function') {
      const reader = (stream as ReadableStream<Uint8Array>).getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          take(value);
        }
      } catch (error) {
        release(stream, reader);
        throw error;
      }
    } else {
      for await (const chunk of stream as AsyncIterable<Uint8Array>) take(chunk); // a for await ends (returns) the iterator on a throw
    }
  } catch (error) {
    if (error instanceof RcpInvalidArgumentsError || error instanceof RcpResolverError) throw error;
    throw failed(tool, entry.param, 'returned a stream that failed while it was read', error);
  }
  if (size !== undefined && total !== size) throw failed(tool, entry.param, 'returned a stream shorter than the size it declared');
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return joined;
}

/** A random boundary per request: `rcp-` and 32 hex digits (128 bits), which no content can guess. */
function randomBoundary(): string {
  return `rcp-${hex(globalThis.crypto.getRandomValues(new Uint8Array(16)))}`;
}

/**
 * Builds the multipart body of one call from the rendered body (an object: the manifest rules
 * say so). Files are resolved one after another, in field order, each under what is left of
 * `maxUploadBytes`.
 */
export async function buildMultipart(plan: UploadPlan, tool: RcpClientTool, rendered: unknown, ctx: unknown): Promise<BuiltMultipart> {
  const fields = rendered as Record<string, unknown>;
  const parts: MultipartPart[] = [];
  const shown: ShownPart[] = [];
  let left = plan.maxUploadBytes;
  for (const name of Object.keys(fields)) {
    const value = fields[name];
    const entry = plan.fields.find((candidate) => candidate.field === name);
    if (entry === undefined) {
      const text = multipartFieldText(value);
      if (text === undefined) continue;
      parts.push({ name, text });
      shown.push({ name, value: text });
      continue;
    }
    if (typeof value !== 'string') continue; // not given: no part (the argument check took only strings)
    if (plan.resolver === undefined) throw unresolved(tool, entry.param, 'the client has no "files" option');
    let answer: unknown;
    try {
      answer = await plan.resolver(value, ctx, Object.freeze({ tool, param: entry.param, mediaTypes: entry.mediaTypes, maxBytes: entry.maxBytes }));
    } catch (error) {
      throw failed(tool, entry.param, 'threw', error);
    }
    const file = checkedFile(tool, entry, answer);
    const mediaType = file.mediaType.toLowerCase();
    const limit = Math.min(left, entry.maxBytes ?? Number.POSITIVE_INFINITY);
    if (!accepts(entry.mediaTypes, mediaType)) {
      if ('stream' in file) release(file.stream);
      throw refused(tool, entry.param, `the file's media type is not one this param accepts (${entry.mediaTypes!.join(', ')})`);
    }
    let bytes: Uint8Array;
    if ('bytes' in file) {
      if (file.bytes.byteLength > limit) throw tooLarge(tool, entry, limit);
      bytes = file.bytes;
    } else {
      bytes = await readStream(tool, entry, file, limit);
    }
    left -= bytes.byteLength;
    const sha256 = hex(await globalThis.crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
    parts.push({ name, filename: file.filename, mediaType, chunks: [bytes] });
    shown.push({ name, param: entry.param, filename: file.filename, mediaType, size: bytes.byteLength, sha256 });
  }
  const boundary = randomBoundary();
  const chunks = encodeMultipartBody(parts, boundary);
  let length = 0;
  for (const chunk of chunks) length += chunk.byteLength;
  return { body: { chunks, length }, contentType: `multipart/form-data; boundary=${boundary}`, shown: { multipart: shown } };
}
