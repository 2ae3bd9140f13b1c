/**
 * File params on the OpenAI Agents SDK (SPEC §20.7): a real `Runner` whose model is the `openai`
 * client at a loopback fake of the Responses API, and the shared upload API. The model passes an
 * attachment's reference; the host's `files` resolver gives the bytes for the run's user (the run
 * context), and the API receives them as a multipart part byte for byte (SHA-256), parsed by undici.
 * A path is refused before anything is sent.
 */
import OpenAI from 'openai';
import { Agent, OpenAIProvider, Runner } from '@openai/agents';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { type ModelFake, startModelFake } from 'rcp-model-fake';
import { pdfBytes, sha256, startUploadApi, toolRequestLines, uploadFiles, uploadedParts, type TestServer } from 'rcp-test-utils';
import { createOpenAIAgentsTools } from './index';

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
        { id: 'call_1', name: 'upload_document', arguments: { document: 'att-pdf-1', title: 'Q3 report' } },
        { id: 'call_2', name: 'upload_document', arguments: { document: 'file:///etc/passwd', title: 'x' } },
      ],
    },
    { text: 'Uploaded.' },
  );
  const client = createRcpClient<Ctx>({ resolvers: { userId: (ctx) => ctx.userId }, files: uploadFiles });
  const rcp = createOpenAIAgentsTools(client, await client.discover(manifestUrl));
  const agent = new Agent<Ctx>({ name: 'Documents', instructions: 'File documents.', model: 'gpt-test', tools: rcp.tools });
  const runner = new Runner({
    modelProvider: new OpenAIProvider({ openAIClient: new OpenAI({ apiKey: 'sk-test', baseURL: fake.baseURL, maxRetries: 0 }) }),
    tracingDisabled: true,
  });
  expect((await runner.run(agent, 'File att-pdf-1.', { context: { userId: 'ada' } })).finalOutput).toBe('Uploaded.');

  const sent = Object.fromEntries(fake.requests[1]!.toolResults.map((result) => [result.callId, JSON.parse(result.text)]));
  expect(sent.call_1).toEqual({ ok: true, data: { id: 'doc-1' } });
  expect(sent.call_2).toMatchObject({ ok: false, error: { code: 'RCP_INVALID_ARGUMENTS' } });
  expect(toolRequestLines(api)).toEqual(['POST /documents']);
  expect(await uploadedParts(api.requests.at(-1)!)).toEqual([
    { name: 'title', value: 'Q3 report' },
    { name: 'document', filename: 'report.pdf', type: 'application/pdf', sha256: sha256(pdfBytes()) },
  ]);
});
