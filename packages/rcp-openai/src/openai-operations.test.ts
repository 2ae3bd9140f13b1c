/**
 * Long-running operations on the OpenAI stack (SPEC §20.8): the real `openai` SDK at a loopback
 * model fake, and the shared operation API (a `202` with a `Location`, running until the test
 * finishes it). Beside a long-running tool the model is offered `check_operation`; its call with
 * the pending result's handle gets the result, and another user's call gets RCP_INVALID_HANDLE's
 * sentence, nothing sent.
 */
import OpenAI from 'openai';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRcpClient, toModelResult, RcpError } from 'rcp-client';
import { type ModelFake, type ModelRequest, startModelFake } from 'rcp-model-fake';
import { OPERATION_RESULT, operationManifest, serveManifest, startOperationApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { createOpenAITools } from './index';
import { createOpenAIToolSearch } from './search';

let api: TestServer;
let manifestUrl: string;
let finish: () => void;
let fake: ModelFake;
beforeEach(async () => {
  ({ server: api, manifestUrl, finish } = await startOperationApi());
  fake = await startModelFake();
});
afterEach(async () => {
  await Promise.all([api.close(), fake.close()]);
});

type Ctx = { userId: string };
const ADA: Ctx = { userId: 'ada' };
const client = () => createRcpClient<Ctx>({ resolvers: { userId: (ctx) => ctx.userId } });
const openai = () => new OpenAI({ apiKey: 'sk-test', baseURL: fake.baseURL, maxRetries: 0 });
/** The handle in the pending result the model was sent last. */
const handleIn = (request: ModelRequest): string => JSON.parse(request.toolResults.at(-1)!.text).pending.handle;
const INVALID_HANDLE = toModelResult(new RcpError('RCP_INVALID_HANDLE', 'x'));

it('offers check_operation beside a long-running tool: pending with a handle, then the result for its user only', async () => {
  fake.script(
    { toolCalls: [{ id: 'call_1', name: 'render_video', arguments: { prompt: 'a lighthouse' } }] },
    (request) => ({ toolCalls: [{ id: 'call_2', name: 'check_operation', arguments: { handle: handleIn(request) } }] }),
    { text: 'Done.' },
  );
  const rcpClient = client();
  const rcp = createOpenAITools(rcpClient, await rcpClient.discover(manifestUrl));
  expect(rcp.responsesTools.map((tool) => tool.name)).toEqual(['render_video', 'get_status', 'check_operation']);
  expect(rcp.warnings).toEqual([]);
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Render a lighthouse.' }];
  const ask = async () => (await openai().chat.completions.create({ model: 'gpt-test', messages, tools: rcp.chatTools })).choices[0]!.message;

  const first = await ask();
  messages.push(first, ...(await rcp.runToolCalls(first.tool_calls, ADA)));
  expect(fake.requests[0]!.toolNames).toEqual(['render_video', 'get_status', 'check_operation']);
  finish();
  const second = await ask();
  const checked = await rcp.runToolCalls(second.tool_calls, ADA);
  // The same call from another user: the handle is not theirs, and nothing is sent.
  const sentBefore = api.requests.length;
  const bob = await rcp.runToolCalls(second.tool_calls, { userId: 'bob' });
  expect(api.requests).toHaveLength(sentBefore);
  messages.push(second, ...checked);
  expect((await ask()).content).toBe('Done.');

  const pending = JSON.parse(fake.requests[1]!.toolResults[0]!.text);
  expect(pending).toMatchObject({ ok: true, data: { id: 'j-1', status: 'queued' }, pending: { checkAfterSeconds: 60 } });
  expect(pending.pending.handle).toMatch(/^rcp1\./);
  expect(fake.requests[2]!.toolResults.map((result) => [result.callId, JSON.parse(result.text)])).toEqual([
    ['call_1', pending],
    ['call_2', { ok: true, data: OPERATION_RESULT }],
  ]);
  expect(JSON.parse(bob[0]!.content)).toEqual(INVALID_HANDLE);
  expect(toolRequestLines(api)).toEqual(['POST /renders', 'GET /jobs/j-1']);
  expect(api.requests.filter((request) => request.path !== '/rcp/manifest').map((request) => request.headers['x-user'])).toEqual(['ada', 'ada']);
});

it('a tool set without a long-running tool is as before: no check tool, no warning', async () => {
  const rcpClient = client();
  const rcp = createOpenAITools(rcpClient, await rcpClient.discover(manifestUrl), { only: ['get_status'] });
  expect(rcp.chatTools.map((tool) => tool.function.name)).toEqual(['get_status']);
  expect(rcp.responsesNamespacedTools.map((tool) => tool.name)).toEqual(['get_status']);
  expect(rcp.warnings).toEqual([]);
  const [answer] = await rcp.runToolCalls([{ id: 'call_1', type: 'function', function: { name: 'check_operation', arguments: '{"handle":"rcp1.x"}' } }], ADA);
  expect(JSON.parse(answer!.content)).toMatchObject({ ok: false, error: { code: 'RCP_UNKNOWN_TOOL' } });
});

it('a discovered tool named check_operation keeps its name: no second one, a warning, its calls go to the API', async () => {
  const own = { name: 'check_operation', description: "The API's own check.", method: 'GET', url: '/status' };
  const rcpClient = client();
  const discovery = await rcpClient.discover(serveManifest(api, { ...operationManifest, tools: [...operationManifest.tools, own] }, '/rcp/own'));
  const rcp = createOpenAITools(rcpClient, discovery);
  api.reset();
  expect(rcp.chatTools.map((tool) => [tool.function.name, tool.function.description])).toEqual([
    ['render_video', 'Renders a video from a prompt.'],
    ['get_status', 'Gets the status.'],
    ['check_operation', "The API's own check."],
  ]);
  expect(rcp.warnings).toEqual([
    'Tool "check_operation": a tool of the set has this name, so the check of pending operations is not offered; check them in the application with client.resume',
  ]);
  const [answer] = await rcp.runToolCalls([{ id: 'call_1', type: 'function', function: { name: 'check_operation', arguments: '{}' } }], ADA);
  expect(JSON.parse(answer!.content)).toEqual({ ok: true, data: { status: 'ok' } });
  expect(toolRequestLines(api)).toEqual(['GET /status']);
});

it('with tool search (rcp-openai/search) the check is offered beside tool_search: no search finds it', async () => {
  const rcpClient = client();
  const discovery = await rcpClient.discover(manifestUrl);
  expect(createOpenAIToolSearch(rcpClient, discovery).responsesTools.map((tool) => (tool.type === 'function' ? tool.name : tool.type))).toEqual([
    'tool_search',
    'check_operation',
  ]);
  expect(createOpenAIToolSearch(rcpClient, discovery, { only: ['get_status'] }).responsesTools.map((tool) => tool.type)).toEqual(['tool_search']);
});
