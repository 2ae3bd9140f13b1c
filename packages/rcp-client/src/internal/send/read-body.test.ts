import { afterEach, describe, expect, it } from 'vitest';
import { isRcpError } from 'rcp-errors';
import { startTestServer, type TestServer } from 'rcp-test-utils';
import { readBody as readBodyOf, readBodyPrefix as readBodyPrefixOf } from './read-body';
import { fromFetchResponse } from './fetch-transport';

// The reader works on the transport's response; these tests build it from fetch Responses.
const readBody = (response: Response, max: number) => readBodyOf(fromFetchResponse(response), max);
const readBodyPrefix = async (response: Response, max: number, signal?: AbortSignal) => (await readBodyPrefixOf(fromFetchResponse(response), max, signal)).body;
const prefixComplete = async (response: Response, max: number) => (await readBodyPrefixOf(fromFetchResponse(response), max)).complete;

let server: TestServer | undefined;
afterEach(async () => server?.close());

/** A response whose body arrives in the given chunks, with optional headers. */
function streamed(chunks: string[], headers: Record<string, string> = {}): { response: Response; cancelled: () => boolean } {
  let cancelled = false;
  const encoder = new TextEncoder();
  let index = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index < chunks.length) controller.enqueue(encoder.encode(chunks[index++]));
      else controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  return { response: new Response(stream, { headers }), cancelled: () => cancelled };
}

async function code(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return isRcpError(error) ? error.code : String(error);
  }
}

describe('readBody', () => {
  it('returns every byte of a body within the cap, in order', async () => {
    const { response } = streamed(['ab', 'cd', 'ef']);
    expect(new TextDecoder().decode(await readBody(response, 6))).toBe('abcdef');
  });

  it('returns an empty array for a response without body', async () => {
    expect((await readBody(new Response(null), 10)).byteLength).toBe(0);
  });

  it('fails with RCP_RESPONSE_TOO_LARGE one byte over the cap and cancels the stream', async () => {
    const { response, cancelled } = streamed(['abc', 'def', 'never read']);
    expect(await code(readBody(response, 5))).toBe('RCP_RESPONSE_TOO_LARGE');
    expect(cancelled()).toBe(true);
  });

  it('fails before reading when Content-Length is over the cap', async () => {
    const { response } = streamed(['tiny'], { 'content-length': '999999' });
    expect(await code(readBody(response, 10))).toBe('RCP_RESPONSE_TOO_LARGE');
  });

  it('still counts when Content-Length claims less than is sent', async () => {
    const { response } = streamed(['0123456789', '0123456789'], { 'content-length': '3' });
    expect(await code(readBody(response, 15))).toBe('RCP_RESPONSE_TOO_LARGE');
  });

  it('ignores an unreadable Content-Length and counts', async () => {
    const { response } = streamed(['abc'], { 'content-length': 'lots' });
    expect((await readBody(response, 3)).byteLength).toBe(3);
  });

  it('reads a real response from a server', async () => {
    server = await startTestServer({ 'GET /t': (_r, res) => void res.end('x'.repeat(70_000)) });
    const response = await fetch(server.url('/t'));
    expect((await readBody(response, 70_000)).byteLength).toBe(70_000);
  });
});

describe('readBodyPrefix', () => {
  it('returns at most maxBytes bytes and cancels the rest', async () => {
    const { response, cancelled } = streamed(['abc', 'def', 'ghi']);
    expect(new TextDecoder().decode(await readBodyPrefix(response, 5))).toBe('abcde');
    expect(cancelled()).toBe(true);
    expect(await prefixComplete(streamed(['abc', 'def']).response, 5)).toBe(false);
  });

  it('returns a short body whole, and says it is complete', async () => {
    const { response } = streamed(['abc']);
    expect(new TextDecoder().decode(await readBodyPrefix(response, 100))).toBe('abc');
    expect(await prefixComplete(streamed(['abc']).response, 100)).toBe(true);
  });

  it('returns what was read when the stream fails, unless the signal is aborted', async () => {
    function failing(): Response {
      let sent = false;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent) controller.error(new Error('reset'));
          else controller.enqueue(new TextEncoder().encode('partial'));
          sent = true;
        },
      });
      return new Response(stream);
    }
    expect(new TextDecoder().decode(await readBodyPrefix(failing(), 100))).toBe('partial');
    expect(await prefixComplete(failing(), 100)).toBe(false); // cut by the failure: it may end in part of a secret
    await expect(readBodyPrefix(failing(), 100, AbortSignal.abort())).rejects.toThrow('reset');
  });
});
