import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRcpClient, createToolSet, type RcpClient, type RcpToolSet } from 'rcp-client';
import { fromOpenApi } from 'rcp-openapi';
import { sendJson, serveManifest, startTestServer, type TestServer } from 'rcp-test-utils';
import { createToolSearch, type RcpToolSearch } from './index';

/**
 * A 500-operation API imported with rcp-openapi, searched by a scripted "model", and called
 * through the same tool set: search never changes what a call may do.
 */
const RESOURCES = [
  'customer',
  'invoice',
  'payment',
  'refund',
  'subscription',
  'product',
  'price',
  'coupon',
  'order',
  'shipment',
  'warehouse',
  'supplier',
  'employee',
  'team',
  'project',
  'task',
  'comment',
  'attachment',
  'label',
  'milestone',
  'repository',
  'branch',
  'release',
  'webhook',
  'event',
  'notification',
  'message',
  'conversation',
  'contact',
  'account',
  'domain',
  'certificate',
  'volume',
  'snapshot',
  'backup',
  'cluster',
  'database',
  'firewall',
  'region',
  'report',
  'dashboard',
  'alert',
  'incident',
  'schedule',
  'calendar',
  'meeting',
  'room',
  'ticket',
  'article',
  'document',
];
const VERBS = [
  ['get', 'list', 'Lists every'],
  ['get', 'get', 'Returns one'],
  ['post', 'create', 'Creates a'],
  ['patch', 'update', 'Changes a'],
  ['delete', 'delete', 'Deletes a'],
  ['post', 'archive', 'Archives a'],
  ['post', 'restore', 'Restores an archived'],
  ['get', 'export', 'Exports every'],
  ['post', 'import', 'Imports records of'],
  ['get', 'count', 'Counts every'],
] as const;

function largeDocument(origin: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const resource of RESOURCES) {
    for (const [method, verb, summary] of VERBS) {
      const path = `/users/{userId}/${resource}s/${verb}`;
      const body =
        method === 'post' || method === 'patch'
          ? {
              requestBody: {
                required: true,
                content: {
                  'application/json': {
                    schema: { type: 'object', required: ['note'], properties: { note: { type: 'string', description: `Text kept with the ${resource}` } } },
                  },
                },
              },
            }
          : {};
      paths[path] = {
        [method]: {
          operationId: `${verb}${resource[0]!.toUpperCase()}${resource.slice(1)}`,
          summary: `${summary} ${resource}`,
          parameters: [{ name: 'userId', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'ok' } },
          ...body,
        },
      };
    }
  }
  return { openapi: '3.0.3', info: { title: 'Everything API', version: '1' }, servers: [{ url: `${origin}/v1` }], paths };
}

let server: TestServer;
let client: RcpClient<{ userId: string }>;
let toolSet: RcpToolSet;
let search: RcpToolSearch;
beforeAll(async () => {
  server = await startTestServer();
  server.route('* /v1/users/u-verified/refunds/create', (request, res) => sendJson(res, 200, { ok: true, received: request.json }));
  const { manifest } = await fromOpenApi(largeDocument(server.origin), { resolve: ['userId'], maxTools: 500 });
  expect(manifest.tools).toHaveLength(500);
  client = createRcpClient<{ userId: string }>({ resolvers: { userId: (ctx) => ctx.userId } });
  toolSet = createToolSet(await client.discover(serveManifest(server, manifest)));
  search = createToolSearch(toolSet);
});
afterAll(async () => {
  await server.close();
});

/** The scripted model: asks the search tool, then calls the first tool it was shown. */
async function modelFinds(query: string): Promise<string> {
  const { tools } = await search.handleCall(JSON.stringify({ query, limit: 3 }));
  expect(tools.length).toBeGreaterThan(0);
  return tools[0]!.name;
}

describe('a found tool is called through the same tool set', () => {
  it('calls the tool the model found: the loopback server receives exactly that call, the resolver filling userId', async () => {
    const name = await modelFinds('create a refund');
    expect(name).toBe('createRefund');
    server.reset();
    const outcome = await client.call(toolSet, { name, arguments: '{"note":"damaged on arrival"}' }, { userId: 'u-verified' });
    expect(outcome.ok).toBe(true);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/users/u-verified/refunds/create', json: { note: 'damaged on arrival' } });
  });

  it('refuses a found tool outside the stage subset as every stack does (RCP_TOOL_NOT_IN_STAGE), and sends nothing', async () => {
    const stage = toolSet.select(['listCustomer', 'getCustomer'], { stage: 'support' });
    const name = await modelFinds('create a refund');
    server.reset();
    const found = await client.call(stage, { name, arguments: '{"note":"x"}' }, { userId: 'u-verified' });
    const unknown = await client.call(stage, { name: 'transferEverything', arguments: '{"note":"x"}' }, { userId: 'u-verified' });
    expect(found.ok || unknown.ok).toBe(false);
    if (found.ok || unknown.ok) return;
    expect(found.error.code).toBe('RCP_TOOL_NOT_IN_STAGE');
    expect(found.error.message).toBe(`Tool ${JSON.stringify(name)} is not available in stage "support".`);
    expect(unknown.error.code).toBe('RCP_UNKNOWN_TOOL');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a spoof of the resolver-bound param through a found tool, and sends nothing', async () => {
    const name = await modelFinds('refund');
    const { tools } = await search.handleCall({ query: 'refund' });
    expect(tools[0]!.params).toEqual(['note (required)']);
    server.reset();
    const outcome = await client.call(toolSet, { name, arguments: '{"note":"x","userId":"u-victim"}' }, { userId: 'u-verified' });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe('RCP_INVALID_ARGUMENTS');
    expect(server.requests).toHaveLength(0);
  });

  it("searching a stage subset finds only the stage's tools", async () => {
    const stage = toolSet.select((tool) => tool.method === 'GET');
    const staged = createToolSearch(stage);
    const hits = await staged.search('give a customer their money back refund', { limit: 50 });
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) expect(stage.names).toContain(hit.name);
  });
});
