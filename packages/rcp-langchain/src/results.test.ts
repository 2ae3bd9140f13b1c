/**
 * Issue 24 on LangChain: what a result carries reaches the model through a real LangChain v1
 * agent (`createAgent`, its ToolNode, `@langchain/core`'s `fakeModel`) and LangGraph's
 * `ToolNode`, against the shared results API (rcp-test-utils), whose log is checked.
 */
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage, type ContentBlock } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { MemorySaver } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { createAgent } from 'langchain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient, type RcpCallOutcome } from 'rcp-client';
import {
  RESULTS_ARCHIVE_BYTES,
  RESULTS_MAX_MEDIA_BYTES,
  RESULTS_RECORDS,
  RESULTS_RETRY_AFTER_SECONDS,
  pdfBytes,
  pngBytes,
  sha256,
  startResultsApi,
  toolRequestLines,
  type TestServer,
} from 'rcp-test-utils';
import { createLangChainTools } from './index';

let api: TestServer;
let manifestUrl: string;
beforeEach(async () => {
  ({ server: api, manifestUrl } = await startResultsApi());
});
afterEach(async () => {
  await api.close();
});

async function resultsTools() {
  const client = createRcpClient({ retry: 0, maxMediaBytes: RESULTS_MAX_MEDIA_BYTES });
  return createLangChainTools(client, await client.discover(manifestUrl));
}

/** Every request the API received past the manifest, with its query. */
const received = () => api.requests.filter((request) => request.path !== '/rcp/manifest').map((request) => `${request.method} ${request.url}`);

const toolMessagesOf = (messages: readonly BaseMessage[]) => messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));

/** The model-facing JSON of a ToolMessage: its text (the only content, or the text block beside a media block). */
function modelJson(message: ToolMessage): any {
  const { content } = message;
  if (typeof content === 'string') return JSON.parse(content);
  const text = content.find((block) => block.type === 'text') as ContentBlock.Text;
  return JSON.parse(text.text);
}

describe('media results as standard content blocks', () => {
  it('a PNG and a PDF reach the model as an image block and a file block with the exact bytes; the outcome is the artifact', async () => {
    const model = fakeModel()
      .respondWithTools([
        { id: 'c1', name: 'get_chart', args: {} },
        { id: 'c2', name: 'get_report', args: {} },
      ])
      .respond(new AIMessage('The chart and the report are in.'));
    // With a checkpointer, as an app runs it: the artifact (bytes included) is kept with the run's state.
    const checkpointer = new MemorySaver();
    const agent = createAgent({ model, tools: await resultsTools(), checkpointer });
    const config = { configurable: { thread_id: 't-1' } };
    const state = await agent.invoke({ messages: [new HumanMessage('Get the chart and the report.')] }, config);

    // What the model was sent on its second turn: the two tool messages, as the agent built them.
    const sent = toolMessagesOf(model.calls[1]!.messages);
    expect(sent.map((message) => [message.tool_call_id, message.status])).toEqual([
      ['c1', 'success'],
      ['c2', 'success'],
    ]);
    const [chart, report] = sent.map((message) => message.content as ContentBlock.Standard[]);
    expect(chart).toEqual([
      { type: 'text', text: `{"ok":true,"data":null,"media":{"mediaType":"image/png","size":${pngBytes().byteLength}}}` },
      { type: 'image', mimeType: 'image/png', data: expect.any(String) },
    ]);
    expect(report).toEqual([
      { type: 'text', text: `{"ok":true,"data":null,"media":{"mediaType":"application/pdf","size":${pdfBytes().byteLength}}}` },
      { type: 'file', mimeType: 'application/pdf', data: expect.any(String) },
    ]);
    expect(sha256({ base64: (chart![1] as ContentBlock.Multimodal.Image).data as string })).toBe(sha256(pngBytes()));
    expect(sha256({ base64: (report![1] as ContentBlock.Multimodal.File).data as string })).toBe(sha256(pdfBytes()));
    // No base64 in the text the model reads.
    expect((chart![0] as ContentBlock.Text).text).not.toContain((chart![1] as ContentBlock.Multimodal.Image).data);

    // The application reads the whole outcome (the bytes, the tool) from the artifact.
    const [chartOutcome] = toolMessagesOf(state.messages).map((message) => message.artifact as RcpCallOutcome);
    expect(chartOutcome).toMatchObject({ ok: true, tool: { name: 'get_chart' }, result: { media: { mediaType: 'image/png' } } });
    expect(chartOutcome!.ok && sha256(chartOutcome!.result.media!.bytes)).toBe(sha256(pngBytes()));
    const snapshot = (await agent.getState(config)) as unknown as { values: { messages: BaseMessage[] } };
    const kept = toolMessagesOf(snapshot.values.messages);
    expect(sha256({ base64: ((kept[0]!.content as ContentBlock.Standard[])[1] as ContentBlock.Multimodal.Image).data as string })).toBe(sha256(pngBytes()));
    expect(received()).toEqual(['GET /chart.png', 'GET /report.pdf']);
  });

  it("through LangGraph's ToolNode too, and invoked with plain arguments the tool returns the same blocks", async () => {
    const tools = await resultsTools();
    const asked = new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'get_chart', args: {} }] });
    const { messages } = (await new ToolNode(tools).invoke({ messages: [asked] })) as { messages: ToolMessage[] };
    const [, image] = messages[0]!.content as ContentBlock.Standard[];
    expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(sha256({ base64: (image as ContentBlock.Multimodal.Image).data as string })).toBe(sha256(pngBytes()));
    const plain = (await tools.find((tool) => tool.name === 'get_report')!.invoke({})) as ContentBlock.Standard[];
    expect(sha256({ base64: (plain[1] as ContentBlock.Multimodal.File).data as string })).toBe(sha256(pdfBytes()));
    expect(received()).toEqual(['GET /chart.png', 'GET /report.pdf']);
  });

  it('a binary larger than maxMediaBytes is a typed error the model reads, with no bytes', async () => {
    const model = fakeModel()
      .respondWithTools([{ id: 'c1', name: 'get_archive', args: {} }])
      .respond(new AIMessage('Too big.'));
    await createAgent({ model, tools: await resultsTools() }).invoke({ messages: [new HumanMessage('Download the archive.')] });
    const [archive] = toolMessagesOf(model.calls[1]!.messages);
    expect(archive).toMatchObject({ status: 'error', content: expect.any(String) });
    expect(modelJson(archive!)).toEqual({
      ok: false,
      error: {
        code: 'RCP_RESPONSE_TOO_LARGE',
        message: `The tool answered with application/octet-stream of ${RESULTS_ARCHIVE_BYTES} bytes, more than the ${RESULTS_MAX_MEDIA_BYTES} bytes the client passes on.`,
      },
    });
    expect(received()).toEqual(['GET /archive.bin']);
  });
});

