/**
 * File params on LangChain (SPEC §20.7): a real LangChain v1 agent (`createAgent`, its ToolNode,
 * `@langchain/core`'s `fakeModel`) against the shared upload API. The model passes an attachment's
 * reference; the host's `files` resolver gives the bytes for the run's user (`configurable`), and
 * the API receives them as a multipart part byte for byte (SHA-256), parsed by undici. A path is
 * refused before anything is sent.
 */
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createAgent } from 'langchain';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { pngBytes, sha256, startUploadApi, toolRequestLines, uploadFiles, uploadedParts, type TestServer } from 'rcp-test-utils';
import { createLangChainTools } from './index';

let api: TestServer;
let manifestUrl: string;
beforeEach(async () => {
  ({ server: api, manifestUrl } = await startUploadApi());
});
afterEach(async () => {
  await api.close();
});

type Ctx = { userId: string };

it("the model's reference becomes the attachment's bytes in the multipart body; a path is refused, nothing sent", async () => {
  const model = fakeModel()
    .respondWithTools([
      { id: 'c1', name: 'upload_document', args: { document: 'att-png-1', title: 'Chart' } },
      { id: 'c2', name: 'upload_document', args: { document: '~/chart.png', title: 'x' } },
    ])
    .respond(new AIMessage('Uploaded.'));
  const client = createRcpClient<Ctx>({ resolvers: { userId: (ctx) => ctx.userId }, files: uploadFiles });
  const tools = createLangChainTools(client, await client.discover(manifestUrl));
  const result = await createAgent({ model, tools }).invoke({ messages: [new HumanMessage('File att-png-1.')] }, { configurable: { userId: 'ada' } });

  const messages = result.messages.filter((message) => ToolMessage.isInstance(message)).sort((a, b) => a.tool_call_id.localeCompare(b.tool_call_id));
  expect(messages.map((message) => [message.tool_call_id, message.status])).toEqual([
    ['c1', 'success'],
    ['c2', 'error'],
  ]);
  expect(JSON.parse(messages[0]!.content as string)).toEqual({ ok: true, data: { id: 'doc-1' } });
  expect(JSON.parse(messages[1]!.content as string)).toMatchObject({ ok: false, error: { code: 'RCP_INVALID_ARGUMENTS' } });
  expect(toolRequestLines(api)).toEqual(['POST /documents']);
  expect(await uploadedParts(api.requests.at(-1)!)).toEqual([
    { name: 'title', value: 'Chart' },
    { name: 'document', filename: 'chart.png', type: 'image/png', sha256: sha256(pngBytes()) },
  ]);
});
