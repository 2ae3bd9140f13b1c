/**
 * The gateway's dynamic mode (docs/behaviour.md, the gateway): real MCP clients against a gateway that
 * lists search_tools, describe_tool and call_tool over a 45-tool manifest (the notes API and
 * reports) on 127.0.0.1, asserting what the API received — a found tool's call exactly, a spoof
 * or an unknown name nothing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient, type RcpClientOptions } from 'rcp-client';
import { NOTES_TOKEN, notesManifest, serveManifest, startNotesApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { HOST_TOOL_LIMIT, createRcpMcpGateway, createRcpMcpHttpHandler, type RcpMcpGatewayOptions } from './index';

/** The notes tools and 41 report tools: past the host limit the gateway warns about. */
const bigManifest = {
  ...notesManifest,
  tools: [
    ...notesManifest.tools,
    ...Array.from({ length: 41 }, (_, index) => ({
      name: `get_report_${index + 1}`,
      description: `Gets sales report number ${index + 1} of the quarter.`,
      method: 'GET',
      url: `/reports/${index + 1}`,
    })),
  ],
};

let notes: TestServer;
let manifestUrl: string;
const closers: (() => Promise<unknown>)[] = [];
beforeEach(async () => {
  ({ server: notes } = await startNotesApi());
  manifestUrl = serveManifest(notes, bigManifest, '/big/manifest');
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await notes.close();
});

