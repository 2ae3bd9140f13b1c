/**
 * Streamed answers on the OpenAI Agents SDK (SPEC §20.6): a real `Runner` whose model is the
 * `openai` client at a loopback fake of the Responses API, and the shared stream API (1,000 SSE
 * events). A function tool of `@openai/agents` 0.14 has no progress channel: the model is sent
 * the collected result.
 */
import OpenAI from 'openai';
import { Agent, OpenAIProvider, Runner } from '@openai/agents';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { type ModelFake, startModelFake } from 'rcp-model-fake';
import { STREAM_TEXT, startStreamApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { createOpenAIAgentsTools } from './index';

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

it('a streamed tool: the model is sent the collected result', async () => {
  const client = createRcpClient();
  const rcp = createOpenAIAgentsTools(client, await client.discover(manifestUrl));
  const agent = new Agent({ name: 'Answers', instructions: 'Answer.', model: 'gpt-test', tools: rcp.tools });
  const runner = new Runner({
    modelProvider: new OpenAIProvider({ openAIClient: new OpenAI({ apiKey: 'sk-test', baseURL: fake.baseURL, maxRetries: 0 }) }),
    tracingDisabled: true,
  });
  const result = await runner.run(agent, 'Answer at length.');
  expect(result.finalOutput).toBe('Done.');
  const sent = fake.requests[1]!.toolResults.find((item) => item.callId === 'call_1')!;
  expect(JSON.parse(sent.text)).toEqual({ ok: true, data: STREAM_TEXT });
  expect(toolRequestLines(api)).toEqual(['POST /answer']);
});
