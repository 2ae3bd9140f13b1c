import { RcpError } from 'rcp-errors';
import type { TransportResponse } from './transport-types';

const EMPTY = new Uint8Array(0);

function tooLarge(maxBytes: number, what: string): RcpError<'RCP_RESPONSE_TOO_LARGE'> {
  return new RcpError('RCP_RESPONSE_TOO_LARGE', `The response body ${what} the limit of ${maxBytes} bytes (maxResponseBytes)`);
}

/** Joins chunks into one array without copying when there is only one. */
function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  if (chunks.length === 0) return EMPTY;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * Reads a whole response body, at most `maxBytes` bytes (after content decoding), counted
 * while streaming. A `Content-Length` above the cap fails before anything is read; a missing
 * or false one changes nothing, because the count is what decides. When the cap is crossed
 * the stream is cancelled (the connection is closed) and `RCP_RESPONSE_TOO_LARGE` is thrown.
 * Stream errors (network failure, abort) propagate as they are.
 */
export async function readBody(response: TransportResponse, maxBytes: number): Promise<Uint8Array> {
  const reader = response.body;
  const declared = response.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) {
    reader?.cancel();
    throw tooLarge(maxBytes, `(Content-Length ${Number(declared)}) exceeds`);
  }
  if (reader === null) return EMPTY;
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const value = await reader.read();
    if (value === undefined) break;
    total += value.byteLength;
    if (total > maxBytes) {
      reader.cancel();
      throw tooLarge(maxBytes, 'exceeds');
    }
    chunks.push(value);
  }
  return concat(chunks, total);
}

/**
 * Reads at most the first `maxBytes` bytes of a body and then cancels the rest (for error
 * excerpts: never fails for size). `complete` is true only when the body ended within them: a
 * body cut at `maxBytes`, or by a network failure mid-body (what was read so far is returned),
 * may end in part of a secret. Once `signal` is aborted (deadline or caller), the stream error
 * propagates instead.
 */
export async function readBodyPrefix(
  response: TransportResponse,
  maxBytes: number,
  signal?: { readonly aborted: boolean },
): Promise<{ body: Uint8Array; complete: boolean }> {
  const reader = response.body;
  if (reader === null) return { body: EMPTY, complete: true };
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (total < maxBytes) {
      const value = await reader.read();
      if (value === undefined) return { body: concat(chunks, total), complete: true };
      const room = maxBytes - total;
      const kept = value.byteLength > room ? value.subarray(0, room) : value;
      chunks.push(kept);
      total += kept.byteLength;
    }
  } catch (error) {
    if (signal?.aborted) throw error;
    return { body: concat(chunks, total), complete: false };
  }
  reader.cancel();
  return { body: concat(chunks, total), complete: false };
}

/**
 * Reads a body whose start is worth having when it is too long (a text answer, SPEC §11 step
 * 6): at most `maxBytes` bytes, counted while streaming like {@link readBody}; past them the
 * stream is cancelled (the connection closed) and `truncated` is true. A `Content-Length` above
 * the cap changes nothing: the count decides. Stream errors propagate as they are.
 */
export async function readBodyUpTo(response: TransportResponse, maxBytes: number): Promise<{ body: Uint8Array; truncated: boolean }> {
  const reader = response.body;
  if (reader === null) return { body: EMPTY, truncated: false };
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const value = await reader.read();
    if (value === undefined) return { body: concat(chunks, total), truncated: false };
    const room = maxBytes - total;
    if (value.byteLength > room) {
      if (room > 0) chunks.push(value.subarray(0, room));
      reader.cancel();
      return { body: concat(chunks, maxBytes), truncated: true };
    }
    chunks.push(value);
    total += value.byteLength;
  }
}
