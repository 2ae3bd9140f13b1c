/**
 * Deferred loading on AI SDK 6: the real `generateText` with the real OpenAI provider at a
 * loopback fake Responses API, over a 500-operation API imported with rcp-openapi and served on
 * 127.0.0.1. The fake model reads only what it is sent (the search tool's answer) to pick the
 * tool it calls; the API's log is the judge of what was called.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient, type RcpClient, type RcpDiscovery } from 'rcp-client';
import { fromOpenApi } from 'rcp-openapi';
import { largeCatalogOpenApi, sendJson, serveManifest, startTestServer, type TestServer } from 'rcp-test-utils';
import { createAISDKTools, type AISDKTurn } from './index';
import { createAISDKToolSearch } from './search';

type Ctx = { userId: string };
let api: TestServer;
let fake: TestServer;
let discovery: RcpDiscovery;
let rcpClient: RcpClient<Ctx>;
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

type InputItem = { type?: string; call_id?: string; output?: unknown };
type SentTool = { name: string };
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
const says = (text: string) =>
  response([{ type: 'message', id: `msg_${fake.count}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }]);

/**
 * The scripted model: searches for `query`, then calls the first tool the search answer names
 * with `args` (read from what it was sent, nothing else), then answers with what it was sent back.
 */
function searchingModel(query: string, args: Record<string, unknown>) {
  fake.route('POST /v1/responses', (request, res) => {
    const outputs = (request.json as { input: InputItem[] }).input.filter((item) => item.type === 'function_call_output');
    if (outputs.length === 0) return sendJson(res, 200, call('s1', 'search_tools', { query, limit: 3 }));
    if (outputs.length === 1) {
      const { tools } = JSON.parse(outputs[0]!.output as string) as { tools: { name: string }[] };
      return sendJson(res, 200, call('c1', tools[0]!.name, args));
    }
    return sendJson(res, 200, says(String(outputs[1]!.output)));
  });
  return createOpenAI({ apiKey: 'sk-test', baseURL: fake.url('/v1') })('gpt-test');
}
const toolsSent = (index: number) => ((fake.requests[index]!.json as { tools?: SentTool[] }).tools ?? []).map((tool) => tool.name);
const apiCalls = () => api.requests.filter((request) => request.path !== '/rcp/manifest');

/** The client that discovered the API (its resolvers decide which params the model never sees). */
const client = () => rcpClient;

describe('createAISDKToolSearch through generateText (500 imported tools)', () => {
  it('the model searches, then calls a tool it found: the server receives exactly that call', async () => {
    const deferred = createAISDKToolSearch(createAISDKTools(client(), discovery));
    const result = await generateText({
      model: searchingModel('create a refund', { note: 'damaged on arrival' }),
      tools: deferred.tools,
      prepareStep: deferred.prepareStep,
      stopWhen: stepCountIs(5),
      prompt: 'My parcel arrived damaged: refund it.',
      experimental_context: { userId: 'u-verified' },
    });
    // Step 1 sends one tool, not 501; step 2 the search tool and the three found.
    expect(toolsSent(0)).toEqual(['search_tools']);
    expect(toolsSent(1).sort()).toEqual(deferred.activeTools(result.steps).sort());
    expect(toolsSent(1)).toHaveLength(4);
    expect(toolsSent(1)).toContain('createRefund');
    expect(JSON.stringify(fake.requests.map((request) => request.json))).not.toContain('userId');
    expect(apiCalls().map(({ method, path, json }) => ({ method, path, json }))).toEqual([
      { method: 'POST', path: '/v1/users/u-verified/refunds/create', json: { note: 'damaged on arrival' } },
    ]);
    expect(JSON.parse(result.text)).toEqual({ ok: true, data: { refunded: true, note: 'damaged on arrival' } });
  });

  it("a found tool outside the turn's stage is refused (RCP_TOOL_NOT_IN_STAGE): nothing is sent", async () => {
    const rcp = createAISDKTools(client(), discovery, {
      stages: { support: ['listCustomer', 'getCustomer'] },
      turn: (context) => context as AISDKTurn<Ctx>,
    });
    const deferred = createAISDKToolSearch(rcp);
    const result = await generateText({
      model: searchingModel('create a refund', { note: 'x' }),
      tools: deferred.tools,
      prepareStep: deferred.prepareStep,
      stopWhen: stepCountIs(5),
      prompt: 'refund it',
      experimental_context: { ctx: { userId: 'u-verified' }, stage: 'support' },
    });
    expect(result.steps[1]!.toolResults[0]).toMatchObject({ toolName: 'createRefund', output: { ok: false, error: { code: 'RCP_TOOL_NOT_IN_STAGE' } } });
    expect(apiCalls()).toEqual([]);
  });

  it('a spoofed resolver-bound argument through a found tool is refused: nothing is sent', async () => {
    const deferred = createAISDKToolSearch(createAISDKTools(client(), discovery));
    const result = await generateText({
      model: searchingModel('create a refund', { note: 'x', userId: 'u-victim' }),
      tools: deferred.tools,
      prepareStep: deferred.prepareStep,
      stopWhen: stepCountIs(5),
      prompt: 'refund it',
      experimental_context: { userId: 'u-verified' },
    });
    const errors = result.steps[1]!.content.filter((part) => part.type === 'tool-error');
    expect(errors).toMatchObject([{ toolName: 'createRefund' }]);
    expect(String((errors[0] as { error: unknown }).error)).toContain('/userId is not a parameter of this tool');
    expect(apiCalls()).toEqual([]);
  });

  it('a tool the model names without having found it is not active: the AI SDK refuses it, nothing is sent', async () => {
    const deferred = createAISDKToolSearch(createAISDKTools(client(), discovery));
    fake.route('POST /v1/responses', (_request, res) => sendJson(res, 200, fake.count === 1 ? call('c1', 'deleteCustomer', {}) : says('ok')));
    const result = await generateText({
      model: createOpenAI({ apiKey: 'sk-test', baseURL: fake.url('/v1') })('gpt-test'),
      tools: deferred.tools,
      prepareStep: deferred.prepareStep,
      stopWhen: stepCountIs(3),
      prompt: 'delete the customer',
      experimental_context: { userId: 'u-verified' },
    });
    expect(result.steps[0]!.content.filter((part) => part.type === 'tool-error')).toMatchObject([{ toolName: 'deleteCustomer' }]);
    expect(apiCalls()).toEqual([]);
  });

  it('bad search arguments are a tool error the model reads; an unknown alwaysActive is RCP_INVALID_OPTIONS', async () => {
    const rcp = createAISDKTools(client(), discovery);
    const deferred = createAISDKToolSearch(rcp, { alwaysActive: ['getCustomer'] });
    expect(deferred.activeTools([])).toEqual(['search_tools', 'getCustomer']);
    await expect(deferred.tools.search_tools.execute!({ query: 'x', limit: 0 }, { toolCallId: 't', messages: [] })).rejects.toMatchObject({
      code: 'RCP_INVALID_ARGUMENTS',
    });
    expect(() => createAISDKToolSearch(rcp, { alwaysActive: ['nope'] })).toThrow(expect.objectContaining({ code: 'RCP_INVALID_OPTIONS' }));
  });
});
