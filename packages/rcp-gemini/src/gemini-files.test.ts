/**
 * File params on the Gemini stack (SPEC §20.7): the real `@google/genai` client (`generateContent`
 * at a loopback fake of the Gemini API) and the shared upload API. The model names an attachment
 * by its reference; the host's `files` resolver gives the bytes for the call's user, and the API
 * receives them as a multipart part byte for byte (SHA-256), parsed by undici. Another user's
 * reference resolves to nothing: RCP_UNRESOLVED, nothing sent.
 */
import { GoogleGenAI } from '@google/genai';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { pdfBytes, sendJson, sha256, startTestServer, startUploadApi, toolRequestLines, uploadFiles, uploadedParts, type TestServer } from 'rcp-test-utils';
import { createGeminiTools } from './index';

let api: TestServer;
let manifestUrl: string;
let fake: TestServer;
beforeEach(async () => {
  ({ server: api, manifestUrl } = await startUploadApi());
  fake = await startTestServer();
});
afterEach(async () => {
  await Promise.all([api.close(), fake.close()]);
});

const MODEL = 'gemini-test';
type Ctx = { userId: string };

it("the model's reference becomes the attachment's bytes in the multipart body; another user's is unresolved, nothing sent", async () => {
  fake.route(`POST /v1beta/models/${MODEL}:generateContent`, (_request, res) => {
    const parts = [{ functionCall: { id: 'c1', name: 'upload_document', args: { document: 'att-pdf-1', title: 'Q3 report' } } }];
    sendJson(res, 200, { candidates: [{ content: { role: 'model', parts } }] });
  });
  const client = createRcpClient<Ctx>({ resolvers: { userId: (ctx) => ctx.userId }, files: uploadFiles });
  const rcp = createGeminiTools(client, await client.discover(manifestUrl));
  const ai = new GoogleGenAI({ apiKey: 'test-key', vertexai: false, httpOptions: { baseUrl: fake.origin } });
  const response = await ai.models.generateContent({
    model: MODEL,
    contents: [{ role: 'user', parts: [{ text: 'File att-pdf-1.' }] }],
    config: { tools: [{ functionDeclarations: rcp.functionDeclarations }] },
  });
  const declared = (
    fake.requests[0]!.json as { tools: { functionDeclarations: { parametersJsonSchema: { properties: Record<string, { type: unknown }> } }[] }[] }
  ).tools[0]!.functionDeclarations[0]!.parametersJsonSchema;
  expect(declared.properties.document!.type).toBe('string');

  const [bob] = await rcp.runFunctionCalls(response.functionCalls, { userId: 'bob' });
  expect(bob!.functionResponse.response).toMatchObject({ ok: false, error: { code: 'RCP_UNRESOLVED' } });
  expect(toolRequestLines(api)).toEqual([]);
  const [ada] = await rcp.runFunctionCalls(response.functionCalls, { userId: 'ada' });
  expect(ada!.functionResponse.response).toEqual({ ok: true, data: { id: 'doc-1' } });
  expect(toolRequestLines(api)).toEqual(['POST /documents']);
  expect(await uploadedParts(api.requests.at(-1)!)).toEqual([
    { name: 'title', value: 'Q3 report' },
    { name: 'document', filename: 'report.pdf', type: 'application/pdf', sha256: sha256(pdfBytes()) },
  ]);
});
