/**
 * Client-executed tool search on the Responses API (`rcp-openai/search`): the real SDK against
 * a loopback fake of `/v1/responses`, a 500-tool catalog served by a loopback API, and a
 * scripted model that searches, then calls what it found.
 */
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient, createToolSet, type RcpToolSet } from 'rcp-client';
import { largeCatalogManifest, sendJson, serveManifest, startTestServer, type TestServer } from 'rcp-test-utils';
import { createOpenAIToolSearch, type OpenAIToolSearch } from './search';

let api: TestServer;
let fake: TestServer;
let toolSet: RcpToolSet;
const client = createRcpClient<{ userId: string }>({ resolvers: { userId: (ctx) => ctx.userId } });
beforeEach(async () => {
  api = await startTestServer();
  api.route('POST /v1/users/u-verified/refunds/create', (request, res) => sendJson(res, 200, { created: true, note: (request.json as { note: string }).note }));
  fake = await startTestServer();
  toolSet = createToolSet(await client.discover(serveManifest(api, largeCatalogManifest())));
  expect(toolSet.names).toHaveLength(500);
  api.reset();
});
afterEach(async () => {
  await Promise.all([api.close(), fake.close()]);
});

let responseCount = 0;
const response = (output: unknown[]) => ({ id: `resp_${++responseCount}`, object: 'response', created_at: 0, status: 'completed', model: 'gpt-test', output });
type Item = { type: string; call_id?: string; tools?: { type: string; name: string; parameters: { properties: Record<string, unknown> } }[]; output?: string };
type Sent = { tools: { type: string; execution?: string }[]; input: string | Item[] };

/** The scripted model: a client tool_search_call for `query`, then a call of the first tool it was given, then done. */
function scriptModel(query: string, args: Record<string, unknown>): void {
  fake.route('POST /v1/responses', (request, res) => {
    const { input } = request.json as Sent;
    if (typeof input === 'string') {
      return sendJson(
        res,
        200,
        response([{ type: 'tool_search_call', id: 'tsc_1', call_id: 'ts_1', execution: 'client', status: 'completed', arguments: { query, limit: 3 } }]),
      );
    }
    const last = input.at(-1)!;
    if (last.type === 'tool_search_output' && last.tools!.length > 0) {
      const name = last.tools![0]!.name;
      return sendJson(
        res,
        200,
        response([{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name, arguments: JSON.stringify(args), status: 'completed' }]),
      );
    }
    return sendJson(
      res,
      200,
      response([{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.', annotations: [] }] }]),
    );
  });
}

async function runLoop(rcp: OpenAIToolSearch<{ userId: string }>) {
  const openai = new OpenAI({ apiKey: 'sk-test', baseURL: fake.url('/v1'), maxRetries: 0 });
  let reply = await openai.responses.create({ model: 'gpt-test', input: 'Refund the damaged order.', tools: rcp.responsesTools });
  const answered: Awaited<ReturnType<typeof rcp.runOutput>> = [];
  for (let step = 0; step < 6 && reply.output.some((item) => item.type === 'tool_search_call' || item.type === 'function_call'); step++) {
    const items = await rcp.runOutput(reply.output, { userId: 'u-verified' });
    answered.push(...items);
    reply = await openai.responses.create({ model: 'gpt-test', previous_response_id: reply.id, input: items, tools: rcp.responsesTools });
  }
  return answered;
}

describe('client-executed tool search: 500 tools, one tool_search tool, found definitions in tool_search_output', () => {
  it('the model searches, calls a found tool, and the API receives exactly that call', async () => {
    scriptModel('create a refund', { note: 'damaged on arrival' });
    const rcp = createOpenAIToolSearch(client, toolSet);
    const [search, called] = await runLoop(rcp);
    const first = fake.requests[0]!.json as Sent;
    expect(first.tools).toEqual([expect.objectContaining({ type: 'tool_search', execution: 'client' })]);
    // The search's answer, as the SDK sent it: the found tools' full definitions, no resolver-bound param.
    const sentSearch = (fake.requests[1]!.json as Sent).input as Item[];
    expect(sentSearch).toEqual([search]);
    expect(sentSearch[0]).toMatchObject({ type: 'tool_search_output', call_id: 'ts_1', execution: 'client' });
    expect(sentSearch[0]!.tools!.map((tool) => tool.name)[0]).toBe('createRefund');
    expect(sentSearch[0]!.tools![0]).toMatchObject({ type: 'function', parameters: { properties: { note: { type: 'string' } } } });
    expect(JSON.stringify(sentSearch)).not.toContain('userId');
    expect(called).toMatchObject({ type: 'function_call_output', call_id: 'call_1' });
    expect(JSON.parse((called as { output: string }).output)).toMatchObject({ ok: true, data: { created: true } });
    expect(api.requests.map((request) => [request.method, request.path, request.json])).toEqual([
      ['POST', '/v1/users/u-verified/refunds/create', { note: 'damaged on arrival' }],
    ]);
  });

  it('a found tool outside the stage is refused (RCP_TOOL_NOT_IN_STAGE) and nothing is sent', async () => {
    const whole = createOpenAIToolSearch(client, toolSet);
    const stage = createOpenAIToolSearch(client, toolSet.select(['listCustomer', 'getCustomer'], { stage: 'support' }));
    const [search] = await whole.runOutput([{ type: 'tool_search_call', call_id: 'ts_1', arguments: { query: 'create a refund' } }], { userId: 'u-verified' });
    const found = (search as { tools: { name: string }[] }).tools[0]!.name;
    const [refused] = await stage.runOutput([{ type: 'function_call', call_id: 'call_1', name: found, arguments: '{"note":"x"}' }], { userId: 'u-verified' });
    expect(JSON.parse((refused as { output: string }).output)).toEqual({
      ok: false,
      error: { code: 'RCP_TOOL_NOT_IN_STAGE', message: `Tool "${found}" is not available in stage "support".` },
    });
    const [stageSearch] = await stage.runOutput([{ type: 'tool_search_call', call_id: 'ts_2', arguments: { query: 'create a refund' } }], {
      userId: 'u-verified',
    });
    expect((stageSearch as { tools: { name: string }[] }).tools.every((tool) => ['listCustomer', 'getCustomer'].includes(tool.name))).toBe(true);
    expect(api.requests).toEqual([]);
  });

  it('a spoofed resolver-bound argument through a found tool is refused and nothing is sent', async () => {
    scriptModel('create a refund', { note: 'x', userId: 'u-victim' });
    const [, called] = await runLoop(createOpenAIToolSearch(client, toolSet));
    const said = JSON.parse((called as { output: string }).output) as { ok: boolean; error: { code: string } };
    expect(said).toMatchObject({ ok: false, error: { code: 'RCP_INVALID_ARGUMENTS' } });
    expect(JSON.stringify(said)).not.toContain('u-verified');
    expect(api.requests).toEqual([]);
  });

  it('bad search input finds no tools', async () => {
    const [bad] = await createOpenAIToolSearch(client, toolSet).runOutput([{ type: 'tool_search_call', call_id: 'ts_1', arguments: { q: 'refund' } }], {
      userId: 'u-verified',
    });
    expect(bad).toEqual({ type: 'tool_search_output', call_id: 'ts_1', execution: 'client', tools: [] });
  });
});
