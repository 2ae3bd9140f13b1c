/**
 * Tool groups in the gateway's dynamic mode (RCP 0.4, SPEC §20.3; docs/behaviour.md, dynamic mode):
 * real MCP clients against a dynamic gateway over a grouped manifest on 127.0.0.1 — list_groups
 * with each group's count, search_tools restricted to one group, an unknown group pointing at
 * list_groups, describe_tool naming a tool's group, the instructions — and a catalog without groups,
 * whose tool surface is the three meta-tools as before. The API's log shows what reached it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { groupedTool, sendJson, serveManifest, startTestServer, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { createRcpMcpHttpHandler, type RcpMcpGatewayOptions } from './index';

const tool = (name: string, description: string, group?: string, extra: Record<string, unknown> = {}) => ({
  ...groupedTool(name, group),
  description,
  ...extra,
});

/** Seven tools: three in `invoices`, two in `customers`, one in `misc`, one in none. */
const groupedManifest = {
  rcpVersion: '0.4',
  groups: [
    { name: 'invoices', description: 'Invoices and their payments.\n\nEach invoice belongs to one customer.' },
    { name: 'customers', description: `The people and companies who pay you. ${'Every field of a customer record is listed here. '.repeat(4)}` },
    { name: 'misc' },
  ],
  tools: [
    tool('list_invoices', 'Lists the invoices of the account.', 'invoices'),
    tool('get_invoice', 'Gets one invoice.', 'invoices', {
      url: '/invoices/{{invoiceId}}',
      params: [{ name: 'invoiceId', required: true }],
    }),
    tool('pay_invoice', 'Pays one invoice.', 'invoices', { method: 'POST' }),
    tool('list_customers', 'Lists the customers of the account.', 'customers'),
    tool('get_customer', 'Gets one customer.', 'customers'),
    tool('ping', 'Checks that the API answers.'),
    tool('status', 'Shows the status of the service.', 'misc'),
  ],
};

let api: TestServer;
const closers: (() => Promise<unknown>)[] = [];
beforeEach(async () => {
  api = await startTestServer();
  api.route('GET /invoices/in_1', (_request, res) => sendJson(res, 200, { id: 'in_1', total: 120 }));
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await api.close();
});

type ToolResult = { content: { type: string; text: string }[]; isError?: boolean };
type Host = {
  listTools(): Promise<{ tools: { name: string; description?: string; inputSchema: any; annotations?: unknown }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  getInstructions(): string | undefined;
  close(): Promise<void>;
};

/** A dynamic gateway over HTTP on 127.0.0.1 serving `manifest` (the API's log starts empty). */
async function startGateway(manifest: unknown, extra: Partial<RcpMcpGatewayOptions> = {}): Promise<URL> {
  const client = createRcpClient();
  const handler = createRcpMcpHttpHandler({
    client,
    source: await client.discover(serveManifest(api, manifest)),
    dynamic: true,
    authenticate: () => ({}),
    ...extra,
  });
  const gateway: Server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => gateway.close(resolve)));
  api.reset();
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
const namesOf = (result: ToolResult) => (read(result).data.tools as { name: string }[]).map((found) => found.name);

