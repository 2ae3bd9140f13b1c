import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { StdioServerTransport as StreamTransportV2 } from '@modelcontextprotocol/server/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioServerTransport as StreamTransportV1 } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { NOTES_TOKEN, startNotesApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import type { RcpMcpHttpOptions } from './index';
import { createRcpMcpHttpHandler, serveRcpMcpStdio, toolAnnotations } from './index';

let notes: TestServer;
let manifestUrl: string;
const closers: (() => Promise<unknown>)[] = [];
beforeEach(async () => {
  ({ server: notes, manifestUrl } = await startNotesApi());
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await notes.close();
});

const toolRequests = () => toolRequestLines(notes);

/**
 * A note the notes server never answers: `arrived` when the gateway's request reaches it,
 * `closed` (with whether an answer was written: never) when that request's socket closes.
 */
function holdSlowNote(): { arrived: Promise<void>; closed: Promise<boolean> } {
  let arrive!: () => void;
  let close!: (answered: boolean) => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const closed = new Promise<boolean>((resolve) => (close = resolve));
  notes.route('GET /users/u-1/notes/slow', (_request, res) => {
    res.on('close', () => close(res.writableEnded));
    arrive(); // and hold the response until the test ends
  });
  return { arrived, closed };
}
type AnyClient = {
  listTools(): Promise<{ tools: { name: string; description?: string; inputSchema: unknown; annotations?: unknown }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
};

/** What every client must see and get, whatever the transport or SDK version. */
async function checkGateway(client: AnyClient): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(['list_notes', 'get_note', 'create_note', 'delete_note']);
  expect(JSON.stringify(tools)).not.toContain('userId');
  expect(tools[1]).toMatchObject({
    inputSchema: { type: 'object', properties: { noteId: { type: 'string' } }, required: ['noteId'] },
    annotations: { readOnlyHint: true, openWorldHint: true },
  });
  expect(tools[3]!.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });

  const ok = (await client.callTool({ name: 'get_note', arguments: { noteId: 'n-1' } })) as Record<string, unknown>;
  expect(ok).toMatchObject({
    content: [{ type: 'text', text: JSON.stringify({ ok: true, data: { id: 'n-1', title: 'Groceries', text: 'eggs' } }) }],
    structuredContent: { id: 'n-1', title: 'Groceries', text: 'eggs' },
  });
  expect(ok.isError).not.toBe(true);
  const before = notes.count;
  const spoof = (await client.callTool({ name: 'get_note', arguments: { noteId: 'n-1', userId: 'u-7' } })) as Record<string, unknown>;
  expect(spoof.isError).toBe(true);
  expect(JSON.stringify(spoof)).not.toContain('u-1');
  expect(JSON.stringify(spoof)).not.toContain('userId'); // a resolver-bound param is named in no error text
  expect(notes.count).toBe(before); // nothing sent
  const missing = (await client.callTool({ name: 'get_note', arguments: { noteId: 'n-9' } })) as Record<string, unknown>;
  expect(missing).toMatchObject({
    isError: true,
    content: [{ type: 'text', text: expect.stringMatching(/^\{"ok":false,"error":\{"code":"RCP_HTTP_ERROR","message":"[^"]*HTTP 404/) }],
  });
  // Resolver values came from the gateway's context, with the credential.
  expect(toolRequests()).toEqual(['GET /users/u-1/notes/n-1', 'GET /users/u-1/notes/n-9']);
  expect(notes.requests.at(-1)!.headers.authorization).toBe(`Bearer ${NOTES_TOKEN}`);
}

describe('stdio: serveRcpMcpStdio on a pair of streams, as a host speaks to it', () => {
  /**
   * The gateway served on streams (its stdin and stdout), the host's SDK transport over the
   * same streams: the MCP stdio framing without a process (the `rcp-mcp` bin's own spawn is
   * rcp-cli's). Closed after the test.
   */
  async function stdioGateway(): Promise<{ hostIn: PassThrough; hostOut: PassThrough }> {
    const client = createRcpClient({ resolvers: { userId: (ctx: { userId: string }) => ctx.userId }, credentials: () => NOTES_TOKEN });
    const hostIn = new PassThrough();
    const hostOut = new PassThrough();
    const served = serveRcpMcpStdio({ client, source: await client.discover(manifestUrl) }, { userId: 'u-1' }, { stdin: hostOut, stdout: hostIn });
    closers.push(() => served.close());
    return { hostIn, hostOut };
  }

  it('with the v1 SDK client (what most hosts ship)', async () => {
    const { hostIn, hostOut } = await stdioGateway();
    const client = new ClientV1({ name: 'host-v1', version: '1.0.0' });
    await client.connect(new StreamTransportV1(hostIn, hostOut));
    closers.push(() => client.close());
    await checkGateway(client as unknown as AnyClient);
  });

  it('with the v2 SDK client', async () => {
    const { hostIn, hostOut } = await stdioGateway();
    const client = new ClientV2({ name: 'host-v2', version: '1.0.0' });
    await client.connect(new StreamTransportV2(hostIn, hostOut));
    closers.push(() => client.close());
    await checkGateway(client as unknown as AnyClient);
  });

  it('a cancelled call (notifications/cancelled) aborts its HTTP request to the tool', async () => {
    const slow = holdSlowNote();
    const { hostIn, hostOut } = await stdioGateway();
    const client = new ClientV1({ name: 'host-v1', version: '1.0.0' });
    await client.connect(new StreamTransportV1(hostIn, hostOut));
    closers.push(() => client.close());
    const controller = new AbortController();
    const call = client.callTool({ name: 'get_note', arguments: { noteId: 'slow' } }, undefined, { signal: controller.signal });
    call.catch(() => undefined);
    await slow.arrived;
    controller.abort();
    expect(await slow.closed).toBe(false); // the socket closed, and the server never answered
    await expect(call).rejects.toThrow();
  });
});

