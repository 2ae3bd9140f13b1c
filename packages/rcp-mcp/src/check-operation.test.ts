/**
 * Long-running operations through the gateway (docs/behaviour.md, the gateway; SPEC §20.8): the v1
 * and v2 MCP SDK clients call a tool whose API answers 202 and a job that outlives the call — the
 * result is pending, with a sentence naming check_operation and the handle; check_operation with
 * the handle answers the job's result; the same handle from another host session (another
 * authenticated context) is RCP_INVALID_HANDLE's sentence with nothing sent. check_operation is
 * served only beside a long-running tool, in static and dynamic mode, and never over a tool of the
 * API that has the name.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { sendJson, serveManifest, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpMcpHttpHandler } from './index';

type Ctx = { user: string };
type Content = { type: string; text?: string };
type ToolResult = { content: Content[]; isError?: boolean };
type Host = {
  listTools(): Promise<{ tools: { name: string; annotations?: Record<string, unknown> }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
};

const TOKENS: Record<string, string> = { ada: 'tok-ada-31337', bob: 'tok-bob-4242' };
const SECRET = 'the gateway operation secret, 32 bytes or more';

let api: TestServer;
const closers: (() => Promise<unknown>)[] = [];
beforeEach(async () => {
  api = await startTestServer();
  closers.push(() => api.close());
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A render tool that answers 202 with a Location; the job is running until `done()`, then succeeded. */
function serveJobApi(extraTools: readonly Record<string, unknown>[] = []) {
  let finished = false;
  api.route('POST /renders', (_request, res) => sendJson(res, 202, { id: 'j-1', status: 'queued' }, { location: '/jobs/j-1' }));
  api.route('GET /jobs/j-1', (_request, res) =>
    finished ? sendJson(res, 200, { status: 'succeeded', output: { url: '/v/1.mp4' } }) : sendJson(res, 200, { status: 'running' }, { 'retry-after': '30' }),
  );
  const manifestUrl = serveManifest(api, {
    rcpVersion: '0.4',
    auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
    tools: [
      {
        name: 'render',
        description: 'Renders a video.',
        method: 'POST',
        url: '/renders',
        params: [{ name: 'prompt', required: true }],
        body: { prompt: '{{prompt}}' },
        // Retry-After 30 on a 5 s deadline: the client does not wait for it, the call ends pending at once.
        operation: { statusUrl: 'header:Location', state: '@status', done: ['succeeded'], failed: ['failed'], result: '@output', pollSeconds: 0 },
      },
      ...extraTools,
    ],
  });
  return { manifestUrl, done: () => (finished = true) };
}

