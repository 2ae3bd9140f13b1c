/**
 * File params on the AI SDK (SPEC §20.7): the real `generateText` with the real OpenAI provider
 * (`@ai-sdk/openai`, Responses API) at a loopback model fake, and the shared upload API. The user's
 * message carries a file part; the host keeps it and gives the model its reference (here in the
 * prompt's text); the model passes the reference, and the host's `files` resolver gives the bytes
 * for the turn's user, which the API receives as a multipart part byte for byte (SHA-256), parsed by
 * undici. A path is refused before anything is sent.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs } from 'ai';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { type ModelFake, startModelFake } from 'rcp-model-fake';
import { pdfBytes, sha256, startUploadApi, toolRequestLines, uploadFiles, uploadedParts, type TestServer } from 'rcp-test-utils';
import { createAISDKTools } from './index';

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

it("the model's reference becomes the attachment's bytes in the multipart body; a path is refused, nothing sent", async () => {
  fake.script(
    {
      toolCalls: [
        { id: 'c1', name: 'upload_document', arguments: { document: 'att-pdf-1', title: 'Q3 report' } },
        { id: 'c2', name: 'upload_document', arguments: { document: 'C:\\report.pdf', title: 'x' } },
      ],
    },
    { text: 'Uploaded.' },
  );
  const client = createRcpClient<Ctx>({ resolvers: { userId: (ctx) => ctx.userId }, files: uploadFiles });
  const rcp = createAISDKTools(client, await client.discover(manifestUrl));
  const result = await generateText({
    model: createOpenAI({ apiKey: 'sk-test', baseURL: fake.baseURL })('gpt-test'),
    tools: rcp.tools,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'File this report (attachment att-pdf-1).' },
          { type: 'file', data: pdfBytes(), mediaType: 'application/pdf', filename: 'report.pdf' },
        ],
      },
    ],
    stopWhen: stepCountIs(2),
    experimental_context: { userId: 'ada' },
  });
  const offered = (fake.requests[0]!.body.tools as { parameters: { properties: Record<string, { type: unknown }> } }[])[0]!.parameters;
  expect(offered.properties.document!.type).toBe('string');

  // The refused call is the AI SDK's tool-error (RCP's own argument check in the input schema).
  const outputs = result.steps[0]!.content.filter((part) => part.type === 'tool-result' || part.type === 'tool-error');
  expect(outputs.map((part) => [part.toolCallId, part.type]).sort()).toEqual([
    ['c1', 'tool-result'],
    ['c2', 'tool-error'],
  ]);
  expect(result.steps[0]!.toolResults.map((part) => part.output)).toEqual([{ ok: true, data: { id: 'doc-1' } }]);
  expect(toolRequestLines(api)).toEqual(['POST /documents']);
  expect(await uploadedParts(api.requests.at(-1)!)).toEqual([
    { name: 'title', value: 'Q3 report' },
    { name: 'document', filename: 'report.pdf', type: 'application/pdf', sha256: sha256(pdfBytes()) },
  ]);
});
