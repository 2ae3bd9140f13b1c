/**
 * Tool groups on the server side (RCP 0.4, SPEC §20.3): `groups` declares them, a tool names its
 * own in `group`, and the served manifest is "0.4" — checked by rcp-manifest's rules when the
 * server is created, never by a copy of them here. rcp-client discovers the groups from a real
 * server on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRcpClient, createToolSet, describeManifest } from 'rcp-client';
import { isRcpError } from 'rcp-errors';
import { safeParseManifest, type RcpVersion } from 'rcp-manifest';
import { createRcpServer, defineTool, type AnyServerTool, type RcpServer, type ServerGroup } from './index';
import { creationError, frameworks, type Running } from './test/fixture';

const INVOICES = { name: 'invoices', description: 'Invoices and their payments.' } as const;

type HandlerCalls = { tool: string; values: Record<string, unknown> }[];

/** A tool in the "invoices" group; `calls` records what its handler was given. */
const invoicesTool = (calls: HandlerCalls = []) =>
  defineTool({
    name: 'list_invoices',
    description: 'Lists the invoices of a customer.',
    method: 'GET',
    path: '/invoices',
    group: 'invoices',
    params: [{ name: 'customer', required: true }],
    queryParams: { customer: '{{customer}}' },
    handler: ({ values }) => {
      calls.push({ tool: 'list_invoices', values: { ...values } });
      return { invoices: [{ id: 'in_1', customer: values.customer }] };
    },
  });
const listInvoices = invoicesTool();
const health = defineTool({ name: 'health', description: 'Says the API is up.', method: 'GET', path: '/health', group: 'misc', handler: () => ({ ok: true }) });
const ping = defineTool({ name: 'ping', description: 'Pings.', method: 'GET', path: '/ping', handler: () => ({ pong: true }) });

function billingServer(calls: HandlerCalls = []): RcpServer {
  return createRcpServer({ groups: [INVOICES, { name: 'misc' }], tools: [invoicesTool(calls), ping, health] });
}

const issuesOf = (error: unknown) => (error as { issues: { path: string; message: string }[] }).issues;

describe('a server with groups publishes an RCP 0.4 manifest with them', () => {
  it('has "0.4", the groups as declared and each tool its group; rcp-manifest reads it with no warning', async () => {
    const server = billingServer();
    expect(server.manifest.rcpVersion).toBe('0.4');
    expect(server.manifest.groups).toEqual([INVOICES, { name: 'misc' }]);
    expect(server.manifest.tools.map((tool) => tool.group)).toEqual(['invoices', undefined, 'misc']);
    const served = safeParseManifest(await (await server.fetch(new Request('http://127.0.0.1/rcp/manifest'))).text());
    expect(served).toMatchObject({ ok: true, warnings: [] });
    expect(served.ok && served.manifest).toEqual(server.manifest);
  });

  it('the tools function takes the same groups (the typed form)', () => {
    const server = createRcpServer({
      groups: [INVOICES],
      tools: (tool) => [
        tool({ name: 'list_invoices', description: 'Lists invoices.', method: 'GET', path: '/invoices', group: 'invoices', handler: () => [] }),
      ],
    });
    expect(server.manifest).toMatchObject({ rcpVersion: '0.4', groups: [INVOICES], tools: [{ name: 'list_invoices', group: 'invoices' }] });
  });

  it('a server without groups (or with an empty list) publishes what it did before: no "groups", its own version', () => {
    for (const groups of [undefined, []] as const) {
      const server = createRcpServer({ ...(groups !== undefined && { groups }), tools: [ping] });
      expect(server.manifest).toEqual({ rcpVersion: '0.1', tools: [{ name: 'ping', description: 'Pings.', method: 'GET', url: '/ping' }] });
    }
  });

  it('publishes a group no tool names (rcp-manifest warns of it, as for any manifest)', async () => {
    const server = createRcpServer({ groups: [INVOICES, { name: 'refunds' }], tools: [listInvoices] });
    expect(server.manifest.groups?.map((group) => group.name)).toEqual(['invoices', 'refunds']);
    const served = safeParseManifest(await (await server.fetch(new Request('http://127.0.0.1/rcp/manifest'))).text());
    expect(served.warnings.map((warning) => warning.path)).toEqual(['/groups/1']);
  });

  it.each(['0.4', undefined] as const)('takes rcpVersion %s', (rcpVersion) => {
    expect(createRcpServer({ ...(rcpVersion !== undefined && { rcpVersion }), groups: [INVOICES], tools: [listInvoices] }).manifest.rcpVersion).toBe('0.4');
  });
});

