/**
 * Long-running operations on LangChain (SPEC §20.8): a real LangChain v1 agent (`createAgent`, its
 * ToolNode, `@langchain/core`'s `fakeModel`) against the shared operation API (a `202` with a
 * `Location`, running until the test finishes it). Beside a long-running tool the agent has
 * `check_operation`; the model's call of it with the pending result's handle gets the result, and
 * the same call in another user's run gets RCP_INVALID_HANDLE's sentence, nothing sent.
 */
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createAgent } from 'langchain';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRcpClient, createToolSet, RcpError, toModelResult } from 'rcp-client';
import { OPERATION_RESULT, operationManifest, serveManifest, startOperationApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { createLangChainTools } from './index';
import { createLangChainToolSelector } from './tool-selector';

let api: TestServer;
let manifestUrl: string;
let finish: () => void;
beforeEach(async () => {
  ({ server: api, manifestUrl, finish } = await startOperationApi());
});
afterEach(async () => {
  await api.close();
});

type Ctx = { userId: string };
const client = () => createRcpClient<Ctx>({ resolvers: { userId: (ctx) => ctx.userId } });
const toolMessages = (messages: readonly BaseMessage[]) => messages.filter((message) => ToolMessage.isInstance(message));

it('offers check_operation beside a long-running tool: pending with a handle, then the result for its user only', async () => {
  let handle = '';
  const model = fakeModel()
    .respondWithTools([{ id: 'c1', name: 'render_video', args: { prompt: 'a lighthouse' } }])
    .respond((messages) => {
      handle = JSON.parse(toolMessages(messages).at(-1)!.content as string).pending.handle;
      finish();
      return new AIMessage({ content: '', tool_calls: [{ id: 'c2', name: 'check_operation', args: { handle } }] });
    })
    .respond(new AIMessage('Done.'));
  const rcpClient = client();
  const tools = createLangChainTools(rcpClient, await rcpClient.discover(manifestUrl));
  expect(tools.map((tool) => tool.name)).toEqual(['render_video', 'get_status', 'check_operation']);
  const agent = createAgent({ model, tools });
  const result = await agent.invoke({ messages: [new HumanMessage('Render a lighthouse.')] }, { configurable: { userId: 'ada' } });

  const [pending, checked] = toolMessages(result.messages);
  expect(JSON.parse(pending!.content as string)).toMatchObject({ ok: true, data: { id: 'j-1', status: 'queued' }, pending: { handle, checkAfterSeconds: 60 } });
  expect(checked).toMatchObject({ tool_call_id: 'c2', name: 'check_operation', status: 'success' });
  expect(JSON.parse(checked!.content as string)).toEqual({ ok: true, data: OPERATION_RESULT });
  expect(result.messages.at(-1)!.content).toBe('Done.');
  expect(toolRequestLines(api)).toEqual(['POST /renders', 'GET /jobs/j-1']);

  // Another user's run with the same handle: refused, nothing sent.
  api.reset();
  const bobModel = fakeModel()
    .respondWithTools([{ id: 'c3', name: 'check_operation', args: { handle } }])
    .respond(new AIMessage('Not yours.'));
  const bob = await createAgent({ model: bobModel, tools }).invoke({ messages: [new HumanMessage('Check it.')] }, { configurable: { userId: 'bob' } });
  const [refused] = toolMessages(bob.messages);
  expect(refused).toMatchObject({ tool_call_id: 'c3', status: 'error' });
  expect(JSON.parse(refused!.content as string)).toEqual(toModelResult(new RcpError('RCP_INVALID_HANDLE', 'x')));
  expect(api.requests).toHaveLength(0);
});

it('a tool set without a long-running tool is as before: no check tool', async () => {
  const rcpClient = client();
  const tools = createLangChainTools(rcpClient, await rcpClient.discover(manifestUrl), { only: ['get_status'] });
  expect(tools.map((tool) => tool.name)).toEqual(['get_status']);
});

it('a discovered tool named check_operation keeps its name: no second one', async () => {
  const own = { name: 'check_operation', description: "The API's own check.", method: 'GET', url: '/status' };
  const rcpClient = client();
  const tools = createLangChainTools(
    rcpClient,
    await rcpClient.discover(serveManifest(api, { ...operationManifest, tools: [...operationManifest.tools, own] }, '/rcp/own')),
  );
  expect(tools.map((tool) => [tool.name, tool.description])).toEqual([
    ['render_video', 'Renders a video from a prompt.'],
    ['get_status', 'Gets the status.'],
    ['check_operation', "The API's own check."],
  ]);
});

it('the tool selector keeps the check bound: no search finds it', async () => {
  const rcpClient = client();
  const toolSet = createToolSet(await rcpClient.discover(manifestUrl));
  const selector = createLangChainToolSelector(rcpClient, { toolSet, search: async () => [] });
  expect(selector.tools.map((tool) => tool.name)).toEqual(['render_video', 'get_status', 'check_operation']);
  const bound = await selector.middleware.wrapModelCall({ messages: [new HumanMessage('Render.')], tools: selector.tools }, (request) => request.tools);
  expect(bound!.map((tool) => (tool as { name: string }).name)).toEqual(['check_operation']);
});
