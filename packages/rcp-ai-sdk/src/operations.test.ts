/**
 * Long-running operations on the AI SDK (SPEC §20.8): the real `generateText` with the real OpenAI
 * provider (`@ai-sdk/openai`, Responses API) at a loopback model fake, and the shared operation API
 * (a `202` with a `Location`, running until the test finishes it). Beside a long-running tool the
 * model has `check_operation`; its call with the pending result's handle gets the result, and the
 * same call in another user's turn gets RCP_INVALID_HANDLE's sentence, nothing sent.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs } from 'ai';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRcpClient, RcpError, toModelResult } from 'rcp-client';
import { type ModelFake, type ModelRequest, startModelFake } from 'rcp-model-fake';
import { OPERATION_RESULT, operationManifest, serveManifest, startOperationApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { createAISDKTools } from './index';
import { createAISDKToolSearch } from './search';

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
const model = () => createOpenAI({ apiKey: 'sk-test', baseURL: fake.baseURL })('gpt-test');
/** The handle in the pending result the model was sent last. */
const handleIn = (request: ModelRequest): string => JSON.parse(request.toolResults.at(-1)!.text).pending.handle;

it('offers check_operation beside a long-running tool: pending with a handle, then the result for its user only', async () => {
  let handle = '';
  fake.script(
    { toolCalls: [{ id: 'c1', name: 'render_video', arguments: { prompt: 'a lighthouse' } }] },
    (request) => {
      handle = handleIn(request);
      finish();
      return { toolCalls: [{ id: 'c2', name: 'check_operation', arguments: { handle } }] };
    },
    { text: 'Done.' },
  );
  const rcpClient = client();
  const rcp = createAISDKTools(rcpClient, await rcpClient.discover(manifestUrl));
  expect(Object.keys(rcp.tools)).toEqual(['render_video', 'get_status', 'check_operation']);
  const result = await generateText({
    model: model(),
    tools: rcp.tools,
    prompt: 'Render a lighthouse.',
    stopWhen: stepCountIs(3),
    experimental_context: { userId: 'ada' },
  });
  expect(result.text).toBe('Done.');
  expect(fake.requests[0]!.toolNames).toEqual(['render_video', 'get_status', 'check_operation']);
  expect(result.steps[0]!.toolResults[0]!.output).toMatchObject({
    ok: true,
    data: { id: 'j-1', status: 'queued' },
    pending: { handle, checkAfterSeconds: 60 },
  });
  expect(JSON.parse(fake.requests[1]!.toolResults.at(-1)!.text)).toMatchObject({ pending: { handle } });
  expect(result.steps[1]!.toolResults.map((part) => [part.toolName, part.output])).toEqual([['check_operation', { ok: true, data: OPERATION_RESULT }]]);
  expect(JSON.parse(fake.requests[2]!.toolResults.at(-1)!.text)).toEqual({ ok: true, data: OPERATION_RESULT });
  expect(toolRequestLines(api)).toEqual(['POST /renders', 'GET /jobs/j-1']);

  // Another user's turn with the same handle: refused, nothing sent.
  api.reset();
  fake.script({ toolCalls: [{ id: 'c3', name: 'check_operation', arguments: { handle } }] }, { text: 'Not yours.' });
  const bob = await generateText({ model: model(), tools: rcp.tools, prompt: 'Check it.', stopWhen: stepCountIs(2), experimental_context: { userId: 'bob' } });
  expect(bob.steps[0]!.toolResults[0]!.output).toEqual(toModelResult(new RcpError('RCP_INVALID_HANDLE', 'x')));
  expect(JSON.parse(fake.requests[4]!.toolResults.at(-1)!.text)).toEqual(toModelResult(new RcpError('RCP_INVALID_HANDLE', 'x')));
  expect(api.requests).toHaveLength(0);
});

it('a tool set or a stage without a long-running tool is as before: no check tool', async () => {
  const rcpClient = client();
  const discovery = await rcpClient.discover(manifestUrl);
  const plain = createAISDKTools(rcpClient, discovery, { only: ['get_status'] });
  expect(Object.keys(plain.tools)).toEqual(['get_status']);
  expect(Object.keys(plain.toolApproval)).toEqual(['get_status']);
  const staged = createAISDKTools(rcpClient, discovery, { stages: { read: ['get_status'], render: ['render_video'] } });
  expect(staged.activeTools('read')).toEqual(['get_status']);
  expect(staged.activeTools('render')).toEqual(['render_video', 'check_operation']);
  expect(await staged.toolApproval.check_operation!({ handle: 'rcp1.x' }, { toolCallId: 'c1' })).toBe('not-applicable');
});

it('a discovered tool named check_operation keeps its name: no second one', async () => {
  const own = { name: 'check_operation', description: "The API's own check.", method: 'GET', url: '/status' };
  const rcpClient = client();
  const rcp = createAISDKTools(
    rcpClient,
    await rcpClient.discover(serveManifest(api, { ...operationManifest, tools: [...operationManifest.tools, own] }, '/rcp/own')),
  );
  expect(Object.entries(rcp.tools).map(([name, tool]) => [name, tool.description])).toEqual([
    ['render_video', 'Renders a video from a prompt.'],
    ['get_status', 'Gets the status.'],
    ['check_operation', "The API's own check."],
  ]);
});

it('with tool search (rcp-ai-sdk/search) the check is always active: no search finds it', async () => {
  const rcpClient = client();
  const discovery = await rcpClient.discover(manifestUrl);
  expect(createAISDKToolSearch(createAISDKTools(rcpClient, discovery)).activeTools([])).toEqual(['search_tools', 'check_operation']);
  expect(createAISDKToolSearch(createAISDKTools(rcpClient, discovery, { only: ['get_status'] })).activeTools([])).toEqual(['search_tools']);
});
