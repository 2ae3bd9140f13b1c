/**
 * Streamed answers on the AI SDK (SPEC §20.6): the real `streamText` / `generateText` with the real
 * OpenAI provider (`@ai-sdk/openai`, Responses API) pointed at a loopback fake of the model API,
 * against the shared stream API (1,000 SSE events). The fake model's requests are the judge of
 * what the model reads; the stream API's log of what was called.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, streamText, type TypedToolResult } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient, createToolSet } from 'rcp-client';
import { type ModelFake, startModelFake } from 'rcp-model-fake';
import { STREAM_EVENTS, STREAM_TEXT, startStreamApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { createAISDKTools, type AISDKTools } from './index';

let api: TestServer;
let manifestUrl: string;
let fake: ModelFake;
beforeEach(async () => {
  ({ server: api, manifestUrl } = await startStreamApi());
  fake = await startModelFake({
    turns: [
      {
        toolCalls: [
          { id: 'c1', name: 'stream_answer', arguments: {} },
          { id: 'c2', name: 'get_status', arguments: {} },
        ],
      },
      { text: 'Done.' },
    ],
  });
});
afterEach(async () => {
  await Promise.all([api.close(), fake.close()]);
});

const model = () => createOpenAI({ apiKey: 'sk-test', baseURL: fake.baseURL })('gpt-test');

/** What the fake model was sent for `callId`: the `output` of its function_call_output item. */
function sentBack(callId: string): unknown {
  const input = fake.requests[1]!.body.input as { type?: string; call_id?: string; output?: unknown }[];
  return input.find((item) => item.type === 'function_call_output' && item.call_id === callId)?.output;
}

async function tools(): Promise<AISDKTools> {
  const client = createRcpClient();
  return createAISDKTools(client, await client.discover(manifestUrl));
}

describe('a streamed tool on the AI SDK', () => {
  it("streamText's full stream shows its progress as preliminary results, then the collected result; the model reads that only", async () => {
    const rcp = await tools();
    const results: TypedToolResult<AISDKTools['tools']>[] = [];
    const run = streamText({ model: model(), tools: rcp.tools, prompt: 'answer', stopWhen: stepCountIs(2) });
    for await (const part of run.fullStream) if (part.type === 'tool-result') results.push(part);
    expect(await run.text).toBe('Done.');

    const final = { ok: true, data: STREAM_TEXT };
    const streamed = results.filter((part) => part.toolCallId === 'c1');
    const progress = streamed.filter((part) => part.preliminary === true && 'progress' in part.output).map((part) => part.output);
    // Progress is the latest count when the AI SDK asks for it: fewer than one per event, never more.
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.length).toBeLessThan(STREAM_EVENTS);
    const counts = progress.map((output) => ('progress' in output ? output.progress : undefined)!);
    expect(counts.every((seen, index) => index === 0 || (seen.events > counts[index - 1]!.events && seen.bytes > counts[index - 1]!.bytes))).toBe(true);
    expect(counts.at(-1)!.events).toBeLessThanOrEqual(STREAM_EVENTS);
    expect(Object.keys(counts[0]!).sort()).toEqual(['bytes', 'events']);
    // The AI SDK's contract: the last yield is a preliminary result too, then the final one.
    expect(streamed.slice(-2).map((part) => [part.preliminary ?? false, part.output])).toEqual([
      [true, final],
      [false, final],
    ]);
    expect((await run.steps)[0]!.toolResults.find((part) => part.toolCallId === 'c1')!.output).toEqual(final);
    expect(JSON.parse(sentBack('c1') as string)).toEqual(final);

    // A tool that does not stream returns its result once: no preliminary result.
    expect(results.filter((part) => part.toolCallId === 'c2').map((part) => [part.preliminary ?? false, part.output])).toEqual([
      [false, { ok: true, data: { status: 'ok' } }],
    ]);
    expect(toolRequestLines(api)).toEqual(['POST /answer', 'GET /status']);
  });

  it('generateText gets the collected result', async () => {
    const rcp = await tools();
    const result = await generateText({ model: model(), tools: rcp.tools, prompt: 'answer', stopWhen: stepCountIs(2) });
    expect(result.steps[0]!.toolResults.map((part) => [part.toolCallId, part.output])).toEqual([
      ['c1', { ok: true, data: STREAM_TEXT }],
      ['c2', { ok: true, data: { status: 'ok' } }],
    ]);
    expect(result.text).toBe('Done.');
    expect(toolRequestLines(api)).toEqual(['POST /answer', 'GET /status']);
  });

  it('a stream that breaks ends in the error result: nothing partial, no server text', async () => {
    api.route('POST /answer', (_request, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`${'data: {"delta":{"text":"a"}}\n\n'.repeat(3)}event: error\ndata: {"secret":"server text"}\n\n`);
    });
    const rcp = await tools();
    const results: TypedToolResult<AISDKTools['tools']>[] = [];
    const run = streamText({ model: model(), tools: rcp.tools, prompt: 'answer', stopWhen: stepCountIs(2) });
    for await (const part of run.fullStream) if (part.type === 'tool-result' && part.toolCallId === 'c1') results.push(part);
    const final = results.at(-1)!;
    expect(final.preliminary).toBeUndefined();
    expect(final.output).toMatchObject({ ok: false, error: { code: 'RCP_INVALID_RESPONSE' } });
    expect(JSON.stringify(results.map((part) => part.output))).not.toContain('server text');
    expect(JSON.parse(sentBack('c1') as string)).toMatchObject({ ok: false, error: { code: 'RCP_INVALID_RESPONSE' } });
  });

  it('a tool set built beforehand (createToolSet) reports progress too: the tool declares its stream (tool.stream)', async () => {
    const client = createRcpClient();
    const rcp = createAISDKTools(client, createToolSet(await client.discover(manifestUrl)));
    const results: TypedToolResult<AISDKTools['tools']>[] = [];
    const run = streamText({ model: model(), tools: rcp.tools, prompt: 'answer', stopWhen: stepCountIs(2) });
    for await (const part of run.fullStream) if (part.type === 'tool-result' && part.toolCallId === 'c1') results.push(part);
    const final = { ok: true, data: STREAM_TEXT };
    expect(results.filter((part) => part.preliminary === true && 'progress' in part.output).length).toBeGreaterThan(1);
    expect(results.at(-1)!.output).toEqual(final);
    expect(results.at(-1)!.preliminary).toBeUndefined();
    expect(JSON.parse(sentBack('c1') as string)).toEqual(final);
  });
});
