/**
 * Streamed answers on the server side (docs/behaviour.md; SPEC §20.6): a tool declares `stream`, which
 * makes the served manifest RCP 0.4; its handler yields events that rcp-server writes as SSE or
 * NDJSON, one chunk per event; rcp-client collects them into one result, on every framework.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRcpClient, type RcpStreamProgress } from 'rcp-client';
import { isRcpError } from 'rcp-errors';
import { createRcpServer, defineTool, type RcpServer } from './index';
import { creationError, frameworks, type Running } from './test/fixture';

const EVENTS = 1_000;
const words = Array.from({ length: EVENTS }, (_, index) => `w${index} `);

/** A promise and its resolver: a handler waits on one the test resolves (no sleeps). */
function signal<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

interface Hooks {
  /** Resolved by the test once the client saw the first event: the handler yields the second only then. */
  second: Promise<void>;
  /** Resolved when the endless generator is returned (its `finally`). */
  endlessReturned: () => void;
  endlessYielded: number[];
}

function streamServer(hooks: Hooks): RcpServer {
  return createRcpServer({
    tools: [
      defineTool({
        name: 'chat',
        description: 'Streams an answer, one word per event.',
        method: 'POST',
        path: '/chat',
        stream: { format: 'sse', collect: 'concat', field: '@delta' },
        handler: async function* () {
          for (const word of words) yield { delta: word };
        },
      }),
      defineTool({
        name: 'export_rows',
        description: 'Exports rows as NDJSON.',
        method: 'GET',
        path: '/rows',
        stream: { format: 'ndjson', collect: 'array' },
        handler: () => [{ id: 1 }, 'two', 3, null, { text: 'line\nbreak' }],
      }),
      defineTool({
        name: 'lines',
        description: 'Streams text lines.',
        method: 'GET',
        path: '/lines',
        stream: { format: 'sse', collect: 'array' },
        handler: async function* () {
          yield 'first';
          await hooks.second;
          yield 'a\nmulti-line\r\nevent';
        },
      }),
      defineTool({
        name: 'tail',
        description: 'Tails a log that never ends.',
        method: 'GET',
        path: '/tail',
        stream: { format: 'ndjson', collect: 'last', maxEvents: 3 },
        handler: async function* () {
          try {
            for (let index = 1; ; index++) {
              hooks.endlessYielded.push(index);
              yield { index };
            }
          } finally {
            hooks.endlessReturned();
          }
        },
      }),
      defineTool({
        name: 'broken_sse',
        description: 'Fails mid-stream.',
        method: 'GET',
        path: '/broken-sse',
        stream: { format: 'sse', collect: 'array' },
        handler: async function* () {
          yield 'ok';
          throw new Error('database password is hunter2');
        },
      }),
      defineTool({
        name: 'broken_ndjson',
        description: 'Fails mid-stream.',
        method: 'GET',
        path: '/broken-ndjson',
        stream: { format: 'ndjson', collect: 'array' },
        handler: async function* () {
          yield 1;
          throw new Error('database password is hunter2');
        },
      }),
    ],
  });
}

describe('a tool that declares a stream', () => {
  it('is published in an RCP 0.4 manifest as declared', () => {
    const server = streamServer({ second: Promise.resolve(), endlessReturned: () => undefined, endlessYielded: [] });
    expect(server.manifest.rcpVersion).toBe('0.4');
    expect(server.manifest.tools[0]).toMatchObject({ name: 'chat', stream: { format: 'sse', collect: 'concat', field: '@delta' } });
    expect(server.manifest.tools[3]!.stream).toEqual({ format: 'ndjson', collect: 'last', maxEvents: 3 });
  });

  it("is checked by rcp-manifest's rules at creation (RCP_INVALID_MANIFEST at the stream's pointers)", () => {
    const bad = (stream: unknown) =>
      creationError(() =>
        createRcpServer({
          tools: [defineTool({ name: 'chat', description: 'Chats.', method: 'POST', path: '/chat', stream: stream as never, handler: () => [] })],
        }),
      );
    const wrongFormat = bad({ format: 'jsonl', collect: 'array' });
    expect(isRcpError(wrongFormat, 'RCP_INVALID_MANIFEST') && wrongFormat.issues.map((issue) => issue.path)).toEqual(['/tools/0/stream/format']);
    const plural = bad({ format: 'sse', collect: 'array', field: '@items[*].text' });
    expect(isRcpError(plural, 'RCP_INVALID_MANIFEST') && plural.issues.map((issue) => issue.path)).toEqual(['/tools/0/stream/field']);
  });

  it('with a lower rcpVersion is refused (RCP_INVALID_OPTIONS): a client would read the answer as one body', () => {
    const error = creationError(() =>
      createRcpServer({
        rcpVersion: '0.3',
        tools: [
          defineTool({ name: 'chat', description: 'Chats.', method: 'POST', path: '/chat', stream: { format: 'sse', collect: 'concat' }, handler: () => [] }),
        ],
      }),
    );
    expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
    expect((error as Error).message).toBe(
      `rcpVersion "0.3" has no streamed answers (RCP 0.4), so tool "chat"'s "stream" would not be published: leave "rcpVersion" out, or give "0.4"`,
    );
  });
});

