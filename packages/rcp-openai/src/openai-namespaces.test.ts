/**
 * RCP 0.4 tool groups as Responses API namespaces (SPEC §20.3): the real SDK against a loopback
 * fake of `/v1/responses` that asserts what it received and calls a namespaced function, and a
 * loopback API that asserts the one request the call sends.
 */
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { groupedTool as tool, sendJson, serveManifest, startTestServer, type TestServer } from 'rcp-test-utils';
import { createOpenAITools } from './index';

const manifest = {
  rcpVersion: '0.4',
  groups: [{ name: 'invoices', description: 'Invoices and their payments.' }, { name: 'misc' }],
  tools: [tool('list_invoices', 'invoices'), tool('ping'), tool('status', 'misc'), tool('get_invoice', 'invoices')],
};

let api: TestServer;
let fake: TestServer;
beforeEach(async () => {
  api = await startTestServer();
  fake = await startTestServer();
  api.route('GET /get_invoice', (_request, res) => sendJson(res, 200, { id: 'in_1' }));
});
afterEach(async () => {
  await Promise.all([api.close(), fake.close()]);
});

const response = (id: string, output: unknown[]) => ({ id, object: 'response', created_at: 0, status: 'completed', model: 'gpt-test', output });

describe('Responses namespaces from tool groups', () => {
  it('sends each group as a namespace tool, the rest as functions, and runs a namespaced call by its name', async () => {
    const client = createRcpClient();
    const rcp = createOpenAITools(client, await client.discover(serveManifest(api, manifest)));
    api.reset();
    const fn = (name: string) => ({ type: 'function', name, description: `The ${name} tool.`, parameters: expect.any(Object), strict: true });
    expect(rcp.responsesNamespacedTools).toEqual([
      { type: 'namespace', name: 'invoices', description: 'Invoices and their payments.', tools: [fn('list_invoices'), fn('get_invoice')] },
      fn('ping'),
      { type: 'namespace', name: 'misc', description: 'Tools of the "misc" group.', tools: [fn('status')] },
    ]);
    // The flat list is unchanged.
    expect(rcp.responsesTools.map((entry) => entry.name)).toEqual(['list_invoices', 'ping', 'status', 'get_invoice']);

    fake.route('POST /v1/responses', (_request, res) =>
      sendJson(
        res,
        200,
        response('resp_1', [
          { type: 'function_call', id: 'fc_1', call_id: 'call_1', namespace: 'invoices', name: 'get_invoice', arguments: '{}', status: 'completed' },
        ]),
      ),
    );
    const openai = new OpenAI({ apiKey: 'sk-test', baseURL: fake.url('/v1'), maxRetries: 0 });
    const reply = await openai.responses.create({ model: 'gpt-test', input: 'Show invoice in_1.', tools: rcp.responsesNamespacedTools });
    // What the OpenAI API received: the namespace tools as the SDK serialised them.
    const sent = fake.requests[0]!.json as { tools: { type: string; name: string; tools?: { name: string }[] }[] };
    expect(sent.tools.map((entry) => [entry.type, entry.name, entry.tools?.map((inner) => inner.name)])).toEqual([
      ['namespace', 'invoices', ['list_invoices', 'get_invoice']],
      ['function', 'ping', undefined],
      ['namespace', 'misc', ['status']],
    ]);
    const outputs = await rcp.runFunctionCalls(reply.output);
    expect(outputs).toEqual([{ type: 'function_call_output', call_id: 'call_1', output: '{"ok":true,"data":{"id":"in_1"}}' }]);
    expect(api.requests.map((request) => `${request.method} ${request.url}`)).toEqual(['GET /get_invoice']);
  });

  it('is the flat list when the set has no groups', async () => {
    const client = createRcpClient();
    const rcp = createOpenAITools(client, await client.discover(serveManifest(api, { rcpVersion: '0.3', tools: [tool('ping')] })));
    expect(rcp.responsesNamespacedTools).toEqual(rcp.responsesTools);
  });
});
