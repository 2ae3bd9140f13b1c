/**
 * Long-running operations on the OpenAI Agents SDK (SPEC §20.8): a real `Runner` whose model is the
 * `openai` client at a loopback fake of the Responses API, and the shared operation API (a `202`
 * with a `Location`, running until the test finishes it). Beside a long-running tool the agent has
 * `check_operation`; the model's call of it with the pending result's handle gets the result, and
 * the same call in another user's run gets RCP_INVALID_HANDLE's sentence, nothing sent.
 */
import OpenAI from 'openai';
import { Agent, OpenAIProvider, Runner } from '@openai/agents';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRcpClient, RcpError, toModelResult } from 'rcp-client';
import { type ModelFake, type ModelRequest, startModelFake } from 'rcp-model-fake';
import { OPERATION_RESULT, operationManifest, serveManifest, startOperationApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { createOpenAIAgentsTools } from './index';
import { rcpToolSearchTool } from './search';

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
const client = () => createRcpClient<Ctx>({ resolvers: { userId: (ctx) => ctx.userId } });
const runner = () =>
  new Runner({
    modelProvider: new OpenAIProvider({ openAIClient: new OpenAI({ apiKey: 'sk-test', baseURL: fake.baseURL, maxRetries: 0 }) }),
    tracingDisabled: true,
  });
/** The handle in the pending result the model was sent last. */
const handleIn = (request: ModelRequest): string => JSON.parse(request.toolResults.at(-1)!.text).pending.handle;

it('offers check_operation beside a long-running tool: pending with a handle, then the result for its user only', async () => {
  let handle = '';
  fake.script(
    { toolCalls: [{ id: 'call_1', name: 'render_video', arguments: { prompt: 'a lighthouse' } }] },
    (request) => {
      handle = handleIn(request);
      finish();
      return { toolCalls: [{ id: 'call_2', name: 'check_operation', arguments: { handle } }] };
    },
    { text: 'Done.' },
  );
  const rcpClient = client();
  const rcp = createOpenAIAgentsTools(rcpClient, await rcpClient.discover(manifestUrl));
  expect(rcp.warnings).toEqual([]);
  const agent = new Agent<Ctx>({ name: 'Videos', instructions: 'Render videos.', model: 'gpt-test', tools: rcp.tools });
  const result = await runner().run(agent, 'Render a lighthouse.', { context: { userId: 'ada' } });
  expect(result.finalOutput).toBe('Done.');
  expect(fake.requests[0]!.toolNames).toEqual(['render_video', 'get_status', 'check_operation']);
  expect(JSON.parse(fake.requests[1]!.toolResults.at(-1)!.text)).toMatchObject({
    ok: true,
    data: { id: 'j-1', status: 'queued' },
    pending: { handle, checkAfterSeconds: 60 },
  });
  expect(fake.requests[2]!.toolResults.at(-1)!.callId).toBe('call_2');
  expect(JSON.parse(fake.requests[2]!.toolResults.at(-1)!.text)).toEqual({ ok: true, data: OPERATION_RESULT });
  expect(toolRequestLines(api)).toEqual(['POST /renders', 'GET /jobs/j-1']);

  // Another user's run with the same handle: refused, nothing sent.
  api.reset();
  fake.script({ toolCalls: [{ id: 'call_3', name: 'check_operation', arguments: { handle } }] }, { text: 'Not yours.' });
  await runner().run(agent, 'Check that render.', { context: { userId: 'bob' } });
  expect(JSON.parse(fake.requests[4]!.toolResults.at(-1)!.text)).toEqual(toModelResult(new RcpError('RCP_INVALID_HANDLE', 'x')));
  expect(api.requests).toHaveLength(0);
});

it('a tool set or a stage without a long-running tool is as before: no check tool', async () => {
  const rcpClient = client();
  const discovery = await rcpClient.discover(manifestUrl);
  expect(createOpenAIAgentsTools(rcpClient, discovery, { only: ['get_status'] }).tools.map((tool) => tool.name)).toEqual(['get_status']);
  const staged = createOpenAIAgentsTools(rcpClient, discovery, { stages: { read: ['get_status'], render: ['render_video'] } });
  expect(staged.stageTools('read').map((tool) => tool.name)).toEqual(['get_status']);
  expect(staged.stageTools('render').map((tool) => tool.name)).toEqual(['render_video', 'check_operation']);
  expect(staged.warnings).toEqual([]);
});

it('a discovered tool named check_operation keeps its name: no second one, a warning', async () => {
  const own = { name: 'check_operation', description: "The API's own check.", method: 'GET', url: '/status' };
  const rcpClient = client();
  const rcp = createOpenAIAgentsTools(
    rcpClient,
    await rcpClient.discover(serveManifest(api, { ...operationManifest, tools: [...operationManifest.tools, own] }, '/rcp/own')),
  );
  expect(rcp.tools.map((tool) => [tool.name, tool.description])).toEqual([
    ['render_video', 'Renders a video from a prompt.'],
    ['get_status', 'Gets the status.'],
    ['check_operation', "The API's own check."],
  ]);
  expect(rcp.warnings).toEqual([
    'Tool "check_operation": a tool of the set has this name, so the check of pending operations is not offered; check them in the application with client.resume',
  ]);
});

it('with deferred loading the check stays loaded, and rcp-search’s tool search takes the tools', async () => {
  const rcpClient = client();
  const rcp = createOpenAIAgentsTools(rcpClient, await rcpClient.discover(manifestUrl), { deferLoading: true });
  expect(rcp.tools.map((tool) => [tool.name, tool.deferLoading === true])).toEqual([
    ['render_video', true],
    ['get_status', true],
    ['check_operation', false],
  ]);
  expect(rcpToolSearchTool(rcp).name).toBe('tool_search');
});