describe.each(frameworks)('rcp-client against a streamed rcp-server tool on $name', (framework) => {
  let running: Running | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  async function start(hooks: Hooks) {
    running = await framework.start(streamServer(hooks));
    const client = createRcpClient({ retry: 0, allowPrivateNetwork: true });
    const discovery = await client.discover(`${running.origin}/rcp/manifest`);
    return { client, discovery };
  }
  const noHooks = (): Hooks => ({ second: Promise.resolve(), endlessReturned: () => undefined, endlessYielded: [] });

  it('1,000 SSE events from an async generator are collected into one result, each seen by onProgress', async () => {
    const { client, discovery } = await start(noHooks());
    const progress: RcpStreamProgress[] = [];
    const result = await client.execute(discovery.tool('chat'), {}, undefined, { onProgress: (seen) => progress.push(seen) });
    expect(result).toEqual({ status: 200, data: words.join(''), contentType: 'text/event-stream; charset=utf-8', events: EVENTS });
    expect(progress).toHaveLength(EVENTS);
  });

  it('NDJSON: each value one JSON line (a string too), collected as an array', async () => {
    const { client, discovery } = await start(noHooks());
    const result = await client.execute(discovery.tool('export_rows'), {});
    expect(result).toMatchObject({ data: [{ id: 1 }, 'two', 3, null, { text: 'line\nbreak' }], contentType: 'application/x-ndjson; charset=utf-8', events: 5 });
  });

  it('each event is written when yielded: the client reads the first before the handler yields the second; multi-line text is data lines', async () => {
    const second = signal();
    const { client, discovery } = await start({ ...noHooks(), second: second.promise });
    const result = await client.execute(discovery.tool('lines'), {}, undefined, {
      onProgress: ({ events }) => {
        // The handler is held at its second yield until the client has read the first event.
        if (events === 1) second.resolve();
      },
    });
    // Line ends inside an SSE event's text become LF (WHATWG: data lines are joined with LF).
    expect(result).toMatchObject({ data: ['first', 'a\nmulti-line\nevent'], events: 2 });
  });

  it('an endless generator: the client stops at maxEvents and closes; the server returns the generator', async () => {
    const returned = signal();
    const hooks: Hooks = { ...noHooks(), endlessReturned: () => returned.resolve() };
    const { client, discovery } = await start(hooks);
    const result = await client.execute(discovery.tool('tail'), {});
    expect(result).toMatchObject({ data: { index: 3 }, events: 3, truncated: true });
    await returned.promise; // the generator's finally ran: nothing goes on producing for nobody
    // One pull ahead at most per buffer: the generator did not run on unbounded.
    expect(hooks.endlessYielded.length).toBeLessThan(1_000);
  });

  it('a handler that throws mid-stream: SSE ends with an error event (stream-error, the message not sent), NDJSON is cut (no partial result)', async () => {
    const { client, discovery } = await start(noHooks());
    const sse = await client.call(discovery, { name: 'broken_sse', arguments: {} });
    expect(sse.ok).toBe(false);
    expect(!sse.ok && sse.error).toMatchObject({ code: 'RCP_INVALID_RESPONSE', problem: 'stream-error', event: 2 });
    expect(JSON.stringify(sse)).not.toContain('hunter2');
    const ndjson = await client.call(discovery, { name: 'broken_ndjson', arguments: {} });
    expect(ndjson.ok).toBe(false);
    expect(JSON.stringify(ndjson)).not.toContain('hunter2');
  });
});