/** The gateway on 127.0.0.1: each request's context is the user its `x-user` header names. */
async function startGateway(manifestUrl: string, dynamic = false): Promise<URL> {
  const client = createRcpClient<Ctx>({ retry: 0, timeout: 5_000, approvalSecret: SECRET, credentials: ({ ctx }) => TOKENS[ctx.user] });
  const authenticate = (request: IncomingMessage): Ctx | undefined => {
    const user = request.headers['x-user'];
    return typeof user === 'string' && user in TOKENS ? { user } : undefined;
  };
  const handler = createRcpMcpHttpHandler({ client, source: await client.discover(manifestUrl), authenticate, dynamic });
  const gateway: Server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => gateway.close(resolve)));
  api.reset();
  return new URL(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}/mcp`);
}

const hosts = {
  'the v1 SDK client (2025 era)': async (url: URL, user: string): Promise<Host> => {
    const host = new ClientV1({ name: 'host-v1', version: '1.0.0' });
    await host.connect(new HttpTransportV1(url, { requestInit: { headers: { 'x-user': user } } }));
    closers.push(() => host.close());
    return host as unknown as Host;
  },
  'the v2 SDK client (2026-07-28 era)': async (url: URL, user: string): Promise<Host> => {
    const host = new ClientV2({ name: 'host-v2', version: '1.0.0' });
    await host.connect(new HttpTransportV2(url, { requestInit: { headers: { 'x-user': user } } }));
    closers.push(() => host.close());
    return host as unknown as Host;
  },
};

const texts = (result: ToolResult) => result.content.map((content) => content.text);
const calls = () => api.requests.map((request) => `${request.method} ${request.path} ${request.headers.authorization}`);

describe.each(Object.entries(hosts))('a long-running tool through the gateway, with %s', (_name, connect) => {
  it('a job that outlives the call is pending with a sentence naming check_operation; check_operation with the handle answers the result', async () => {
    const { manifestUrl, done } = serveJobApi();
    const url = await startGateway(manifestUrl);
    const ada = await connect(url, 'ada');
    const { tools } = await ada.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['render', 'check_operation']);
    expect(tools[1]!.annotations).toEqual({ readOnlyHint: true, openWorldHint: true });

    const first = (await ada.callTool({ name: 'render', arguments: { prompt: 'a lighthouse' } })) as ToolResult;
    expect(first.isError).not.toBe(true);
    const [text, hint] = texts(first);
    const model = JSON.parse(text!) as { ok: true; data: unknown; pending: { handle: string; checkAfterSeconds: number } };
    expect(model).toMatchObject({ ok: true, data: { status: 'running' }, pending: { checkAfterSeconds: 30 } });
    const { handle } = model.pending;
    expect(handle).toMatch(/^rcp1\.[\w-]+$/);
    expect(hint).toBe(`The work is still running. Call check_operation with {"handle":"${handle}"} after 30 seconds to get its result.`);
    expect(calls()).toEqual(['POST /renders Bearer tok-ada-31337', 'GET /jobs/j-1 Bearer tok-ada-31337']);

    // Checked again while it runs: pending again, with a new handle.
    const again = (await ada.callTool({ name: 'check_operation', arguments: { handle } })) as ToolResult;
    const still = JSON.parse(texts(again)[0]!) as { pending: { handle: string } };
    expect(still.pending.handle).not.toBe(handle);
    expect(texts(again)[1]).toContain(`{"handle":"${still.pending.handle}"}`);

    done();
    const checked = (await ada.callTool({ name: 'check_operation', arguments: { handle: still.pending.handle } })) as ToolResult;
    expect(checked.isError).not.toBe(true);
    expect(texts(checked)).toEqual([JSON.stringify({ ok: true, data: { url: '/v/1.mp4' } })]);
    expect(calls()).toEqual([
      'POST /renders Bearer tok-ada-31337',
      'GET /jobs/j-1 Bearer tok-ada-31337',
      'GET /jobs/j-1 Bearer tok-ada-31337',
      'GET /jobs/j-1 Bearer tok-ada-31337',
    ]);
  });

  it("another host session's context checking the handle reads RCP_INVALID_HANDLE's sentence; nothing is sent", async () => {
    const { manifestUrl, done } = serveJobApi();
    const url = await startGateway(manifestUrl);
    const ada = await connect(url, 'ada');
    const first = (await ada.callTool({ name: 'render', arguments: { prompt: 'x' } })) as ToolResult;
    const { handle } = (JSON.parse(texts(first)[0]!) as { pending: { handle: string } }).pending;
    done();
    api.reset();

    const bob = await connect(url, 'bob');
    const refused = (await bob.callTool({ name: 'check_operation', arguments: { handle } })) as ToolResult;
    expect(refused.isError).toBe(true);
    expect(JSON.parse(texts(refused)[0]!)).toEqual({
      ok: false,
      error: { code: 'RCP_INVALID_HANDLE', message: 'The operation handle cannot be checked here: it expired, was altered, or belongs to another user.' },
    });
    const missing = (await bob.callTool({ name: 'check_operation', arguments: { handle: '' } })) as ToolResult;
    expect(missing.isError).toBe(true);
    expect(api.requests).toEqual([]);
  });
});

describe('when check_operation is served', () => {
  it('in dynamic mode it is listed after the meta-tools and checks the handle a call through call_tool left', async () => {
    const { manifestUrl, done } = serveJobApi();
    const host = await hosts['the v2 SDK client (2026-07-28 era)'](await startGateway(manifestUrl, true), 'ada');
    expect((await host.listTools()).tools.map((tool) => tool.name)).toEqual(['search_tools', 'describe_tool', 'call_tool', 'check_operation']);
    const first = (await host.callTool({ name: 'call_tool', arguments: { name: 'render', arguments: { prompt: 'x' } } })) as ToolResult;
    const { handle } = (JSON.parse(texts(first)[0]!) as { pending: { handle: string } }).pending;
    expect(texts(first)[1]).toContain('Call check_operation with');
    done();
    const checked = (await host.callTool({ name: 'check_operation', arguments: { handle } })) as ToolResult;
    expect(JSON.parse(texts(checked)[0]!)).toEqual({ ok: true, data: { url: '/v/1.mp4' } });
  });

  it('not without a long-running tool, and not over a tool of the API with its name (that tool is called)', async () => {
    api.route('GET /check', (_request, res) => sendJson(res, 200, { mine: true }));
    const plain = serveManifest(api, { rcpVersion: '0.4', tools: [{ name: 'list_notes', description: 'Lists notes.', method: 'GET', url: '/notes' }] });
    const v1 = hosts['the v1 SDK client (2025 era)'];
    expect((await (await v1(await startGateway(plain), 'ada')).listTools()).tools.map((tool) => tool.name)).toEqual(['list_notes']);

    const { manifestUrl } = serveJobApi([
      {
        name: 'check_operation',
        description: 'The API’s own check.',
        method: 'GET',
        url: '/check',
        params: [{ name: 'handle' }],
        queryParams: { handle: '{{handle}}' },
      },
    ]);
    const host = await v1(await startGateway(manifestUrl), 'ada');
    expect((await host.listTools()).tools.map((tool) => tool.name)).toEqual(['render', 'check_operation']);
    const own = (await host.callTool({ name: 'check_operation', arguments: { handle: 'h' } })) as ToolResult;
    expect(JSON.parse(texts(own)[0]!)).toEqual({ ok: true, data: { mine: true } });
    const first = (await host.callTool({ name: 'render', arguments: { prompt: 'x' } })) as ToolResult;
    expect(texts(first)).toHaveLength(1); // pending, and no sentence pointing at a tool that is not the check
  });
});
