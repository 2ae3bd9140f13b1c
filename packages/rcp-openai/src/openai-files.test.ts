/**
 * File params on the OpenAI stack (SPEC §20.7): the real `openai` SDK (Chat Completions) at a
 * loopback model fake, and the shared upload API. The model names an attachment by its reference;
 * the host's `files` resolver gives the bytes for the call's user, and the API receives them as a
 * multipart part byte for byte (SHA-256), parsed by undici. A path is refused before anything is sent.
 */
import OpenAI from 'openai';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { type ModelFake, startModelFake } from 'rcp-model-fake';
import { pdfBytes, sha256, startUploadApi, toolRequestLines, uploadFiles, uploadedParts, type TestServer } from 'rcp-test-utils';
import { createOpenAITools } from './index';

let api: TestServer;
let manifestUrl: string;
let fake: ModelFake;
beforeEach(async () => {
  ({ server: api, manifestUrl } = await startUploadApi());
  fake = await startModelFake();
});
afterEach(async () => {
  await Promise.all([api.close(), fake.close()]);
});

type Ctx = { userId: string };
const ADA: Ctx = { userId: 'ada' };

it("the model's reference becomes the attachment's bytes in the multipart body; a path is refused, nothing sent", async () => {
  fake.script({
    toolCalls: [
      { id: 'call_1', name: 'upload_document', arguments: { document: 'att-pdf-1', title: 'Q3 report' } },
      { id: 'call_2', name: 'upload_document', arguments: { document: '/etc/passwd', title: 'x' } },
    ],
  });
  const client = createRcpClient<Ctx>({ resolvers: { userId: (ctx) => ctx.userId }, files: uploadFiles });
  const rcp = createOpenAITools(client, await client.discover(manifestUrl));
  const openai = new OpenAI({ apiKey: 'sk-test', baseURL: fake.baseURL, maxRetries: 0 });
  const completion = await openai.chat.completions.create({
    model: 'gpt-test',
    messages: [{ role: 'user', content: 'File att-pdf-1.' }],
    tools: rcp.chatTools,
  });
  const offered = (fake.requests[0]!.body.tools as { function: { parameters: { properties: Record<string, { type: unknown }> } } }[])[0]!.function.parameters;
  expect(Object.keys(offered.properties)).toEqual(['document', 'title']);
  expect(offered.properties.document!.type).toBe('string');

  const [uploaded, refused] = await rcp.runToolCalls(completion.choices[0]!.message.tool_calls, ADA);
  expect(JSON.parse(uploaded!.content)).toEqual({ ok: true, data: { id: 'doc-1' } });
  expect(JSON.parse(refused!.content)).toMatchObject({ ok: false, error: { code: 'RCP_INVALID_ARGUMENTS' } });
  expect(toolRequestLines(api)).toEqual(['POST /documents']);
  expect(await uploadedParts(api.requests.at(-1)!)).toEqual([
    { name: 'title', value: 'Q3 report' },
    { name: 'document', filename: 'report.pdf', type: 'application/pdf', sha256: sha256(pdfBytes()) },
  ]);
});
