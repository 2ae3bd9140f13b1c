/**
 * Long-running operations on the Anthropic stack (SPEC §20.8): the real `@anthropic-ai/sdk`
 * (Messages) at a loopback model fake, and the shared operation API (a `202` with a `Location`,
 * running until the test finishes it). Beside a long-running tool the model is offered
 * `check_operation`; its call with the pending result's handle gets the result, and another user's
 * call gets RCP_INVALID_HANDLE's sentence, nothing sent.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRcpClient, RcpError, toModelResult } from 'rcp-client';
import { type ModelFake, type ModelRequest, startModelFake } from 'rcp-model-fake';
import { OPERATION_RESULT, operationManifest, serveManifest, startOperationApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { createAnthropicTools } from './index';
import { createAnthropicToolSearch } from './search';

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
const anthropic = () => new Anthropic({ apiKey: 'sk-ant-test', baseURL: fake.origin, maxRetries: 0 });
/** The handle in the pending result the model was sent last. */
const handleIn = (request: ModelRequest): string => JSON.parse(request.toolResults.at(-1)!.text).pending.handle;

it('offers check_operation beside a long-running tool: pending with a handle, then the result for its user only', async () => {
  fake.script(
    { toolCalls: [{ id: 'toolu_1', name: 'render_video', arguments: { prompt: 'a lighthouse' } }] },
    (request) => ({ toolCalls: [{ id: 'toolu_2', name: 'check_operation', arguments: { handle: handleIn(request) } }] }),
    { text: 'Done.' },
  );
  const rcpClient = client();
  const rcp = createAnthropicTools(rcpClient, await rcpClient.discover(manifestUrl));
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Render a lighthouse.' }];
  const ask = async () => (await anthropic().messages.create({ model: 'claude-test', max_tokens: 100, messages, tools: rcp.tools })).content;

  const first = await ask();
  messages.push({ role: 'assistant', content: first }, { role: 'user', content: await rcp.runToolUses(first, ADA) });
  expect(fake.requests[0]!.toolNames).toEqual(['render_video', 'get_status', 'check_operation']);
  finish();
  const second = await ask();
  const checked = await rcp.runToolUses(second, ADA);
  // The same call from another user: the handle is not theirs, and nothing is sent.
  const sentBefore = api.requests.length;
  const [bob] = await rcp.runToolUses(second, { userId: 'bob' });
  expect(api.requests).toHaveLength(sentBefore);
  messages.push({ role: 'assistant', content: second }, { role: 'user', content: checked });
  expect(await ask()).toMatchObject([{ type: 'text', text: 'Done.' }]);

  const [pending] = fake.requests[1]!.toolResults;
  expect(JSON.parse(pending!.text)).toMatchObject({ ok: true, data: { id: 'j-1', status: 'queued' }, pending: { checkAfterSeconds: 60 } });
  expect(pending!.isError).toBe(false);
  expect(fake.requests[2]!.toolResults.at(-1)).toMatchObject({ callId: 'toolu_2', isError: false });
  expect(JSON.parse(fake.requests[2]!.toolResults.at(-1)!.text)).toEqual({ ok: true, data: OPERATION_RESULT });
  expect(bob).toMatchObject({ tool_use_id: 'toolu_2', is_error: true });
  expect(JSON.parse(bob!.content as string)).toEqual(toModelResult(new RcpError('RCP_INVALID_HANDLE', 'x')));
  expect(toolRequestLines(api)).toEqual(['POST /renders', 'GET /jobs/j-1']);
});

it('a tool set without a long-running tool is as before: no check tool', async () => {
  const rcpClient = client();
  const rcp = createAnthropicTools(rcpClient, await rcpClient.discover(manifestUrl), { only: ['get_status'] });
  expect(rcp.tools.map((tool) => tool.name)).toEqual(['get_status']);
  const [answer] = await rcp.runToolUses([{ type: 'tool_use', id: 'toolu_1', name: 'check_operation', input: { handle: 'rcp1.x' } }], ADA);
  expect(JSON.parse(answer!.content as string)).toMatchObject({ ok: false, error: { code: 'RCP_UNKNOWN_TOOL' } });
});

it('a discovered tool named check_operation keeps its name: no second one, its calls go to the API', async () => {
  const own = { name: 'check_operation', description: "The API's own check.", method: 'GET', url: '/status' };
  const rcpClient = client();
  const rcp = createAnthropicTools(
    rcpClient,
    await rcpClient.discover(serveManifest(api, { ...operationManifest, tools: [...operationManifest.tools, own] }, '/rcp/own')),
  );
  api.reset();
  expect(rcp.tools.map((tool) => [tool.name, tool.description])).toEqual([
    ['render_video', 'Renders a video from a prompt.'],
    ['get_status', 'Gets the status.'],
    ['check_operation', "The API's own check."],
  ]);
  const [answer] = await rcp.runToolUses([{ type: 'tool_use', id: 'toolu_1', name: 'check_operation', input: {} }], ADA);
  expect(JSON.parse(answer!.content as string)).toEqual({ ok: true, data: { status: 'ok' } });
  expect(toolRequestLines(api)).toEqual(['GET /status']);
});

it('with tool search (rcp-anthropic/search) the check stays loaded: only the set’s tools are deferred', async () => {
  const rcpClient = client();
  const rcp = createAnthropicToolSearch(rcpClient, await rcpClient.discover(manifestUrl));
  expect(rcp.tools.map((tool) => [tool.name, 'defer_loading' in tool])).toEqual([
    ['search_tools', false],
    ['render_video', true],
    ['get_status', true],
    ['check_operation', false],
  ]);
});
