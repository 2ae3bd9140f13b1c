/**
 * Streamed answers on LangGraph (SPEC §20.6): a real LangChain v1 agent (`createAgent`, its
 * ToolNode, `@langchain/core`'s `fakeModel`) streamed with `streamMode: 'custom'`, against the
 * shared stream API (1,000 SSE events), whose log is checked.
 */
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createAgent } from 'langchain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { STREAM_EVENTS, STREAM_TEXT, startStreamApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { createLangChainTools, type LangChainToolProgress } from './index';

let api: TestServer;
let manifestUrl: string;
beforeEach(async () => {
  ({ server: api, manifestUrl } = await startStreamApi());
});
afterEach(async () => {
  await api.close();
});

async function streamTools() {
  const client = createRcpClient();
  return createLangChainTools(client, await client.discover(manifestUrl));
}

describe('a streamed tool in a LangGraph run', () => {
  it("writes each event's progress to the custom stream; the tool message holds the collected result", async () => {
    const model = fakeModel()
      .respondWithTools([
        { id: 'c1', name: 'stream_answer', args: {} },
        { id: 'c2', name: 'get_status', args: {} },
      ])
      .respond(new AIMessage('Done.'));
    const agent = createAgent({ model, tools: await streamTools() });
    const custom: unknown[] = [];
    const messages: ToolMessage[] = [];
    const stream = await agent.stream({ messages: [new HumanMessage('Answer.')] }, { streamMode: ['custom', 'updates'] });
    for await (const [mode, chunk] of stream) {
      if (mode === 'custom') custom.push(chunk);
      else
        for (const update of Object.values(chunk as Record<string, { messages?: unknown[] }>))
          messages.push(...(update.messages ?? []).filter((message) => ToolMessage.isInstance(message)));
    }

    const progress = custom as LangChainToolProgress[];
    expect(progress).toHaveLength(STREAM_EVENTS);
    expect(
      progress.every((seen, index) => seen.type === 'rcp_progress' && seen.tool === 'stream_answer' && seen.toolCallId === 'c1' && seen.events === index + 1),
    ).toBe(true);
    expect(Object.keys(progress[0]!).sort()).toEqual(['bytes', 'events', 'tool', 'toolCallId', 'type']);
    expect(progress.at(-1)!.bytes).toBeGreaterThan(progress[0]!.bytes);
    // Only the streamed tool writes; the model reads each tool's collected result.
    // (The agent runs each tool call as its own task: their messages come in the order they finish.)
    const results = messages
      .map((message) => [message.tool_call_id, JSON.parse(message.content as string)])
      .sort(([a], [b]) => String(a).localeCompare(String(b)));
    expect(results).toEqual([
      ['c1', { ok: true, data: STREAM_TEXT }],
      ['c2', { ok: true, data: { status: 'ok' } }],
    ]);
    expect(toolRequestLines(api).sort()).toEqual(['GET /status', 'POST /answer']);
  });

  it('invoked outside a graph (no writer), it returns the collected result', async () => {
    const [streamAnswer] = await streamTools();
    const message = (await streamAnswer!.invoke({ name: 'stream_answer', args: {}, id: 'c1', type: 'tool_call' })) as ToolMessage;
    expect(JSON.parse(message.content as string)).toEqual({ ok: true, data: STREAM_TEXT });
    expect(toolRequestLines(api)).toEqual(['POST /answer']);
  });
});
