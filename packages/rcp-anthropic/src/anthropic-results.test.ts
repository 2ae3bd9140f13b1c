/**
 * Results on the Anthropic stack (docs/behaviour.md; SPEC §18.3, §18.4): the real SDK against a loopback fake
 * of the Messages API, and the shared results API (rcp-test-utils), so the bytes and pages are
 * the ones every stack is checked against.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { type ModelFake, type ModelScriptStep, startModelFake } from 'rcp-model-fake';
import {
  pdfBytes,
  pngBytes,
  RESULTS_MAX_MEDIA_BYTES,
  RESULTS_RECORDS,
  RESULTS_RETRY_AFTER_SECONDS,
  sha256,
  startResultsApi,
  type TestServer,
} from 'rcp-test-utils';
import { createAnthropicTools } from './index';

let results: TestServer;
let manifestUrl: string;
let fake: ModelFake;
beforeEach(async () => {
  ({ server: results, manifestUrl } = await startResultsApi());
});
afterEach(async () => {
  await Promise.all([results.close(), fake.close()]);
});

/** The client, the tools, and the Anthropic SDK at a model fake that answers every request with `model`. */
async function setup(model: ModelScriptStep = { text: 'Done.' }) {
  const client = createRcpClient({ retry: 0, maxMediaBytes: RESULTS_MAX_MEDIA_BYTES });
  const rcp = createAnthropicTools(client, await client.discover(manifestUrl));
  results.reset();
  fake = await startModelFake({ fallback: model });
  const anthropic = new Anthropic({ apiKey: 'sk-ant-test', baseURL: fake.origin, maxRetries: 0 });
  return { rcp, anthropic };
}

type Block = { type: string; text?: string; content?: string | Block[]; source?: { type: string; media_type: string; data: string }; tool_use_id?: string };
type SentMessage = { role: string; content: string | Block[] };
/** The tool_result blocks of the last user message the SDK sent to the fake. */
function sentToolResults(index = -1): Block[] {
  const messages = fake.requests.at(index)!.body.messages as SentMessage[];
  const last = messages.at(-1)!;
  return (last.content as Block[]).filter((block) => block.type === 'tool_result');
}
/** What the model reads as text of a tool_result: its string content, or its text block. */
function textOf(block: Block): string {
  if (typeof block.content === 'string') return block.content;
  return block.content!.find((part) => part.type === 'text')!.text!;
}
const resultsRequests = () => results.requests.map((request) => `${request.method} ${request.url}`);