it('a long Retry-After reaches the model as retryAfterSeconds (data) and in the sentence', async () => {
  const model = fakeModel()
    .respondWithTools([{ id: 'c1', name: 'get_busy', args: {} }])
    .respond(new AIMessage('Busy; later.'));
  await createAgent({ model, tools: await resultsTools() }).invoke({ messages: [new HumanMessage('How is the queue?')] });
  const [busy] = toolMessagesOf(model.calls[1]!.messages);
  expect(busy!.status).toBe('error');
  expect(modelJson(busy!)).toMatchObject({
    ok: false,
    error: {
      code: 'RCP_HTTP_ERROR',
      retryAfterSeconds: RESULTS_RETRY_AFTER_SECONDS,
      message: expect.stringContaining(`It asks to be called again in ${RESULTS_RETRY_AFTER_SECONDS} seconds.`),
    },
  });
  expect(received()).toEqual(['GET /busy']);
});

it('a scripted model walks list_records to its last page using only what each result says', async () => {
  let turn = 0;
  /** The model's next turn, from the last tool message alone: its page's nextArguments, or the answer. */
  const readPage = (messages: BaseMessage[]) => {
    const result = modelJson(messages.at(-1) as ToolMessage);
    if (result.page?.hasMore === true)
      return new AIMessage({ content: '', tool_calls: [{ id: `c${++turn}`, name: 'list_records', args: result.page.nextArguments }] });
    return new AIMessage('That was every record.');
  };
  const model = fakeModel()
    .respondWithTools([{ id: 'c0', name: 'list_records', args: {} }])
    .respond(readPage)
    .respond(readPage)
    .respond(readPage);
  const state = await createAgent({ model, tools: await resultsTools() }).invoke({ messages: [new HumanMessage('List every record.')] });
  const pages = toolMessagesOf(state.messages).map(modelJson);
  expect(pages.map((page) => page.page)).toEqual([
    { hasMore: true, nextArguments: { cursor: 'c2' } },
    { hasMore: true, nextArguments: { cursor: 'c4' } },
    { hasMore: false, nextArguments: null },
  ]);
  expect(pages.flatMap((page) => page.data.records)).toEqual(RESULTS_RECORDS);
  expect(state.messages.at(-1)!.content).toBe('That was every record.');
  expect(model.callCount).toBe(4);
  expect(received()).toEqual(['GET /records', 'GET /records?cursor=c2', 'GET /records?cursor=c4']);
  expect(toolRequestLines(api)).toHaveLength(3);
});
