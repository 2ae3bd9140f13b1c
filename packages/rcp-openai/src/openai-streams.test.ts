/**
 * Streamed answers on the OpenAI stack (SPEC §20.6): the real `openai` SDK (Chat Completions) at a
 * loopback model fake, and the shared stream API (1,000 SSE events). The stack has no progress
 * channel for a tool: the model is sent the collected result, and `onProgress` in the execute
 * options (`runToolCalls(calls, ctx, { onProgress })`) is how the application sees progress.
 */
import OpenAI from 'openai';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRcpClient, type RcpStreamProgress } from 'rcp-client';
import { type ModelFake, startModelFake } from 'rcp-model-fake';
import { STREAM_EVENTS, STREAM_TEXT, startStreamApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { createOpenAITools } from './index';

let api: TestServer;
let manifestUrl: string;
let fake: ModelFake;
beforeEach(async () => {
  ({ server: api, manifestUrl } = await startStreamApi());
  fake = await startModelFake({ turns: [{ toolCalls: [{ id: 'call_1', name: 'stream_answer', arguments: {} }] }, { text: 'Done.' }] });
});
afterEach(async () => {
  await Promise.all([api.close(), fake.close()]);
});

it('a streamed tool: the model is sent the collected result; onProgress passes through the execute options', async () => {
  const client = createRcpClient();
  const rcp = createOpenAITools(client, await client.discover(manifestUrl));
  const openai = new OpenAI({ apiKey: 'sk-test', baseURL: fake.baseURL, maxRetries: 0 });
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Answer.' }];
  const first = await openai.chat.completions.create({ model: 'gpt-test', messages, tools: rcp.chatTools });
  const progress: RcpStreamProgress[] = [];
  const toolMessages = await rcp.runToolCalls(first.choices[0]!.message.tool_calls, undefined, { onProgress: (seen) => progress.push(seen) });
  messages.push(first.choices[0]!.message, ...toolMessages);
  await openai.chat.completions.create({ model: 'gpt-test', messages, tools: rcp.chatTools });

  const sent = (fake.requests[1]!.body.messages as { role: string; tool_call_id?: string; content?: string }[]).find((message) => message.role === 'tool')!;
  expect(sent.tool_call_id).toBe('call_1');
  expect(JSON.parse(sent.content!)).toEqual({ ok: true, data: STREAM_TEXT });
  expect(progress.map((seen) => seen.events)).toEqual(Array.from({ length: STREAM_EVENTS }, (_, index) => index + 1));
  expect(toolRequestLines(api)).toEqual(['POST /answer']);
});
