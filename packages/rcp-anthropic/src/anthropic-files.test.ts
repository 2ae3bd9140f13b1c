/**
 * File params on the Anthropic stack (SPEC §20.7): the real `@anthropic-ai/sdk` (Messages) at a
 * loopback model fake, and the shared upload API. The model names an attachment by its reference;
 * the host's `files` resolver gives the bytes for the call's user, and the API receives them as a
 * multipart part byte for byte (SHA-256), parsed by undici. A path is refused before anything is sent.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { type ModelFake, startModelFake } from 'rcp-model-fake';
import { pngBytes, sha256, startUploadApi, toolRequestLines, uploadFiles, uploadedParts, type TestServer } from 'rcp-test-utils';
import { createAnthropicTools } from './index';

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
  fake.script({
    toolCalls: [
      { id: 'toolu_1', name: 'upload_document', arguments: { document: 'att-png-1', title: 'Chart' } },
      { id: 'toolu_2', name: 'upload_document', arguments: { document: '../secrets.png', title: 'x' } },
    ],
  });
  const client = createRcpClient<Ctx>({ resolvers: { userId: (ctx) => ctx.userId }, files: uploadFiles });
  const rcp = createAnthropicTools(client, await client.discover(manifestUrl));
  const anthropic = new Anthropic({ apiKey: 'sk-ant-test', baseURL: fake.origin, maxRetries: 0 });
  const message = await anthropic.messages.create({
    model: 'claude-test',
    max_tokens: 100,
    messages: [{ role: 'user', content: 'File att-png-1.' }],
    tools: rcp.tools,
  });
  const offered = (fake.requests[0]!.body.tools as { input_schema: { properties: Record<string, { type: unknown }> } }[])[0]!.input_schema;
  expect(Object.keys(offered.properties)).toEqual(['document', 'title']);
  expect(offered.properties.document!.type).toBe('string');

  const [uploaded, refused] = await rcp.runToolUses(message.content, { userId: 'ada' });
  expect(JSON.parse(uploaded!.content as string)).toEqual({ ok: true, data: { id: 'doc-1' } });
  expect(refused).toMatchObject({ is_error: true });
  expect(JSON.parse(refused!.content as string)).toMatchObject({ ok: false, error: { code: 'RCP_INVALID_ARGUMENTS' } });
  expect(toolRequestLines(api)).toEqual(['POST /documents']);
  expect(await uploadedParts(api.requests.at(-1)!)).toEqual([
    { name: 'title', value: 'Chart' },
    { name: 'document', filename: 'chart.png', type: 'image/png', sha256: sha256(pngBytes()) },
  ]);
});
