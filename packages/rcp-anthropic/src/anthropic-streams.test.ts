/**
 * Streamed answers on the Anthropic stack (SPEC §20.6): the real `@anthropic-ai/sdk` (Messages) at
 * a loopback model fake, and the shared stream API (1,000 SSE events). The stack has no progress
 * channel for a tool: the model is sent the collected result, and `onProgress` in the execute
 * options (`runToolUses(content, ctx, { onProgress })`) is how the application sees progress.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRcpClient, type RcpStreamProgress } from 'rcp-client';
import { type ModelFake, startModelFake } from 'rcp-model-fake';
import { STREAM_EVENTS, STREAM_TEXT, startStreamApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { createAnthropicTools } from './index';

let api: TestServer;
let manifestUrl: string;
let fake: ModelFake;
beforeEach(async () => {
  ({ server: api, manifestUrl } = await startStreamApi());
  fake = await startModelFake({ turns: [{ toolCalls: [{ id: 'toolu_1', name: 'stream_answer', arguments: {} }] }, { text: 'Done.' }] });
});
afterEach(async () => {
  await Promise.all([api.close(), fake.close()]);
});

it('a streamed tool: the model is sent the collected result; onProgress passes through the execute options', async () => {
  const client = createRcpClient();
  const rcp = createAnthropicTools(client, await client.discover(manifestUrl));
  const anthropic = new Anthropic({ apiKey: 'sk-ant-test', baseURL: fake.origin, maxRetries: 0 });
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Answer.' }];
  const first = await anthropic.messages.create({ model: 'claude-test', max_tokens: 100, messages, tools: rcp.tools });
  const progress: RcpStreamProgress[] = [];
  const results = await rcp.runToolUses(first.content, undefined, { onProgress: (seen) => progress.push(seen) });
  messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: results });
  await anthropic.messages.create({ model: 'claude-test', max_tokens: 100, messages, tools: rcp.tools });

  const sent = (fake.requests[1]!.body.messages as { content: { type: string; tool_use_id?: string; content?: string }[] }[]).at(-1)!.content;
  expect(sent.map((block) => [block.type, block.tool_use_id])).toEqual([['tool_result', 'toolu_1']]);
  expect(JSON.parse(sent[0]!.content!)).toEqual({ ok: true, data: STREAM_TEXT });
  expect(progress.map((seen) => seen.events)).toEqual(Array.from({ length: STREAM_EVENTS }, (_, index) => index + 1));
  expect(toolRequestLines(api)).toEqual(['POST /answer']);
});
