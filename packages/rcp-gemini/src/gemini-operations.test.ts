/**
 * Long-running operations on the Gemini stack (SPEC §20.8): the real `@google/genai` client
 * (`generateContent` at a loopback fake of the Gemini API) and the shared operation API (a `202`
 * with a `Location`, running until the test finishes it). Beside a long-running tool the model is
 * offered `check_operation`; its call with the pending result's handle gets the result, and another
 * user's call gets RCP_INVALID_HANDLE's sentence, nothing sent.
 */
import { GoogleGenAI, type Content } from '@google/genai';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRcpClient, RcpError, toModelResult } from 'rcp-client';
import {
  OPERATION_RESULT,
  operationManifest,
  sendJson,
  serveManifest,
  startOperationApi,
  startTestServer,
  toolRequestLines,
  type TestServer,
} from 'rcp-test-utils';
import { createGeminiTools } from './index';

let api: TestServer;
let manifestUrl: string;
let finish: () => void;
let fake: TestServer;
beforeEach(async () => {
  ({ server: api, manifestUrl, finish } = await startOperationApi());
  fake = await startTestServer();
});
afterEach(async () => {
  await Promise.all([api.close(), fake.close()]);
});

const MODEL = 'gemini-test';
type FunctionResponse = { id?: string; name: string; response: Record<string, unknown> };
type SentBody = {
  contents: { role: string; parts: { functionResponse?: FunctionResponse }[] }[];
  tools: { functionDeclarations: { name: string }[] }[];
};
type Ctx = { userId: string };
const ADA: Ctx = { userId: 'ada' };
const client = () => createRcpClient<Ctx>({ resolvers: { userId: (ctx) => ctx.userId } });
const sentResponses = (index: number) => (fake.requests[index]!.json as SentBody).contents.at(-1)!.parts.map((part) => part.functionResponse!);

it('offers check_operation beside a long-running tool: pending with a handle, then the result for its user only', async () => {
  // The scripted model: render, then check with the handle it was given, then done.
  fake.route(`POST /v1beta/models/${MODEL}:generateContent`, (request, res) => {
    const { contents } = request.json as SentBody;
    const last = contents.at(-1)!.parts[0]!.functionResponse;
    const parts =
      contents.length === 1
        ? [{ functionCall: { id: 'c1', name: 'render_video', args: { prompt: 'a lighthouse' } } }]
        : last?.name === 'render_video'
          ? [{ functionCall: { id: 'c2', name: 'check_operation', args: { handle: (last.response.pending as { handle: string }).handle } } }]
          : [{ text: 'Done.' }];
    sendJson(res, 200, { candidates: [{ content: { role: 'model', parts } }] });
  });
  const rcpClient = client();
  const rcp = createGeminiTools(rcpClient, await rcpClient.discover(manifestUrl));
  expect(rcp.warnings).toEqual([]);
  const ai = new GoogleGenAI({ apiKey: 'test-key', vertexai: false, httpOptions: { baseUrl: fake.origin } });
  const config = { tools: [{ functionDeclarations: rcp.functionDeclarations }] };
  const contents: Content[] = [{ role: 'user', parts: [{ text: 'Render a lighthouse.' }] }];

  const first = await ai.models.generateContent({ model: MODEL, contents, config });
  contents.push(first.candidates![0]!.content!, { role: 'user', parts: await rcp.runFunctionCalls(first.functionCalls, ADA) });
  expect((fake.requests[0]!.json as SentBody).tools[0]!.functionDeclarations.map((declaration) => declaration.name)).toEqual([
    'render_video',
    'get_status',
    'check_operation',
  ]);
  finish();
  const second = await ai.models.generateContent({ model: MODEL, contents, config });
  const checked = await rcp.runFunctionCalls(second.functionCalls, ADA);
  // The same call from another user: the handle is not theirs, and nothing is sent.
  const sentBefore = api.requests.length;
  const [bob] = await rcp.runFunctionCalls(second.functionCalls, { userId: 'bob' });
  expect(api.requests).toHaveLength(sentBefore);
  contents.push(second.candidates![0]!.content!, { role: 'user', parts: checked });
  expect((await ai.models.generateContent({ model: MODEL, contents, config })).text).toBe('Done.');

  const [pending] = sentResponses(1);
  expect(pending).toMatchObject({
    id: 'c1',
    name: 'render_video',
    response: { ok: true, data: { id: 'j-1', status: 'queued' }, pending: { checkAfterSeconds: 60 } },
  });
  expect(sentResponses(2)).toEqual([{ id: 'c2', name: 'check_operation', response: { ok: true, data: OPERATION_RESULT } }]);
  expect(bob!.functionResponse).toEqual({ id: 'c2', name: 'check_operation', response: toModelResult(new RcpError('RCP_INVALID_HANDLE', 'x')) });
  expect(toolRequestLines(api)).toEqual(['POST /renders', 'GET /jobs/j-1']);
});

it('a tool set without a long-running tool is as before: no check declaration, no warning', async () => {
  const rcpClient = client();
  const rcp = createGeminiTools(rcpClient, await rcpClient.discover(manifestUrl), { only: ['get_status'] });
  expect(rcp.functionDeclarations.map((declaration) => declaration.name)).toEqual(['get_status']);
  expect(rcp.warnings).toEqual([]);
  const [answer] = await rcp.runFunctionCalls([{ id: 'c1', name: 'check_operation', args: { handle: 'rcp1.x' } }], ADA);
  expect(answer!.functionResponse.response).toMatchObject({ ok: false, error: { code: 'RCP_UNKNOWN_TOOL' } });
});

it('a discovered tool named check_operation keeps its name: no second one, a warning, its calls go to the API', async () => {
  const own = { name: 'check_operation', description: "The API's own check.", method: 'GET', url: '/status' };
  const rcpClient = client();
  const rcp = createGeminiTools(
    rcpClient,
    await rcpClient.discover(serveManifest(api, { ...operationManifest, tools: [...operationManifest.tools, own] }, '/rcp/own')),
    {
      form: 'parameters',
    },
  );
  api.reset();
  expect(rcp.functionDeclarations.map((declaration) => [declaration.name, declaration.description])).toEqual([
    ['render_video', 'Renders a video from a prompt.'],
    ['get_status', 'Gets the status.'],
    ['check_operation', "The API's own check."],
  ]);
  expect(rcp.warnings).toEqual([
    'Tool "check_operation": a tool of the set has this name, so the check of pending operations is not offered; check them in the application with client.resume',
  ]);
  const [answer] = await rcp.runFunctionCalls([{ id: 'c1', name: 'check_operation', args: {} }], ADA);
  expect(answer!.functionResponse.response).toEqual({ ok: true, data: { status: 'ok' } });
  expect(toolRequestLines(api)).toEqual(['GET /status']);
});
