/**
 * Results on the OpenAI stack (docs/behaviour.md; SPEC §18.3, §18.4): the real SDK against a loopback fake of
 * Chat Completions and Responses, and the shared results API (rcp-test-utils), so the bytes and
 * pages are the ones every stack is checked against.
 */
import OpenAI from 'openai';
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
import { createOpenAITools, type OpenAIFunctionCallOutput } from './index';

let results: TestServer;
let manifestUrl: string;
let fake: ModelFake;
beforeEach(async () => {
  ({ server: results, manifestUrl } = await startResultsApi());
});
afterEach(async () => {
  await Promise.all([results.close(), fake.close()]);
});

const functionCall = (callId: string, name: string, args: unknown) => ({
  type: 'function_call',
  id: `fc_${callId}`,
  call_id: callId,
  name,
  arguments: JSON.stringify(args),
  status: 'completed',
});

/** The client, the tools, and the OpenAI SDK at a model fake that answers every request with `model`. */
async function setup(model: ModelScriptStep = { text: 'Done.' }) {
  const client = createRcpClient({ retry: 0, maxMediaBytes: RESULTS_MAX_MEDIA_BYTES });
  const rcp = createOpenAITools(client, await client.discover(manifestUrl));
  results.reset();
  fake = await startModelFake({ fallback: model });
  return { rcp, openai: new OpenAI({ apiKey: 'sk-test', baseURL: fake.baseURL, maxRetries: 0 }) };
}
type Part = { type: string; text?: string; image_url?: string; file_data?: string; filename?: string };
type SentItem = { type: string; call_id?: string; output?: string | Part[] };
const sentInput = (index = -1) => fake.requests.at(index)!.body.input as SentItem[];
const textOf = (output: string | Part[]) => (typeof output === 'string' ? output : output.find((part) => part.type === 'input_text')!.text!);
/** The base64 after `data:<type>;base64,`, checking the prefix. */
function dataUrlBytes(url: string, type: string): string {
  expect(url.startsWith(`data:${type};base64,`)).toBe(true);
  return url.slice(`data:${type};base64,`.length);
}
const resultsRequests = () => results.requests.map((request) => `${request.method} ${request.url}`);