type ToolResult = { content: { type: string; text: string }[]; isError?: boolean; structuredContent?: unknown };
type Host = {
  listTools(): Promise<{ tools: { name: string; description?: string; inputSchema: unknown; annotations?: unknown }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  getInstructions(): string | undefined;
  close(): Promise<void>;
};

const clientOptions: RcpClientOptions = { resolvers: { userId: (ctx: { userId: string }) => ctx.userId }, credentials: () => NOTES_TOKEN };

/** A dynamic gateway over HTTP on 127.0.0.1 for user u-1 (the API's log starts empty). */
async function startGateway(extra: Partial<RcpMcpGatewayOptions> = {}, options: RcpClientOptions = clientOptions): Promise<URL> {
  const client = createRcpClient(options);
  const handler = createRcpMcpHttpHandler({
    client,
    source: await client.discover(manifestUrl),
    dynamic: true,
    authenticate: () => ({ userId: 'u-1' }),
    ...extra,
  });
  const gateway: Server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => gateway.close(resolve)));
  notes.reset();
  return new URL(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}/mcp`);
}

const hosts = {
  'the v1 SDK client': async (url: URL): Promise<Host> => {
    const host = new ClientV1({ name: 'host-v1', version: '1.0.0' });
    await host.connect(new HttpTransportV1(url));
    closers.push(() => host.close());
    return host as unknown as Host;
  },
  'the v2 SDK client': async (url: URL): Promise<Host> => {
    const host = new ClientV2({ name: 'host-v2', version: '1.0.0' });
    await host.connect(new HttpTransportV2(url));
    closers.push(() => host.close());
    return host as unknown as Host;
  },
};

const call = async (host: Host, name: string, args: Record<string, unknown>) => (await host.callTool({ name, arguments: args })) as ToolResult;
/** What the model reads: toModelText's JSON, as for every tool of the gateway. */
const read = (result: ToolResult) => JSON.parse(result.content[0]!.text) as { ok: boolean; data?: any; error?: { code: string; message: string } };

/** The host's model, scripted: search, describe, call — using only what each answer says. */
async function checkDynamic(host: Host): Promise<void> {
  const { tools } = await host.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(['search_tools', 'describe_tool', 'call_tool']);
  expect(tools[0]!.description).toContain('among 45 available tools');
  expect(tools[0]!.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
  expect(tools[2]!.inputSchema).toMatchObject({ type: 'object', properties: { name: { type: 'string' }, arguments: { type: 'object' } }, required: ['name'] });

  const found = read(await call(host, 'search_tools', { query: 'read one of my notes', limit: 3 }));
  expect(found.ok).toBe(true);
  const names = (found.data.tools as { name: string }[]).map((tool) => tool.name);
  expect(names[0]).toBe('get_note');
  // Compact (issue 41): name, one line, param names; the schema is describe_tool's.
  expect(found.data.tools[0]).toEqual({ name: 'get_note', description: 'Gets one note.', params: ['noteId (required)'] });
  expect(tools[0]!.description).toContain("Read a tool's input schema with describe_tool before calling it with call_tool.");
  expect(JSON.stringify(found)).not.toContain('userId'); // a resolver-bound param is in no schema, searched or shown

  const described = read(await call(host, 'describe_tool', { name: names[0] }));
  expect(described).toEqual({
    ok: true,
    data: {
      name: 'get_note',
      description: 'Gets one note.',
      inputSchema: {
        type: 'object',
        properties: { noteId: { type: 'string', description: 'A note id from list_notes' } },
        required: ['noteId'],
        additionalProperties: false,
      },
      annotations: { openWorldHint: true, readOnlyHint: true },
    },
  });

  const result = await call(host, 'call_tool', { name: described.data.name, arguments: { noteId: 'n-1' } });
  // The tool's own result, as a listed tool's would be.
  expect(result).toEqual({
    content: [{ type: 'text', text: JSON.stringify({ ok: true, data: { id: 'n-1', title: 'Groceries', text: 'eggs' } }) }],
    structuredContent: { id: 'n-1', title: 'Groceries', text: 'eggs' },
  });
  // Exactly that call reached the API: the resolver's value from the gateway's context, the credential.
  expect(toolRequestLines(notes)).toEqual(['GET /users/u-1/notes/n-1']);
  expect(notes.requests.at(-1)!.headers.authorization).toBe(`Bearer ${NOTES_TOKEN}`);
}

describe.each(Object.entries(hosts))('dynamic mode with %s', (_name, connect) => {
  it('lists three tools; a tool found by search_tools and described is called through call_tool, and the API receives exactly that call', async () => {
    await checkDynamic(await connect(await startGateway()));
  });

  it('a spoofed resolver-bound argument through call_tool is refused, nothing sent', async () => {
    const host = await connect(await startGateway());
    const spoof = await call(host, 'call_tool', { name: 'get_note', arguments: { noteId: 'n-1', userId: 'u-7' } });
    expect(spoof.isError).toBe(true);
    expect(read(spoof).error!.code).toBe('RCP_INVALID_ARGUMENTS');
    expect(JSON.stringify(spoof)).not.toContain('u-1'); // the gateway's value is never shown
    expect(toolRequestLines(notes)).toEqual([]);
  });

  it('an unknown name is RCP_UNKNOWN_TOOL for describe_tool and call_tool: a pointer to search_tools and a few close names, not the list of names; nothing sent', async () => {
    const host = await connect(await startGateway());
    for (const name of ['describe_tool', 'call_tool']) {
      const unknown = await call(host, name, { name: 'get_nots' });
      expect(unknown.isError).toBe(true);
      const { error } = read(unknown);
      expect(error).toEqual({
        code: 'RCP_UNKNOWN_TOOL',
        message: expect.stringMatching(
          /^Unknown tool "get_nots"\. Find the tool for the task with search_tools \(describe the task in plain words\)\. Close names: get_note(, [\w-]+){0,2}\.$/,
        ),
      });
      // Not the first 20 of 45 names (issue 41: 20 of Stripe's 447).
      expect(error!.message).not.toContain('Available tools');
    }
    const nothingClose = read(await call(host, 'call_tool', { name: 'zzqx' }));
    expect(nothingClose.error!.message).toBe('Unknown tool "zzqx". Find the tool for the task with search_tools (describe the task in plain words).');
    // call_tool's own arguments are checked by its schema, like any tool's (the SDK's error).
    const bad = await call(host, 'call_tool', { arguments: {} });
    expect(bad.isError).toBe(true);
    expect(toolRequestLines(notes)).toEqual([]);
  });
});

describe('found tools keep every rule of the tool set', () => {
  it('a stage: a tool outside `only` is not found and is refused through call_tool, nothing sent', async () => {
    const host = await hosts['the v1 SDK client'](await startGateway({ only: ['list_notes', 'get_note'] }));
    const found = read(await call(host, 'search_tools', { query: 'delete a note' }));
    expect((found.data.tools as { name: string }[]).map((tool) => tool.name)).not.toContain('delete_note');
    const refused = await call(host, 'call_tool', { name: 'delete_note', arguments: { noteId: 'n-1' } });
    expect(refused.isError).toBe(true);
    expect(read(refused).error!.code).toBe('RCP_TOOL_NOT_IN_STAGE');
    expect(toolRequestLines(notes)).toEqual([]);
  });

  it('approval: a write through call_tool waits for a person; a host that cannot ask fails closed, nothing sent', async () => {
    const host = await hosts['the v1 SDK client'](await startGateway({}, { ...clientOptions, approval: 'writes' }));
    const result = await call(host, 'call_tool', { name: 'create_note', arguments: { title: 'Plan' } });
    expect(result.isError).toBe(true);
    expect(read(result).error!.code).toBe('RCP_APPROVAL_REQUIRED');
    expect(toolRequestLines(notes)).toEqual([]);
  });
});

describe("call_tool's annotations and description", () => {
  const callTool = async (url: URL) => (await (await hosts['the v2 SDK client'](url)).listTools()).tools.find((tool) => tool.name === 'call_tool')!;

  it('never claim more than its most cautious tool: with a DELETE among them, destructive and not read-only; the description says a call may wait for approval', async () => {
    const tool = await callTool(await startGateway());
    expect(tool.annotations).toEqual({ openWorldHint: true, destructiveHint: true });
    expect(tool.description).toContain("a call that changes data may first wait for a person's approval in the host");
    expect(tool.description).toContain('an approval covers that one call with those arguments only');
  });

  it('read-only only when every tool it can call is (a stage of reads)', async () => {
    expect((await callTool(await startGateway({ only: ['list_notes', 'get_note'] }))).annotations).toEqual({ openWorldHint: true, readOnlyHint: true });
    expect((await callTool(await startGateway({ only: ['get_note', 'create_note'] }))).annotations).toEqual({ openWorldHint: true });
  });
});

describe('past the host limit, the gateway suggests dynamic mode', () => {
  it('a gateway that lists every tool warns and names dynamic mode; a dynamic gateway does not warn', async () => {
    const client = createRcpClient(clientOptions);
    const discovery = await client.discover(manifestUrl);
    const listing = createRcpMcpGateway({ client, source: discovery });
    expect(listing.warnings).toEqual([
      `An MCP host such as Cursor accepts at most ${HOST_TOOL_LIMIT} tools; this set has 45: select fewer (createToolSet(..., { only }), or a stage); ` +
        `or serve them in dynamic mode (the gateway's "dynamic" option: search_tools, describe_tool and call_tool instead of every tool)`,
    ]);
    expect(createRcpMcpGateway({ client, source: discovery, dynamic: true }).warnings).toEqual([]);
  });
});
