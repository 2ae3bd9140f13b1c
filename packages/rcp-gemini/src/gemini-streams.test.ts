/**
 * Streamed answers on the Gemini stack (SPEC §20.6): the real `@google/genai` client
 * (`generateContent` at a loopback fake of the Gemini API) and the shared stream API (1,000 SSE
 * events). The stack has no progress channel for a function call: the model is sent the collected
 * result, and `onProgress` in the execute options (`runFunctionCalls(calls, ctx, { onProgress })`)
 * is how the application sees progress.
 */
import { GoogleGenAI, type Content } from '@google/genai';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRcpClient, type RcpStreamProgress } from 'rcp-client';
import { STREAM_EVENTS, STREAM_TEXT, sendJson, startStreamApi, startTestServer, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { createGeminiTools } from './index';

let api: TestServer;
let manifestUrl: string;
let fake: TestServer;
beforeEach(async () => {
  ({ server: api, manifestUrl } = await startStreamApi());
  fake = await startTestServer();
});
afterEach(async () => {
  await Promise.all([api.close(), fake.close()]);
});

const MODEL = 'gemini-test';
type SentBody = { contents: { role: string; parts: { functionResponse?: { id?: string; name: string; response: Record<string, unknown> } }[] }[] };

it('a streamed tool: the model is sent the collected result; onProgress passes through the execute options', async () => {
  fake.route(`POST /v1beta/models/${MODEL}:generateContent`, (request, res) => {
    const first = (request.json as SentBody).contents.length === 1;
    const parts = first ? [{ functionCall: { id: 'c1', name: 'stream_answer', args: {} } }] : [{ text: 'Done.' }];
    sendJson(res, 200, { candidates: [{ content: { role: 'model', parts } }] });
  });
  const client = createRcpClient();
  const rcp = createGeminiTools(client, await client.discover(manifestUrl));
  const ai = new GoogleGenAI({ apiKey: 'test-key', vertexai: false, httpOptions: { baseUrl: fake.origin } });
  const config = { tools: [{ functionDeclarations: rcp.functionDeclarations }] };
  const contents: Content[] = [{ role: 'user', parts: [{ text: 'Answer.' }] }];
  const first = await ai.models.generateContent({ model: MODEL, contents, config });
  const progress: RcpStreamProgress[] = [];
  const parts = await rcp.runFunctionCalls(first.functionCalls, undefined, { onProgress: (seen) => progress.push(seen) });
  contents.push(first.candidates![0]!.content!, { role: 'user', parts });
  expect((await ai.models.generateContent({ model: MODEL, contents, config })).text).toBe('Done.');

  const sent = (fake.requests[1]!.json as SentBody).contents.at(-1)!.parts.map((part) => part.functionResponse);
  expect(sent).toEqual([{ id: 'c1', name: 'stream_answer', response: { ok: true, data: STREAM_TEXT } }]);
  expect(progress.map((seen) => seen.events)).toEqual(Array.from({ length: STREAM_EVENTS }, (_, index) => index + 1));
  expect(toolRequestLines(api)).toEqual(['POST /answer']);
});
