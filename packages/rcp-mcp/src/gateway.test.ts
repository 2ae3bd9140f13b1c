import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { NOTES_TOKEN, startNotesApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { createRcpMcpHttpHandler, toolAnnotations } from './index';

const bin = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

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
    content: [{ type: 'text', text: JSON.stringify({ id: 'n-1', title: 'Groceries', text: 'eggs' }) }],
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
  expect(missing).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/^RCP_HTTP_ERROR: .*HTTP 404/) }] });
  // Resolver values came from the gateway's context, with the credential.
  expect(toolRequests()).toEqual(['GET /users/u-1/notes/n-1', 'GET /users/u-1/notes/n-9']);
  expect(notes.requests.at(-1)!.headers.authorization).toBe(`Bearer ${NOTES_TOKEN}`);
}

describe('stdio: the rcp-mcp bin as a host starts it', () => {
  const args = () => [bin, manifestUrl, '--ctx', 'userId=u-1', '--token-env', 'NOTES_TOKEN'];
  const env = () => ({ ...(process.env as Record<string, string>), NOTES_TOKEN });

  it('with the v1 SDK client (what most hosts ship)', async () => {
    const client = new ClientV1({ name: 'host-v1', version: '1.0.0' });
    await client.connect(new StdioTransportV1({ command: process.execPath, args: args(), env: env(), stderr: 'pipe' }));
    closers.push(() => client.close());
    await checkGateway(client as unknown as AnyClient);
  });

  it('with the v2 SDK client', async () => {
    const client = new ClientV2({ name: 'host-v2', version: '1.0.0' });
    await client.connect(new StdioTransportV2({ command: process.execPath, args: args(), env: env(), stderr: 'pipe' }));
    closers.push(() => client.close());
    await checkGateway(client as unknown as AnyClient);
  });
});

describe('streamable HTTP', () => {
  const SESSIONS = new Map([['Bearer session-ada', { userId: 'u-1' }]]);
  let gateway: Server;
  let url: URL;
  beforeEach(async () => {
    const client = createRcpClient({ resolvers: { userId: (ctx: { userId: string }) => ctx.userId }, credentials: () => NOTES_TOKEN });
    const handler = createRcpMcpHttpHandler({
      client,
      source: await client.discover(manifestUrl),
      authenticate: (request) => SESSIONS.get(request.headers.authorization ?? ''),
    });
    gateway = createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}/mcp`);
    closers.push(() => new Promise((resolve) => gateway.close(resolve)));
    notes.reset();
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