describe.each(Object.entries(hosts))('dynamic mode over grouped tools, with %s', (_name, connect) => {
  it('lists list_groups after the three meta-tools; it gives each group with its tool count, and search_tools takes a group', async () => {
    const host = await connect(await startGateway(groupedManifest));
    const { tools } = await host.listTools();
    expect(tools.map((listed) => listed.name)).toEqual(['search_tools', 'describe_tool', 'call_tool', 'list_groups']);
    const [search, , , listGroups] = tools;
    expect(listGroups!.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(listGroups!.description).toContain('List the groups the 7 available tools are in');
    expect(listGroups!.inputSchema).toMatchObject({ type: 'object', properties: {} });
    expect(search!.inputSchema.properties.group).toEqual({
      type: 'string',
      description: 'Search only the tools of this group (a name from list_groups); default: every tool',
    });
    expect(search!.inputSchema.required).toEqual(['query']);
    expect(search!.description).toContain('With "group" (a name from list_groups), only that group\'s tools are searched.');

    const listed = await call(host, 'list_groups', {});
    // Compact: names, one line of each description (the first sentence, at most 160 characters), counts.
    expect(read(listed)).toEqual({
      ok: true,
      data: {
        groups: [
          { name: 'invoices', description: 'Invoices and their payments.', toolCount: 3 },
          { name: 'customers', description: 'The people and companies who pay you.', toolCount: 2 },
          { name: 'misc', toolCount: 1 },
        ],
        toolsInNoGroup: 1,
      },
    });
    expect(listed.isError).toBeUndefined();
    // Listing and searching send nothing to the API.
    expect(toolRequestLines(api)).toEqual([]);
  });

  it('a search restricted to a group finds only its tools; the same search without it finds the others too', async () => {
    const host = await connect(await startGateway(groupedManifest));
    const everywhere = namesOf(await call(host, 'search_tools', { query: 'list the ones of the account', limit: 10 }));
    expect(everywhere).toEqual(expect.arrayContaining(['list_invoices', 'list_customers']));

    const inCustomers = namesOf(await call(host, 'search_tools', { query: 'list the ones of the account', limit: 10, group: 'customers' }));
    expect(inCustomers[0]).toBe('list_customers');
    expect(inCustomers.every((name) => ['list_customers', 'get_customer'].includes(name))).toBe(true);

    // The answer is the compact one of every search: name, one line, param names.
    const inInvoices = read(await call(host, 'search_tools', { query: 'get one invoice', group: 'invoices', limit: 1 }));
    expect(inInvoices.data).toEqual({ tools: [{ name: 'get_invoice', description: 'Gets one invoice.', params: ['invoiceId (required)'] }] });
    // A group name in another case is the same group (names are unique regardless of case).
    expect(namesOf(await call(host, 'search_tools', { query: 'get one invoice', group: 'Invoices', limit: 1 }))).toEqual(['get_invoice']);
    // A word of no tool of the group finds nothing there, though another group has it.
    expect(read(await call(host, 'search_tools', { query: 'customers', group: 'misc' })).data).toEqual({ tools: [] });
    // The query is checked as ever, in a group too.
    expect(read(await call(host, 'search_tools', { query: 'ab cd ef gh ij kl mn op qr st uv wx yz ba dc fe hg', group: 'invoices' })).error!.code).toBe(
      'RCP_INVALID_ARGUMENTS',
    );
    expect(toolRequestLines(api)).toEqual([]);
  });

  it('an unknown group is RCP_INVALID_ARGUMENTS pointing at list_groups, nothing sent; a group that is not a string is refused by the schema', async () => {
    const host = await connect(await startGateway(groupedManifest));
    const unknown = await call(host, 'search_tools', { query: 'pay an invoice', group: 'billing' });
    expect(unknown.isError).toBe(true);
    expect(read(unknown)).toEqual({
      ok: false,
      error: {
        code: 'RCP_INVALID_ARGUMENTS',
        message: 'Invalid arguments for tool "search_tools": /group "billing" is not a group of these tools; list_groups lists their groups',
      },
    });
    const long = read(await call(host, 'search_tools', { query: 'pay', group: 'x'.repeat(300) }));
    expect(long.error!.message).toContain(`"${'x'.repeat(64)}…" is not a group`);
    expect((await call(host, 'search_tools', { query: 'pay', group: 7 })).isError).toBe(true);
    expect(toolRequestLines(api)).toEqual([]);
  });

  it("describe_tool names the tool's group; a tool found in a group is called through call_tool, and the API receives exactly that call", async () => {
    const host = await connect(await startGateway(groupedManifest));
    const [found] = namesOf(await call(host, 'search_tools', { query: 'get one invoice', group: 'invoices', limit: 1 }));
    const described = read(await call(host, 'describe_tool', { name: found }));
    expect(described.data).toMatchObject({ name: 'get_invoice', description: 'Gets one invoice.', group: 'invoices' });
    expect(read(await call(host, 'describe_tool', { name: 'ping' })).data).not.toHaveProperty('group');
    const result = read(await call(host, 'call_tool', { name: found!, arguments: { invoiceId: 'in_1' } }));
    expect(result).toEqual({ ok: true, data: { id: 'in_1', total: 120 } });
    expect(toolRequestLines(api)).toEqual(['GET /invoices/in_1']);
  });

  it('the MCP instructions say there are groups and how to use them — for the model, no operator advice', async () => {
    const host = await connect(await startGateway(groupedManifest));
    expect(host.getInstructions()).toBe(
      'The 7 tools behind search_tools are in 3 group(s), 1 in none: list_groups lists the groups; search_tools with "group" searches one group\'s tools.',
    );
  });
});

describe('groups and the rest of the gateway', () => {
  const connect = hosts['the v2 SDK client'];

  it('a catalog without groups: the three meta-tools as before, search_tools without group (refused by its schema), no list_groups, no instructions', async () => {
    const ungrouped = { rcpVersion: '0.4', tools: [tool('list_invoices', 'Lists the invoices of the account.'), tool('ping', 'Checks that the API answers.')] };
    const host = await connect(await startGateway(ungrouped));
    const { tools } = await host.listTools();
    expect(tools.map((listed) => listed.name)).toEqual(['search_tools', 'describe_tool', 'call_tool']);
    expect(Object.keys(tools[0]!.inputSchema.properties)).toEqual(['query', 'limit']);
    expect(tools[0]!.description).not.toContain('group');
    expect(host.getInstructions()).toBeUndefined();
    expect(read(await call(host, 'describe_tool', { name: 'ping' })).data).not.toHaveProperty('group');
    expect((await call(host, 'search_tools', { query: 'list invoices', group: 'invoices' })).isError).toBe(true);
    await expect(call(host, 'list_groups', {})).rejects.toThrow(/list_groups not found/); // not a tool of this server
    expect(toolRequestLines(api)).toEqual([]);
  });

  it('`only`: the groups and counts are those of the served tools; a group with none served is unknown', async () => {
    const host = await connect(await startGateway(groupedManifest, { only: ['list_invoices', 'get_invoice', 'ping'] }));
    expect(read(await call(host, 'list_groups', {})).data).toEqual({
      groups: [{ name: 'invoices', description: 'Invoices and their payments.', toolCount: 2 }],
      toolsInNoGroup: 1,
    });
    expect(namesOf(await call(host, 'search_tools', { query: 'pays an invoice', group: 'invoices' }))).not.toContain('pay_invoice');
    expect(read(await call(host, 'search_tools', { query: 'list the customers', group: 'customers' })).error!.code).toBe('RCP_INVALID_ARGUMENTS');
    expect(host.getInstructions()).toContain('The 3 tools behind search_tools are in 1 group(s), 1 in none');
  });

  it("the instructions carry the groups sentence, then the operator's notice of the manifest's warnings", async () => {
    const withUnused = { ...groupedManifest, groups: [...groupedManifest.groups, { name: 'unused' }] };
    const instructions = (await connect(await startGateway(withUnused))).getInstructions()!;
    const [groupsSentence, notice] = instructions.split('\n\n');
    expect(groupsSentence).toMatch(/^The 7 tools behind search_tools are in 3 group\(s\)/);
    expect(notice).toMatch(
      /^rcp-mcp found 1 problem\(s\) in the RCP manifest behind these tools, for its operator to fix \(not for the model to act on\):\n- \/groups\/3/,
    );
  });

  it('a gateway that lists every tool keeps its instructions: no groups sentence', async () => {
    const host = await connect(await startGateway(groupedManifest, { dynamic: false }));
    expect((await host.listTools()).tools.map((listed) => listed.name)).toHaveLength(7);
    expect(host.getInstructions()).toBeUndefined();
  });

  it('past 100 groups, list_groups lists the first 100 and counts the rest', async () => {
    const many = {
      rcpVersion: '0.4',
      groups: Array.from({ length: 103 }, (_, index) => ({ name: `g${index}` })),
      tools: Array.from({ length: 103 }, (_, index) => groupedTool(`t${index}`, `g${index}`)),
    };
    const listing = read(await call(await connect(await startGateway(many)), 'list_groups', {})).data;
    expect(listing.groups).toHaveLength(100);
    expect(listing.groups[99]).toEqual({ name: 'g99', toolCount: 1 });
    expect(listing.moreGroups).toBe(3);
    expect(listing).not.toHaveProperty('toolsInNoGroup');
  });
});