describe('a group rcp-manifest refuses is refused when the server is created, naming the tool', () => {
  it('a tool naming a group that is not declared: RCP_INVALID_MANIFEST at /tools/N/group', () => {
    const refund = defineTool({
      name: 'refund',
      description: 'Refunds a payment.',
      method: 'POST',
      path: '/refunds',
      group: 'refunds',
      handler: () => undefined,
    });
    const error = creationError(() => createRcpServer({ groups: [INVOICES], tools: [listInvoices, refund] }));
    expect(isRcpError(error, 'RCP_INVALID_MANIFEST')).toBe(true);
    expect(issuesOf(error)).toEqual([{ path: '/tools/1/group', message: expect.stringContaining('tool "refund" names group "refunds"') }]);
    expect((error as Error).message).toContain('refund');
  });

  it('a tool naming a group when the server declares none, and one whose case differs from the declared name', () => {
    const none = creationError(() => createRcpServer({ tools: [listInvoices] }));
    expect(isRcpError(none, 'RCP_INVALID_MANIFEST') && issuesOf(none).map((issue) => issue.path)).toEqual(['/tools/0/group']);
    const cased = defineTool({ name: 'list_invoices', description: 'Lists invoices.', method: 'GET', path: '/invoices', group: 'Invoices', handler: () => [] });
    const differs = creationError(() => createRcpServer({ groups: [INVOICES], tools: [cased] }));
    expect(isRcpError(differs, 'RCP_INVALID_MANIFEST') && issuesOf(differs)).toEqual([
      { path: '/tools/0/group', message: expect.stringContaining('did you mean "invoices"?') },
    ]);
  });

  it('group names: the tool-name rule, unique regardless of case; a description is text', () => {
    const groups = [INVOICES, { name: 'Invoices' }, { name: 'has space' }, { name: 'misc', description: 7 }] as unknown as readonly ServerGroup[];
    const error = creationError(() => createRcpServer({ groups, tools: [listInvoices] }));
    expect(isRcpError(error, 'RCP_INVALID_MANIFEST') && issuesOf(error).map((issue) => issue.path)).toEqual([
      '/groups/1/name',
      '/groups/2/name',
      '/groups/3/description',
    ]);
  });

  it.each(['0.1', '0.2', '0.3'] as const)(
    'a declared rcpVersion %s, which has no groups: RCP_INVALID_OPTIONS, never a manifest without them',
    (rcpVersion: RcpVersion) => {
      const declared = creationError(() => createRcpServer({ rcpVersion, groups: [INVOICES], tools: [ping] }));
      expect(isRcpError(declared, 'RCP_INVALID_OPTIONS')).toBe(true);
      expect((declared as Error).message).toBe(
        `rcpVersion "${rcpVersion}" has no tool groups (RCP 0.4), so "groups" would not be published: leave "rcpVersion" out, or give "0.4"`,
      );
      const named = creationError(() => createRcpServer({ rcpVersion, groups: [INVOICES], tools: [ping, listInvoices] }));
      expect(isRcpError(named, 'RCP_INVALID_OPTIONS') && (named as Error).message).toContain(`tool "list_invoices"'s "group"`);
      // A tool's group without any declared group is refused the same way: nothing would check it.
      const alone = creationError(() => createRcpServer({ rcpVersion, tools: [listInvoices] as readonly AnyServerTool[] }));
      expect(isRcpError(alone, 'RCP_INVALID_OPTIONS') && (alone as Error).message).toContain(`tool "list_invoices"'s "group"`);
    },
  );
});

describe.each(frameworks)('rcp-client discovers the groups of rcp-server on $name', (framework) => {
  let running: Running;
  afterEach(() => running.close());

  it('each tool has its group (one object per group), describeManifest lists them, and a call reaches the handler', async () => {
    const calls: HandlerCalls = [];
    running = await framework.start(billingServer(calls));
    const client = createRcpClient({ retry: 0 });
    const discovery = await client.discover(`${running.origin}/rcp/manifest`);
    expect(discovery.warnings).toEqual([]);
    expect(discovery.tools.map((tool) => [tool.name, tool.group ?? null])).toEqual([
      ['list_invoices', { name: 'invoices', description: 'Invoices and their payments.' }],
      ['ping', null],
      ['health', { name: 'misc', description: '' }],
    ]);
    expect(createToolSet(discovery).groups).toEqual([
      { name: 'invoices', description: 'Invoices and their payments.', names: ['list_invoices'] },
      { name: 'misc', description: '', names: ['health'] },
    ]);
    expect(describeManifest(discovery.manifest)).toContain('group invoices (1 tool(s)) — Invoices and their payments.');

    const outcome = await client.call(discovery, { name: 'list_invoices', arguments: { customer: 'cus_1' } });
    expect(outcome).toMatchObject({ ok: true, result: { data: { invoices: [{ id: 'in_1', customer: 'cus_1' }] } } });
    expect(calls).toEqual([{ tool: 'list_invoices', values: { customer: 'cus_1' } }]);
  });
});
