/**
 * Results on the Gemini stack (SPEC §18, §25.3, §25.4): `generateContent` requests sent with
 * `fetch`, as the README's loop does (`@google/genai` needs Node 22; these are the objects it
 * sends), to a loopback fake of the endpoint, with the shared results API (rcp-test-utils).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import {
  pdfBytes,
  pngBytes,
  RESULTS_MAX_MEDIA_BYTES,
  RESULTS_RECORDS,
  RESULTS_RETRY_AFTER_SECONDS,
  sendJson,
  sha256,
  startResultsApi,
  startTestServer,
  type TestServer,
} from 'rcp-test-utils';
import { createGeminiTools, type GeminiFunctionCall } from './index';

let results: TestServer;
let manifestUrl: string;
let fake: TestServer;
beforeEach(async () => {
  ({ server: results, manifestUrl } = await startResultsApi());
  fake = await startTestServer();
});
afterEach(async () => {
  await Promise.all([results.close(), fake.close()]);
});

const ENDPOINT = 'POST /v1beta/models/gemini-test:generateContent';
interface Part {
  text?: string;
  functionCall?: GeminiFunctionCall;
  functionResponse?: { id?: string; name: string; response: Record<string, unknown>; parts?: { inlineData: { mimeType: string; data: string } }[] };
}
interface Content { role: string; parts: Part[] }
const reply = (parts: Part[]) => ({ candidates: [{ content: { role: 'model', parts } }] });

async function setup() {
  const client = createRcpClient({ retry: 0, maxMediaBytes: RESULTS_MAX_MEDIA_BYTES });
  const rcp = createGeminiTools(client, await client.discover(manifestUrl));
  results.reset();
  /** One generateContent request, as the README's loop sends it. */
  const generate = async (contents: Content[]): Promise<Content> => {
    const body = JSON.stringify({ contents, tools: [{ functionDeclarations: rcp.functionDeclarations }] });
    const answer = await fetch(fake.url('/v1beta/models/gemini-test:generateContent'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': 'test-key' },
      body,
    });
    return ((await answer.json()) as { candidates: { content: Content }[] }).candidates[0]!.content;
  };
  return { rcp, generate };
}
const sentResponses = () => {
  const { contents } = fake.requests.at(-1)!.json as { contents: Content[] };
  return contents.at(-1)!.parts.map((part) => part.functionResponse!);
};
const resultsRequests = () => results.requests.map((request) => `${request.method} ${request.url}`);

describe('media: an image and a PDF reach generateContent as inlineData parts inside functionResponse', () => {
  it('response is the text form (type and size, no bytes); parts carry the same bytes', async () => {
    const { rcp, generate } = await setup();
    fake.route(ENDPOINT, (_request, res) => sendJson(res, 200, reply([{ text: 'Done.' }])));
    const calls = [{ id: 'c1', name: 'get_chart', args: {} }, { id: 'c2', name: 'get_report', args: {} }];
    const parts = await rcp.runFunctionCalls(calls);
    await generate([
      { role: 'user', parts: [{ text: 'Chart and report, please.' }] },
      { role: 'model', parts: calls.map((functionCall) => ({ functionCall })) },
      { role: 'user', parts },
    ]);
    const [chart, report] = sentResponses();
    expect(chart).toMatchObject({ id: 'c1', name: 'get_chart', response: { ok: true, data: null, media: { mediaType: 'image/png', size: pngBytes().byteLength } } });
    expect(chart!.parts).toHaveLength(1);
    expect(chart!.parts![0]!.inlineData.mimeType).toBe('image/png');
    expect(sha256({ base64: chart!.parts![0]!.inlineData.data })).toBe(sha256(pngBytes()));
    expect(report).toMatchObject({ id: 'c2', response: { ok: true, data: null, media: { mediaType: 'application/pdf', size: pdfBytes().byteLength } } });
    expect(report!.parts![0]!.inlineData.mimeType).toBe('application/pdf');
    expect(sha256({ base64: report!.parts![0]!.inlineData.data })).toBe(sha256(pdfBytes()));
    // The bytes are in parts only: the response object names the type and size.
    expect(JSON.stringify(chart!.response)).not.toContain('"data":"');
    expect(resultsRequests()).toEqual(['GET /chart.png', 'GET /report.pdf']);
  });

  it('an oversize binary and a long Retry-After are errors the model reads in response', async () => {
    const { rcp } = await setup();
    const [archive, busy] = await rcp.runFunctionCalls([{ name: 'get_archive', args: {} }, { name: 'get_busy', args: {} }]);
    expect(archive!.functionResponse).toEqual({
      name: 'get_archive',
      response: {
        ok: false,
        error: {
          code: 'RCP_RESPONSE_TOO_LARGE',
          message: `The tool answered with application/octet-stream of 4096 bytes, more than the ${RESULTS_MAX_MEDIA_BYTES} bytes the client passes on.`,
        },
      },
    });
    expect(busy!.functionResponse.response).toMatchObject({ ok: false, error: { code: 'RCP_HTTP_ERROR', retryAfterSeconds: RESULTS_RETRY_AFTER_SECONDS } });
    expect((busy!.functionResponse.response as { error: { message: string } }).error.message).toContain('again in 120 seconds');
    expect(resultsRequests()).toEqual(['GET /archive.bin', 'GET /busy']);
  });
});