describe('media: an image and a PDF reach the Messages API as image and document blocks inside tool_result', () => {
  it('the PNG is a base64 image block, the PDF a base64 document block, each beside the text; the bytes hash the same', async () => {
    const { rcp, anthropic } = await setup();
    const uses = [
      { type: 'tool_use', id: 'toolu_1', name: 'get_chart', input: {} },
      { type: 'tool_use', id: 'toolu_2', name: 'get_report', input: {} },
    ];
    const toolResults = await rcp.runToolUses(uses);
    await anthropic.messages.create({
      model: 'claude-test',
      max_tokens: 100,
      tools: rcp.tools,
      messages: [
        { role: 'user', content: 'Show me the chart and the report.' },
        { role: 'assistant', content: uses as Anthropic.ToolUseBlockParam[] },
        { role: 'user', content: toolResults },
      ],
    });
    const [chart, report] = sentToolResults();
    expect(chart).toMatchObject({ tool_use_id: 'toolu_1', is_error: false });
    const [chartText, image] = chart!.content as Block[];
    expect(JSON.parse(chartText!.text!)).toEqual({ ok: true, data: null, media: { mediaType: 'image/png', size: pngBytes().byteLength } });
    expect(image).toMatchObject({ type: 'image', source: { type: 'base64', media_type: 'image/png' } });
    expect(sha256({ base64: image!.source!.data })).toBe(sha256(pngBytes()));

    const [reportText, document] = report!.content as Block[];
    expect(JSON.parse(reportText!.text!)).toEqual({ ok: true, data: null, media: { mediaType: 'application/pdf', size: pdfBytes().byteLength } });
    expect(document).toMatchObject({ type: 'document', source: { type: 'base64', media_type: 'application/pdf' } });
    expect(sha256({ base64: document!.source!.data })).toBe(sha256(pdfBytes()));
    // The bytes are in the media blocks only, never in the text.
    expect(chartText!.text).not.toContain(image!.source!.data.slice(0, 16));
    expect(resultsRequests()).toEqual(['GET /chart.png', 'GET /report.pdf']);
  });

  it('an oversize binary is an is_error result the model reads (its type, size and the limit); a long Retry-After is in the text', async () => {
    const { rcp } = await setup();
    const [archive, busy] = await rcp.runToolUses([
      { type: 'tool_use', id: 'toolu_1', name: 'get_archive', input: {} },
      { type: 'tool_use', id: 'toolu_2', name: 'get_busy', input: {} },
    ]);
    expect(archive!.is_error).toBe(true);
    expect(JSON.parse(archive!.content as string)).toEqual({
      ok: false,
      error: {
        code: 'RCP_RESPONSE_TOO_LARGE',
        message: `The tool answered with application/octet-stream of 4096 bytes, more than the ${RESULTS_MAX_MEDIA_BYTES} bytes the client passes on.`,
      },
    });
    expect(busy!.is_error).toBe(true);
    expect(JSON.parse(busy!.content as string)).toMatchObject({
      ok: false,
      error: { code: 'RCP_HTTP_ERROR', retryAfterSeconds: RESULTS_RETRY_AFTER_SECONDS },
    });
    expect((JSON.parse(busy!.content as string) as { error: { message: string } }).error.message).toContain('again in 120 seconds');
    expect(resultsRequests()).toEqual(['GET /archive.bin', 'GET /busy']);
  });
});

describe('pages: a scripted model walks list_records to its last page using only what each result says', () => {
  it('each next call copies page.nextArguments from the tool_result the SDK sent; the API received exactly those calls', async () => {
    let turn = 0;
    const { rcp, anthropic } = await setup((request) => {
      const last = (request.body.messages as SentMessage[]).at(-1)!;
      if (typeof last.content === 'string') return { toolCalls: [{ id: `toolu_${++turn}`, name: 'list_records' }] };
      const said = JSON.parse(textOf((last.content as Block[])[0]!)) as { page: { hasMore: boolean; nextArguments: Record<string, unknown> } };
      if (!said.page.hasMore) return { text: 'That was every record.' };
      return { toolCalls: [{ id: `toolu_${++turn}`, name: 'list_records', arguments: said.page.nextArguments }] };
    });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'List every record.' }];
    const seen: string[] = [];
    for (let step = 0; step < 8; step++) {
      const reply = await anthropic.messages.create({ model: 'claude-test', max_tokens: 100, messages, tools: rcp.tools });
      messages.push({ role: 'assistant', content: reply.content });
      if (reply.stop_reason !== 'tool_use') break;
      const answered = await rcp.runToolUses(reply.content);
      for (const result of answered)
        seen.push(...(JSON.parse(result.content as string) as { data: { records: { id: string }[] } }).data.records.map((record) => record.id));
      messages.push({ role: 'user', content: answered });
    }
    expect(seen).toEqual(RESULTS_RECORDS.map((record) => record.id));
    expect(resultsRequests()).toEqual(['GET /records', 'GET /records?cursor=c2', 'GET /records?cursor=c4']);
    expect(fake.requests).toHaveLength(4);
    const finalSaid = JSON.parse(textOf(sentToolResults()[0]!)) as { page: unknown };
    expect(finalSaid.page).toEqual({ hasMore: false, nextArguments: null });
  });
});