describe('Responses: an image and a PDF reach the API as input_image and input_file parts of function_call_output', () => {
  it('output is the text and the media part (a data: URL of the same bytes)', async () => {
    const { rcp, openai } = await setup();
    const calls = [functionCall('call_1', 'get_chart', {}), functionCall('call_2', 'get_report', {})];
    const outputs = await rcp.runFunctionCalls(calls);
    await openai.responses.create({ model: 'gpt-test', previous_response_id: 'resp_0', input: outputs, tools: rcp.responsesTools });
    const [chart, report] = sentInput();
    expect(chart).toMatchObject({ type: 'function_call_output', call_id: 'call_1' });
    const [chartText, image] = chart!.output as Part[];
    expect(chartText).toEqual({
      type: 'input_text',
      text: JSON.stringify({ ok: true, data: null, media: { mediaType: 'image/png', size: pngBytes().byteLength } }),
    });
    expect(image!.type).toBe('input_image');
    expect(sha256({ base64: dataUrlBytes(image!.image_url!, 'image/png') })).toBe(sha256(pngBytes()));

    const [reportText, file] = report!.output as Part[];
    expect(JSON.parse(reportText!.text!)).toEqual({ ok: true, data: null, media: { mediaType: 'application/pdf', size: pdfBytes().byteLength } });
    expect(file).toMatchObject({ type: 'input_file', filename: 'get_report.pdf' });
    expect(sha256({ base64: dataUrlBytes(file!.file_data!, 'application/pdf') })).toBe(sha256(pdfBytes()));
    expect(resultsRequests()).toEqual(['GET /chart.png', 'GET /report.pdf']);
  });

  it('an oversize binary and a long Retry-After are errors the model reads as output text', async () => {
    const { rcp } = await setup();
    const [archive, busy] = await rcp.runFunctionCalls([functionCall('call_1', 'get_archive', {}), functionCall('call_2', 'get_busy', {})]);
    expect(JSON.parse(archive!.output as string)).toEqual({
      ok: false,
      error: {
        code: 'RCP_RESPONSE_TOO_LARGE',
        message: `The tool answered with application/octet-stream of 4096 bytes, more than the ${RESULTS_MAX_MEDIA_BYTES} bytes the client passes on.`,
      },
    });
    const said = JSON.parse(busy!.output as string) as { error: { code: string; message: string; retryAfterSeconds: number } };
    expect(said.error).toMatchObject({ code: 'RCP_HTTP_ERROR', retryAfterSeconds: RESULTS_RETRY_AFTER_SECONDS });
    expect(said.error.message).toContain('again in 120 seconds');
    expect(resultsRequests()).toEqual(['GET /archive.bin', 'GET /busy']);
  });

  it('a scripted model walks list_records to its last page using only what each output says', async () => {
    let turn = 0;
    const { rcp, openai } = await setup((request) => {
      const input = request.body.input as string | SentItem[];
      if (typeof input === 'string') return { toolCalls: [{ id: `call_${++turn}`, name: 'list_records' }] };
      const said = JSON.parse(textOf(input.at(-1)!.output!)) as { page: { hasMore: boolean; nextArguments: Record<string, unknown> } };
      if (!said.page.hasMore) return { text: 'Done.' };
      return { toolCalls: [{ id: `call_${++turn}`, name: 'list_records', arguments: said.page.nextArguments }] };
    });
    let reply = await openai.responses.create({ model: 'gpt-test', input: 'List every record.', tools: rcp.responsesTools });
    const seen: string[] = [];
    for (let step = 0; step < 8 && reply.output.some((item) => item.type === 'function_call'); step++) {
      const outputs: OpenAIFunctionCallOutput[] = await rcp.runFunctionCalls(reply.output);
      for (const { output } of outputs) seen.push(...(JSON.parse(textOf(output)) as { data: { records: { id: string }[] } }).data.records.map((r) => r.id));
      reply = await openai.responses.create({ model: 'gpt-test', previous_response_id: reply.id, input: outputs, tools: rcp.responsesTools });
    }
    expect(reply.output_text).toBe('Done.');
    expect(seen).toEqual(RESULTS_RECORDS.map((record) => record.id));
    expect(resultsRequests()).toEqual(['GET /records', 'GET /records?cursor=c2', 'GET /records?cursor=c4']);
    expect(JSON.parse(textOf(sentInput()[0]!.output!)).page).toEqual({ hasMore: false, nextArguments: null });
  });
});

describe('Chat Completions: a tool message takes text only, so media is the text that says what was received', () => {
  it('the PNG is named with its type and size (no bytes, no base64); the page walk works the same', async () => {
    let turn = 0;
    const { rcp, openai } = await setup((request) => {
      const last = (request.body.messages as { role: string; content: string }[]).at(-1)!;
      const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ id: `call_${++turn}`, name, arguments: args }] });
      if (last.role === 'user') return call('get_chart', {});
      const said = JSON.parse(last.content) as { media?: unknown; page?: { hasMore: boolean; nextArguments: Record<string, unknown> } };
      if (said.media !== undefined) return call('list_records', {});
      if (said.page!.hasMore) return call('list_records', said.page!.nextArguments);
      return { text: 'Done.' };
    });
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Chart, then every record.' }];
    for (let step = 0; step < 8; step++) {
      const { message } = (await openai.chat.completions.create({ model: 'gpt-test', messages, tools: rcp.chatTools })).choices[0]!;
      messages.push(message);
      if (!message.tool_calls) break;
      messages.push(...(await rcp.runToolCalls(message.tool_calls)));
    }
    const toolMessages = (fake.requests.at(-1)!.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === 'tool');
    expect(toolMessages[0]!.content).toBe(JSON.stringify({ ok: true, data: null, media: { mediaType: 'image/png', size: pngBytes().byteLength } }));
    expect(toolMessages.every((m) => typeof m.content === 'string')).toBe(true);
    expect(resultsRequests()).toEqual(['GET /chart.png', 'GET /records', 'GET /records?cursor=c2', 'GET /records?cursor=c4']);
  });
});