describe('pages: a scripted model walks list_records to its last page using only what each response says', () => {
  it('each next call copies page.nextArguments from the functionResponse sent; the API received exactly those calls', async () => {
    const { rcp, generate } = await setup();
    let turn = 0;
    fake.route(ENDPOINT, (request, res) => {
      const last = (request.json as { contents: Content[] }).contents.at(-1)!;
      const said = last.parts[0]!.functionResponse?.response as { page: { hasMore: boolean; nextArguments: Record<string, unknown> } } | undefined;
      if (said === undefined) return sendJson(res, 200, reply([{ functionCall: { id: `c${++turn}`, name: 'list_records', args: {} } }]));
      if (!said.page.hasMore) return sendJson(res, 200, reply([{ text: 'That was every record.' }]));
      return sendJson(res, 200, reply([{ functionCall: { id: `c${++turn}`, name: 'list_records', args: said.page.nextArguments } }]));
    });
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'List every record.' }] }];
    const seen: string[] = [];
    for (let step = 0; step < 8; step++) {
      const content = await generate(contents);
      contents.push(content);
      const calls = content.parts.flatMap((part) => (part.functionCall ? [part.functionCall] : []));
      if (calls.length === 0) break;
      const parts = await rcp.runFunctionCalls(calls);
      for (const part of parts) seen.push(...(part.functionResponse.response as { data: { records: { id: string }[] } }).data.records.map((r) => r.id));
      contents.push({ role: 'user', parts });
    }
    expect(contents.at(-1)!.parts[0]!.text).toBe('That was every record.');
    expect(seen).toEqual(RESULTS_RECORDS.map((record) => record.id));
    expect(resultsRequests()).toEqual(['GET /records', 'GET /records?cursor=c2', 'GET /records?cursor=c4']);
    expect(sentResponses()[0]!.response['page']).toEqual({ hasMore: false, nextArguments: null });
  });
});

describe('marked untrusted text (markUntrustedText)', () => {
  it('response is { output: <the marked text> }, the boundary never a field of its own', async () => {
    const client = createRcpClient({ retry: 0, markUntrustedText: true });
    const rcp = createGeminiTools(client, await client.discover(manifestUrl));
    const [part] = await rcp.runFunctionCalls([{ name: 'get_record', args: { id: 'r-1' } }]);
    const { response } = part!.functionResponse;
    expect(Object.keys(response)).toEqual(['output']);
    expect(response['output']).toMatch(/^<untrusted-[0-9a-f]{24}>\n\{"ok":true,"data":\{"id":"r-1","title":"Alpha"\}\}\n<\/untrusted-[0-9a-f]{24}>$/);
  });
});
