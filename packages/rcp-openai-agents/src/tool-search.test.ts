/**
 * Deferred loading on the OpenAI Agents SDK 0.14.3: the real `Runner` with the real `openai`
 * client at a loopback fake Responses API, over a 500-operation API imported with rcp-openapi and
 * served on 127.0.0.1. The tools are sent `defer_loading`; the fake model calls the client-executed
 * `tool_search` (answered by rcp-search), then the tool the `tool_search_output` it was sent names.
 * The API's log is the judge of what was called.
 */
import OpenAI from 'openai';
import { Agent, ModelBehaviorError, OpenAIProvider, Runner } from '@openai/agents';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient, type RcpClient, type RcpDiscovery } from 'rcp-client';
import { fromOpenApi } from 'rcp-openapi';
import { largeCatalogOpenApi, sendJson, serveManifest, startTestServer, type TestServer } from 'rcp-test-utils';
import { createOpenAIAgentsTools, type OpenAIAgentsToolsOptions, type OpenAIAgentsTurn } from './index';
import { rcpToolSearchTool } from './search';

type Ctx = { userId: string };
let api: TestServer;
let fake: TestServer;
let rcpClient: RcpClient<Ctx>;
let discovery: RcpDiscovery;
beforeAll(async () => {
  api = await startTestServer();
  api.route('* /v1/users/u-verified/refunds/create', (request, res) => sendJson(res, 200, { refunded: true, note: (request.json as { note: string }).note }));
  const { manifest } = await fromOpenApi(largeCatalogOpenApi(api.origin), { resolve: ['userId'], maxTools: 500 });
  expect(manifest.tools).toHaveLength(500);
  rcpClient = createRcpClient<Ctx>({ resolvers: { userId: (ctx) => ctx.userId } });
  discovery = await rcpClient.discover(serveManifest(api, manifest));
  fake = await startTestServer();
});
afterAll(async () => {
  await Promise.all([api.close(), fake.close()]);
});
beforeEach(() => {
  api.reset();
  fake.reset();
});

type InputItem = { type?: string; call_id?: string; output?: unknown; tools?: { name: string }[] };
type SentTool = { type: string; name?: string; defer_loading?: boolean; execution?: string };
const usage = {
  input_tokens: 1,
  output_tokens: 1,
  total_tokens: 2,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens_details: { reasoning_tokens: 0 },
};
const response = (output: unknown[]) => ({
  id: `resp_${fake.count}`,
  object: 'response',
  created_at: 0,
  status: 'completed',
  model: 'gpt-test',
  output,
  usage,
});
const call = (callId: string, name: string, args: Record<string, unknown>) =>
  response([{ type: 'function_call', id: `fc_${callId}`, call_id: callId, name, arguments: JSON.stringify(args), status: 'completed' }]);
const searches = (query: string) =>
  response([{ type: 'tool_search_call', id: 'ts_1', call_id: 'ts_1', execution: 'client', arguments: { query, limit: 3 }, status: 'completed' }]);
