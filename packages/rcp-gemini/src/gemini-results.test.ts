/**
 * Results on the Gemini stack (docs/behaviour.md; SPEC §18.3, §18.4): the real `@google/genai` client
 * (`ai.models.generateContent`, `httpOptions.baseUrl` at a loopback fake of the Gemini API's
 * `generateContent` endpoint), and the shared results API (rcp-test-utils), so the bytes and
 * pages are the ones every stack is checked against.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { GoogleGenAI, type Content, type GenerateContentResponse } from '@google/genai';
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
import { createGeminiTools, type GeminiFunctionCall, type GeminiFunctionResponsePart, type GeminiTools } from './index';

let results: TestServer;
let manifestUrl: string;
let fake: TestServer;
/** The origin of every request `fetch` (undici) made during the test: the SDK's and the client's. */
let origins: string[];
const recordOrigin = (message: unknown) => void origins.push((message as { request: { origin: string } }).request.origin);
beforeEach(async () => {
  ({ server: results, manifestUrl } = await startResultsApi());
  fake = await startTestServer();
  origins = [];
  subscribe('undici:request:create', recordOrigin);
});
afterEach(async () => {
  unsubscribe('undici:request:create', recordOrigin);
  await Promise.all([results.close(), fake.close()]);
});

const MODEL = 'gemini-test';
/** Where the SDK sends `generateContent` for the Gemini API (not Vertex AI): `v1beta`, the key in a header. */
const ENDPOINT = `POST /v1beta/models/${MODEL}:generateContent`;

type FunctionResponse = GeminiFunctionResponsePart['functionResponse'];
interface SentPart {
  text?: string;
  functionCall?: GeminiFunctionCall;
  functionResponse?: FunctionResponse;
}
interface SentBody {
  contents: { role: string; parts: SentPart[] }[];
  tools: { functionDeclarations: { name: string }[] }[];
}
const reply = (parts: SentPart[]) => ({ candidates: [{ content: { role: 'model', parts } }] });
/** Scripts the fake Gemini API: `answer` sees the request body the SDK sent and returns the model's parts. */
function scriptModel(answer: (sent: SentBody) => SentPart[]): void {
  fake.route(ENDPOINT, (request, res) => sendJson(res, 200, reply(answer(request.json as SentBody))));
}
/** The function responses of the last content of the fake's request number `index`. */
const sentResponses = (index = -1): FunctionResponse[] =>
  (fake.requests.at(index)!.json as SentBody).contents.at(-1)!.parts.map((part) => part.functionResponse!);
const resultsRequests = () => results.requests.map((request) => `${request.method} ${request.url}`);

async function setup() {
  const client = createRcpClient({ retry: 0, maxMediaBytes: RESULTS_MAX_MEDIA_BYTES });
  const rcp = createGeminiTools(client, await client.discover(manifestUrl));
  results.reset();
  origins = [];
  // `vertexai: false` whatever GOOGLE_GENAI_USE_VERTEXAI says; with an API key the SDK builds no Google auth.
  const ai = new GoogleGenAI({ apiKey: 'test-key', vertexai: false, httpOptions: { baseUrl: fake.origin } });
  return { rcp, ai };
}

/** The README's agent loop: generateContent, run the function calls, send the parts back, until the model answers in text. */
async function agentLoop(ai: GoogleGenAI, rcp: GeminiTools, prompt: string): Promise<GenerateContentResponse> {
  const contents: Content[] = [{ role: 'user', parts: [{ text: prompt }] }];
  for (let step = 0; step < 8; step++) {
    const response = await ai.models.generateContent({
      model: MODEL,
      contents,
      config: { tools: [{ functionDeclarations: rcp.functionDeclarations }] },
    });
    if (!response.functionCalls?.length) return response;
    contents.push(response.candidates![0]!.content!, { role: 'user', parts: await rcp.runFunctionCalls(response.functionCalls) });
  }
  throw new Error('the scripted model never answered in text');
}

/** What reached the fake: only generateContent, `count` times, with the API key in its header and nowhere else. */
function expectOnlyGenerateContent(count: number): void {
  expect(fake.requests.map((request) => `${request.method} ${request.url}`)).toEqual(Array(count).fill(ENDPOINT));
  for (const request of fake.requests) expect(request.headers['x-goog-api-key']).toBe('test-key');
  // Every request anything made went to the two loopback servers: no Google auth, no other host.
  expect([...new Set(origins)].sort()).toEqual([fake.origin, results.origin].sort());
}