describe('streamable HTTP', () => {
  const SESSIONS = new Map([['Bearer session-ada', { userId: 'u-1' }]]);
  let url: URL;
  /** A gateway on 127.0.0.1 (the notes server's log starts empty). */
  async function startGateway(extra: Partial<RcpMcpHttpOptions> = {}): Promise<URL> {
    const client = createRcpClient({ resolvers: { userId: (ctx: { userId: string }) => ctx.userId }, credentials: () => NOTES_TOKEN });
    const handler = createRcpMcpHttpHandler({
      client,
      source: await client.discover(manifestUrl),
      authenticate: (request) => SESSIONS.get(request.headers.authorization ?? ''),
      ...extra,
    });
    const gateway: Server = createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => gateway.close(resolve)));
    notes.reset();
    return new URL(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}/mcp`);
  }
  beforeEach(async () => {
    url = await startGateway();
  });

  const auth = { requestInit: { headers: { authorization: 'Bearer session-ada' } } };

  it('with the v1 SDK client: context from the verified request', async () => {
    const client = new ClientV1({ name: 'host-v1', version: '1.0.0' });
    await client.connect(new HttpTransportV1(url, auth));
    closers.push(() => client.close());
    await checkGateway(client as unknown as AnyClient);
  });

  it('with the v2 SDK client', async () => {
    const client = new ClientV2({ name: 'host-v2', version: '1.0.0' });
    await client.connect(new HttpTransportV2(url, auth));
    closers.push(() => client.close());
    await checkGateway(client as unknown as AnyClient);
  });

  /** A raw request with node:http (fetch would not let a test forge Host). */
  function raw(headers: Record<string, string>): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_notes', arguments: {} } });
      const req = httpRequest(
        url,
        { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
        (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  it('an unauthenticated request is 401 and no tool runs', async () => {
    expect((await raw({})).status).toBe(401);
    expect((await raw({ authorization: 'Bearer stolen' })).status).toBe(401);
    expect(notes.count).toBe(0);
  });

  /** A browser-style request: a real fetch with the Origin header a page of that origin carries. */
  const fromPage = (target: URL, origin: string) =>
    fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer session-ada', origin },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_notes', arguments: {} } }),
    });

  it('a cross-origin request is refused with 403 before the SDK or any tool sees it, even with a valid session', async () => {
    for (const origin of ['http://evil.example', `http://evil.example:${url.port}`, 'null', 'not a url']) {
      const response = await fromPage(url, origin);
      expect([origin, response.status]).toEqual([origin, 403]);
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    }
    expect(notes.count).toBe(0);
  });

  it('a same-origin client works, with the v1 SDK client', async () => {
    const client = new ClientV1({ name: 'host-v1', version: '1.0.0' });
    await client.connect(new HttpTransportV1(url, { requestInit: { headers: { authorization: 'Bearer session-ada', origin: url.origin } } }));
    closers.push(() => client.close());
    await checkGateway(client as unknown as AnyClient);
  });

  it('allowedOrigins lists the other sites a browser may call from; the rest stay refused', async () => {
    const listed = await startGateway({ allowedOrigins: ['app.example'] });
    const response = await fromPage(listed, 'https://app.example');
    expect(response.status).toBe(200);
    await response.text();
    expect(toolRequests()).toEqual(['GET /users/u-1/notes']);
    expect((await fromPage(listed, `http://127.0.0.1:${listed.port}`)).status).toBe(403); // the list replaces the default
  });

  it('a cancelled call aborts its HTTP request to the tool (2026-07-28 era: the client closes the request stream)', async () => {
    const slow = holdSlowNote();
    // A stateless 2025-era gateway cannot route a later notifications/cancelled POST to the call it
    // names (docs/behaviour.md); on the 2026 era the request's own stream closing is the cancellation.
    const client = new ClientV2({ name: 'host-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new HttpTransportV2(url, auth));
    closers.push(() => client.close());
    const controller = new AbortController();
    const call = client.callTool({ name: 'get_note', arguments: { noteId: 'slow' } }, { signal: controller.signal });
    call.catch(() => undefined);
    await slow.arrived;
    controller.abort();
    expect(await slow.closed).toBe(false); // the socket closed, and the server never answered
    await expect(call).rejects.toThrow();
  });

  it('a forged Host is refused (DNS-rebinding protection), even with a valid session', async () => {
    const response = await raw({ host: 'evil.example', authorization: 'Bearer session-ada' });
    expect(response.status).toBe(403);
    expect(notes.count).toBe(0);
  });
});

it('annotations follow the method', () => {
  expect(toolAnnotations('GET')).toEqual({ openWorldHint: true, readOnlyHint: true });
  expect(toolAnnotations('POST')).toEqual({ openWorldHint: true });
  expect(toolAnnotations('PUT')).toEqual({ openWorldHint: true, idempotentHint: true });
  expect(toolAnnotations('DELETE')).toEqual({ openWorldHint: true, destructiveHint: true, idempotentHint: true });
});
