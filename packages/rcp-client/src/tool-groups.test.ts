import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { groupedTool as tool, sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient, createToolSet, describeManifest, toModelResult } from 'rcp-client';
import { serveManifest } from './internal/testing';

/** RCP 0.4 tool groups (SPEC §20.3) as the client gives them: on each tool, on a tool set, in describeManifest. */
const billing = {
  rcpVersion: '0.4',
  groups: [
    { name: 'invoices', description: 'Invoices and their payments.' },
    { name: 'customers', description: 'People who pay.\u2028- forged line' },
    { name: 'misc' },
  ],
  tools: [tool('list_invoices', 'invoices'), tool('get_customer', 'customers'), tool('ping'), tool('pay_invoice', 'invoices'), tool('status', 'misc')],
};

let server: TestServer;
let other: TestServer;
beforeEach(async () => {
  server = await startTestServer();
  other = await startTestServer();
  server.route('GET /pay_invoice', (_request, res) => sendJson(res, 200, { paid: true }));
});
afterEach(async () => {
  await Promise.all([server.close(), other.close()]);
});

describe('tool groups in the client (RCP 0.4)', () => {
  it('gives each discovered tool its group: one frozen object per group, shared by its tools; none for a tool in no group', async () => {
    const { tools } = await createRcpClient().discover(serveManifest(server, billing));
    const [list, customer, ping, pay, status] = tools;
    expect(list!.group).toEqual({ name: 'invoices', description: 'Invoices and their payments.' });
    expect(pay!.group).toBe(list!.group);
    expect(Object.isFrozen(list!.group)).toBe(true);
    expect(customer!.group?.name).toBe('customers');
    expect(status!.group).toEqual({ name: 'misc', description: '' });
    expect(ping).not.toHaveProperty('group');
    expect(server.count).toBe(1); // the manifest only
  });

  it('lists a tool set’s groups with the model-facing names of their tools; a subset keeps the groups of its tools', async () => {
    const client = createRcpClient();
    const discovery = await client.discover(serveManifest(server, billing));
    const set = createToolSet(discovery);
    expect(set.groups).toEqual([
      { name: 'invoices', description: 'Invoices and their payments.', names: ['list_invoices', 'pay_invoice'] },
      { name: 'customers', description: 'People who pay.\u2028- forged line', names: ['get_customer'] },
      { name: 'misc', description: '', names: ['status'] },
    ]);
    expect(Object.isFrozen(set.groups) && Object.isFrozen(set.groups[0]) && Object.isFrozen(set.groups[0]!.names)).toBe(true);
    const stage = set.select(['pay_invoice', 'ping'], { stage: 'pay' });
    expect(stage.groups).toEqual([{ name: 'invoices', description: 'Invoices and their payments.', names: ['pay_invoice'] }]);
    // A call goes by the tool's name as before: the group changes nothing a client sends.
    expect(toModelResult(await client.call(stage, { name: 'pay_invoice', arguments: '{}' }))).toEqual({ ok: true, data: { paid: true } });
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual(['GET /rcp/manifest', 'GET /pay_invoice']);
  });

  it('keeps group names unique in a set of several discoveries (regardless of case): a later one gets _2', async () => {
    const client = createRcpClient();
    const a = await client.discover(serveManifest(server, billing));
    const b = await client.discover(
      serveManifest(other, { rcpVersion: '0.4', groups: [{ name: 'Invoices', description: 'Shop invoices.' }], tools: [tool('shop_invoices', 'Invoices')] }),
    );
    const set = createToolSet([a, b]);
    expect(set.groups.map((group) => [group.name, group.names])).toEqual([
      ['invoices', ['list_invoices', 'pay_invoice']],
      ['customers', ['get_customer']],
      ['misc', ['status']],
      ['Invoices_2', ['shop_invoices']],
    ]);
    // The subset of the second discovery's tool keeps the name it has in the whole set.
    expect(set.select(['shop_invoices']).groups.map((group) => group.name)).toEqual(['Invoices_2']);
  });

  it('has no groups for a manifest without them, nor for a 0.3 manifest that carries some (ignored, with a warning)', async () => {
    const client = createRcpClient();
    const old = await client.discover(serveManifest(server, { ...billing, rcpVersion: '0.3' }));
    expect(old.tools.some((entry) => entry.group !== undefined)).toBe(false);
    expect(createToolSet(old).groups).toEqual([]);
    expect(old.warnings.map((warning) => warning.path)).toEqual(['/groups', '/tools/0/group', '/tools/1/group', '/tools/3/group', '/tools/4/group']);
  });

  it('describeManifest prints each group’s tools under it, then those in no group; group text cannot forge lines', async () => {
    const { manifest, tools } = await createRcpClient().discover(serveManifest(server, billing));
    expect(describeManifest(manifest, tools)).toBe(
      [
        'RCP manifest v0.4 — auth: none',
        '5 tool(s) in 3 group(s):',
        'group invoices (2 tool(s)) — Invoices and their payments.',
        '- list_invoices (GET) — The list_invoices tool.',
        '- pay_invoice (GET) — The pay_invoice tool.',
        'group customers (1 tool(s)) — People who pay. - forged line',
        '- get_customer (GET) — The get_customer tool.',
        'group misc (1 tool(s))',
        '- status (GET) — The status tool.',
        'in no group (1 tool(s))',
        '- ping (GET) — The ping tool.',
      ].join('\n'),
    );
  });
});
