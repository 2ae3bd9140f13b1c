/**
 * A streamed answer's progress through the gateway (docs/behaviour.md, the gateway; SPEC §20.6): the v1
 * and v2 MCP SDK clients call a tool whose API answers 1,000 SSE events from a node:http server on
 * 127.0.0.1; with `onprogress` the host hears `notifications/progress` — the first event, throttled
 * counts, the last count — all before the result; without it nothing but the result. The result
 * is the collected value either way.
 */
import type { ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { serveManifest, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpMcpHttpHandler } from './index';
import { PROGRESS_INTERVAL_MS } from './stream-progress';

const EVENTS = 1_000;
const words = Array.from({ length: EVENTS }, (_, index) => `w${index} `);

type Progress = { progress: number; total?: number; message?: string };
type Message = { method?: string; id?: unknown; params?: Record<string, unknown> };
type Transport = { onmessage?: (message: Message, extra?: unknown) => void };
type CallOptions = { onprogress?: (progress: Progress) => void };
/** One calling convention for both SDKs: v1 takes the options third (after a result schema), v2 second. */
type Host = {
  callTool(params: { name: string; arguments?: Record<string, unknown> }, options?: CallOptions): Promise<unknown>;
  close(): Promise<void>;
};

let api: TestServer;
const closers: (() => Promise<unknown>)[] = [];
beforeEach(async () => {
  api = await startTestServer();
  closers.push(() => api.close());
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** Writes `chunks` one per turn of the event loop, so the gateway's client reads them as they come. */
function writeOverTime(res: ServerResponse, chunks: readonly string[]): void {
  let index = 0;
  const next = (): void => {
    if (res.destroyed) return;
    if (index === chunks.length) {
      res.end();
      return;
    }
    res.write(chunks[index]!);
    index += 1;
    setImmediate(next);
  };
  next();
}

/** The API: a 0.4 manifest with one streamed tool, and its answer — 1,000 SSE events, then [DONE]. */
function serveStreamApi(maxEvents?: number): string {
  api.route('POST /chat', (_request, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const text = `${words.map((word) => `data: ${JSON.stringify({ delta: word })}\n\n`).join('')}data: [DONE]\n\n`;
    writeOverTime(res, text.match(/[\s\S]{1,2000}/g)!);
  });
  return serveManifest(api, {
    rcpVersion: '0.4',
    tools: [
      {
        name: 'chat',
        description: 'Streams an answer.',
        method: 'POST',
        url: '/chat',
        stream: { format: 'sse', collect: 'concat', field: '@delta', ...(maxEvents !== undefined && { maxEvents }) },
      },
    ],
  });
}

async function startGateway(maxEvents?: number): Promise<URL> {
  const client = createRcpClient({ retry: 0 });
  const handler = createRcpMcpHttpHandler({ client, source: await client.discover(serveStreamApi(maxEvents)), authenticate: () => ({}) });
  const gateway: Server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => gateway.close(resolve)));
  api.reset();
  return new URL(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}/mcp`);
}

/** Every message the host's transport receives, in order (the SDK's own handler still runs). */
function recordMessages(transport: Transport): Message[] {
  const seen: Message[] = [];
  const handle = transport.onmessage!;
  transport.onmessage = (message, extra) => {
    seen.push(message);
    handle(message, extra);
  };
  return seen;
}

const hosts = {
  'the v1 SDK client (2025 era)': async (url: URL) => {
    const host = new ClientV1({ name: 'host-v1', version: '1.0.0' });
    const transport = new HttpTransportV1(url);
    await host.connect(transport);
    const callTool: Host['callTool'] = (params, options) => host.callTool(params, undefined, options);
    return { host: { callTool, close: () => host.close() }, messages: recordMessages(transport as unknown as Transport) };
  },
  'the v2 SDK client (2026-07-28 era)': async (url: URL) => {
    const host = new ClientV2({ name: 'host-v2', version: '1.0.0' });
    const transport = new HttpTransportV2(url);
    await host.connect(transport);
    return { host: host as unknown as Host, messages: recordMessages(transport as unknown as Transport) };
  },
};

describe.each(Object.entries(hosts))('a streamed tool through the gateway, with %s', (_name, connect) => {
  it('with onprogress: the first event at once, throttled counts, the last count, all before the result; the result is the collected value', async () => {
    const { host, messages } = await connect(await startGateway());
    closers.push(() => host.close());
    const seen: Progress[] = [];
    let resolved = false;
    const started = performance.now();
    const result = (await host.callTool(
      { name: 'chat', arguments: {} },
      {
        onprogress: (progress) => {
          expect(resolved).toBe(false); // never after the result
          seen.push(progress);
        },
      },
    )) as { content: { type: string; text: string }[]; isError?: boolean };
    resolved = true;
    const elapsed = performance.now() - started;

    expect(result.isError).not.toBe(true);
    expect(JSON.parse(result.content[0]!.text)).toEqual({ ok: true, data: words.join('') });
    expect(seen[0]).toEqual({ progress: 1, message: expect.stringMatching(/^1 event of the tool's stream read \(\d+ bytes\)$/) });
    expect(seen.at(-1)).toMatchObject({ progress: EVENTS, message: expect.stringMatching(/^1000 events of the tool's stream read \(\d+ bytes\)$/) });
    expect(seen.every((progress) => progress.total === undefined)).toBe(true); // the tool declares no maxEvents
    expect(seen.every((progress, index) => index === 0 || progress.progress > seen[index - 1]!.progress)).toBe(true);
    // Throttled: the first, then at most one per interval, then the last.
    expect(seen.length).toBeLessThanOrEqual(2 + Math.ceil(elapsed / PROGRESS_INTERVAL_MS));
    // On the wire: every notification for this call precedes its result.
    const resultAt = messages.findLastIndex((message) => 'result' in message);
    const notifications = messages.flatMap((message, index) => (message.method === 'notifications/progress' ? [index] : []));
    expect(notifications).toHaveLength(seen.length);
    expect(notifications.every((index) => index < resultAt)).toBe(true);
    expect(api.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /chat']);
    expect(api.requests[0]!.headers.accept).toBe('text/event-stream');
  });

  it("a tool that declares maxEvents: each notification's total is it (the stream may end before it)", async () => {
    const { host } = await connect(await startGateway(5_000));
    closers.push(() => host.close());
    const seen: Progress[] = [];
    const result = (await host.callTool({ name: 'chat', arguments: {} }, { onprogress: (progress) => seen.push(progress) })) as {
      content: { text: string }[];
    };
    expect(JSON.parse(result.content[0]!.text)).toEqual({ ok: true, data: words.join('') });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((progress) => progress.total === 5_000)).toBe(true);
    expect(seen.at(-1)!.progress).toBe(EVENTS);
  });

  it('without onprogress (no progress token): no notification, the same result', async () => {
    const { host, messages } = await connect(await startGateway());
    closers.push(() => host.close());
    const result = (await host.callTool({ name: 'chat', arguments: {} })) as { content: { type: string; text: string }[] };
    expect(JSON.parse(result.content[0]!.text)).toEqual({ ok: true, data: words.join('') });
    expect(messages.filter((message) => message.method === 'notifications/progress')).toEqual([]);
    expect(api.requests).toHaveLength(1);
  });
});