describe('media: an image and a PDF reach generateContent as inlineData parts inside functionResponse', () => {
  it('response is the text form (type and size, no bytes); parts carry the same bytes', async () => {
    const { rcp, ai } = await setup();
    scriptModel(({ contents }) =>
      contents.length === 1
        ? [{ functionCall: { id: 'c1', name: 'get_chart', args: {} } }, { functionCall: { id: 'c2', name: 'get_report', args: {} } }]
        : [{ text: 'Done.' }],
    );
    const response = await agentLoop(ai, rcp, 'Chart and report, please.');
    expect(response.text).toBe('Done.');
    expectOnlyGenerateContent(2);
    expect((fake.requests[0]!.json as SentBody).tools[0]!.functionDeclarations.map((d) => d.name)).toContain('get_chart');
    const [chart, report] = sentResponses();
    expect(chart).toMatchObject({
      id: 'c1',
      name: 'get_chart',
      response: { ok: true, data: null, media: { mediaType: 'image/png', size: pngBytes().byteLength } },
    });
    expect(chart!.parts).toHaveLength(1);
    expect(chart!.parts![0]!.inlineData.mimeType).toBe('image/png');
    expect(sha256({ base64: chart!.parts![0]!.inlineData.data })).toBe(sha256(pngBytes()));
    expect(report).toMatchObject({
      id: 'c2',
      name: 'get_report',
      response: { ok: true, data: null, media: { mediaType: 'application/pdf', size: pdfBytes().byteLength } },
    });
    expect(report!.parts).toHaveLength(1);
    expect(report!.parts![0]!.inlineData.mimeType).toBe('application/pdf');
    expect(sha256({ base64: report!.parts![0]!.inlineData.data })).toBe(sha256(pdfBytes()));
    // The bytes are in parts only: the response object names the type and size.
    expect(JSON.stringify(chart!.response)).not.toContain('"data":"');
    expect(JSON.stringify(report!.response)).not.toContain('"data":"');
    expect(resultsRequests()).toEqual(['GET /chart.png', 'GET /report.pdf']);
  });

  it('an oversize binary and a long Retry-After reach the model as errors in response', async () => {
    const { rcp, ai } = await setup();
    scriptModel(({ contents }) =>
      contents.length === 1
        ? [{ functionCall: { id: 'c1', name: 'get_archive', args: {} } }, { functionCall: { id: 'c2', name: 'get_busy', args: {} } }]
        : [{ text: 'The archive is too large and the queue is busy.' }],
    );
    await agentLoop(ai, rcp, 'Archive and queue status, please.');
    expectOnlyGenerateContent(2);
    const [archive, busy] = sentResponses();
    expect(archive).toEqual({
      id: 'c1',
      name: 'get_archive',
      response: {
        ok: false,
        error: {
          code: 'RCP_RESPONSE_TOO_LARGE',
          message: `The tool answered with application/octet-stream of 4096 bytes, more than the ${RESULTS_MAX_MEDIA_BYTES} bytes the client passes on.`,
        },
      },
    });
    expect(busy).toMatchObject({
      id: 'c2',
      name: 'get_busy',
      response: { ok: false, error: { code: 'RCP_HTTP_ERROR', retryAfterSeconds: RESULTS_RETRY_AFTER_SECONDS } },
    });
    expect((busy!.response as { error: { message: string } }).error.message).toContain('again in 120 seconds');
    expect(busy!.parts).toBeUndefined();
    expect(resultsRequests()).toEqual(['GET /archive.bin', 'GET /busy']);
  });
});

describe('pages: a scripted model walks list_records to its last page using only what each response says', () => {
  it('each next call copies page.nextArguments from the functionResponse the SDK sent; the API received exactly those calls', async () => {
    const { rcp, ai } = await setup();
    let turn = 0;
    /** Every record id the model read, from the function responses it was sent. */
    const read: string[] = [];
    scriptModel(({ contents }) => {
      const said = contents.at(-1)!.parts[0]!.functionResponse?.response as
        | { data: { records: { id: string }[] }; page: { hasMore: boolean; nextArguments: Record<string, unknown> | null } }
        | undefined;
      if (said === undefined) return [{ functionCall: { id: `c${++turn}`, name: 'list_records', args: {} } }];
      read.push(...said.data.records.map((record) => record.id));
      if (!said.page.hasMore) return [{ text: 'That was every record.' }];
      return [{ functionCall: { id: `c${++turn}`, name: 'list_records', args: said.page.nextArguments! } }];
    });
    const response = await agentLoop(ai, rcp, 'List every record.');
    expect(response.text).toBe('That was every record.');
    expect(read).toEqual(RESULTS_RECORDS.map((record) => record.id));
    expectOnlyGenerateContent(4);
    expect(resultsRequests()).toEqual(['GET /records', 'GET /records?cursor=c2', 'GET /records?cursor=c4']);
    expect(sentResponses()[0]!.response['page']).toEqual({ hasMore: false, nextArguments: null });
  });
});

describe('marked untrusted text (markUntrustedText)', () => {
  it('response is { output: <the marked text> }, the boundary never a field of its own', async () => {
    const client = createRcpClient({ retry: 0, markUntrustedText: true });
    const rcp = createGeminiTools(client, await client.discover(manifestUrl));
    const ai = new GoogleGenAI({ apiKey: 'test-key', vertexai: false, httpOptions: { baseUrl: fake.origin } });
    scriptModel(({ contents }) => (contents.length === 1 ? [{ functionCall: { name: 'get_record', args: { id: 'r-1' } } }] : [{ text: 'Alpha.' }]));
    await agentLoop(ai, rcp, 'What is r-1?');
    const [sent] = sentResponses();
    expect(Object.keys(sent!.response)).toEqual(['output']);
    expect(sent!.response['output']).toMatch(/^<untrusted-[0-9a-f]{24}>\n\{"ok":true,"data":\{"id":"r-1","title":"Alpha"\}\}\n<\/untrusted-[0-9a-f]{24}>$/);
  });
});