const says = (text: string) =>
  response([{ type: 'message', id: `msg_${fake.count}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }]);

/** The scripted model: searches, calls the first tool the tool_search_output it was sent names, then repeats what it got back. */
function searchingModel(query: string, args: Record<string, unknown>): void {
  fake.route('POST /v1/responses', (request, res) => {
    const input = (request.json as { input: InputItem[] }).input;
    const loaded = input.find((item) => item.type === 'tool_search_output');
    if (loaded === undefined) return sendJson(res, 200, searches(query));
    const output = input.find((item) => item.type === 'function_call_output');
    if (output === undefined) return sendJson(res, 200, call('c1', loaded.tools![0]!.name, args));
    return sendJson(res, 200, says(String(output.output)));
  });
}
const runner = () =>
  new Runner({
    modelProvider: new OpenAIProvider({ openAIClient: new OpenAI({ apiKey: 'sk-test', baseURL: fake.url('/v1'), maxRetries: 0 }) }),
    tracingDisabled: true,
  });
function agentOf(options: OpenAIAgentsToolsOptions<Ctx> = {}) {
  const rcp = createOpenAIAgentsTools(rcpClient, discovery, { ...options, deferLoading: true });
  return new Agent({ name: 'Everything', instructions: 'Use the tools.', model: 'gpt-test', tools: [...rcp.tools, rcpToolSearchTool(rcp)] });
}
const toolsSent = (index: number) => (fake.requests[index]!.json as { tools: SentTool[] }).tools;
const apiCalls = () => api.requests.filter((request) => request.path !== '/rcp/manifest');

describe('rcpToolSearchTool through run() (500 imported tools, deferred)', () => {
  it('the model searches, then calls a tool it found: the server receives exactly that call', async () => {
    searchingModel('create a refund', { note: 'damaged on arrival' });
    const result = await runner().run(agentOf(), 'My parcel arrived damaged: refund it.', { context: { userId: 'u-verified' } });
    const first = toolsSent(0);
    expect(first).toHaveLength(501);
    expect(first.filter((tool) => tool.type === 'function').every((tool) => tool.defer_loading === true)).toBe(true);
    expect(first.filter((tool) => tool.type !== 'function')).toMatchObject([{ type: 'tool_search', execution: 'client' }]);
    // What the model was sent back from its search: the three tools rcp-search ranks best.
    const loaded = (fake.requests[1]!.json as { input: InputItem[] }).input.find((item) => item.type === 'tool_search_output')!;
    expect(loaded.tools!.map((tool) => tool.name)).toHaveLength(3);
    expect(loaded.tools![0]!.name).toBe('createRefund');
    expect(JSON.stringify(loaded)).not.toContain('userId');
    expect(apiCalls().map(({ method, path, json }) => ({ method, path, json }))).toEqual([
      { method: 'POST', path: '/v1/users/u-verified/refunds/create', json: { note: 'damaged on arrival' } },
    ]);
    expect(JSON.parse(result.finalOutput!)).toEqual({ ok: true, data: { refunded: true, note: 'damaged on arrival' } });
  });

  it("a found tool outside the turn's stage is refused (RCP_TOOL_NOT_IN_STAGE): nothing is sent", async () => {
    searchingModel('create a refund', { note: 'x' });
    const agent = agentOf({ stages: { support: ['listCustomer', 'getCustomer'] }, turn: (context) => context as OpenAIAgentsTurn<Ctx> });
    const result = await runner().run(agent, 'refund it', { context: { ctx: { userId: 'u-verified' }, stage: 'support' } });
    expect(JSON.parse(result.finalOutput!)).toMatchObject({ ok: false, error: { code: 'RCP_TOOL_NOT_IN_STAGE' } });
    expect(apiCalls()).toEqual([]);
  });

  it('a spoofed resolver-bound argument through a found tool is refused: nothing is sent', async () => {
    searchingModel('create a refund', { note: 'x', userId: 'u-victim' });
    const result = await runner().run(agentOf(), 'refund it', { context: { userId: 'u-verified' } });
    expect(JSON.parse(result.finalOutput!)).toMatchObject({ ok: false, error: { code: 'RCP_INVALID_ARGUMENTS' } });
    expect(apiCalls()).toEqual([]);
  });

  it('a deferred tool called before a search loaded it is refused by the SDK: nothing is sent', async () => {
    fake.route('POST /v1/responses', (_request, res) => sendJson(res, 200, call('c1', 'deleteCustomer', {})));
    await expect(runner().run(agentOf(), 'delete the customer', { context: { userId: 'u-verified' } })).rejects.toBeInstanceOf(ModelBehaviorError);
    expect(apiCalls()).toEqual([]);
  });

  it('refuses tools made without deferLoading (RCP_INVALID_OPTIONS)', () => {
    expect(() => rcpToolSearchTool(createOpenAIAgentsTools(rcpClient, discovery))).toThrow(expect.objectContaining({ code: 'RCP_INVALID_OPTIONS' }));
  });
});
