/**
 * File params through the agent-core bridge (SPEC §20.7), against the shared upload API: the
 * model's selection names an attachment by its reference, the plan's `execute` runs the host's
 * `files` resolver for the ctx given, and the API receives the bytes as a multipart part byte for
 * byte (SHA-256), parsed by undici. A path is refused when the selection is resolved, nothing sent.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { pngBytes, sha256, startUploadApi, toolRequestLines, uploadFiles, uploadedParts, type TestServer } from 'rcp-test-utils';
import { createRcpRegistry, toModelResult } from './index';

let api: TestServer;
let manifestUrl: string;
beforeEach(async () => {
  ({ server: api, manifestUrl } = await startUploadApi());
});
afterEach(async () => {
  await api.close();
});

type Ctx = { userId: string };

it("the selection's reference becomes the attachment's bytes in the multipart body; a path is refused, nothing sent", async () => {
  const client = createRcpClient<Ctx>({ resolvers: { userId: (ctx) => ctx.userId }, files: uploadFiles });
  const { transports } = createRcpRegistry({ client, discoveries: await client.discover(manifestUrl), stages: { file: () => true } });
  const [listing] = transports.file.catalog();
  expect((listing!.parameters as { properties: Record<string, { type: unknown }> }).properties.document!.type).toBe('string');

  expect(() => transports.file.select({ name: 'upload_document', arguments: '{"document":"/etc/passwd","title":"x"}' })).toThrow(
    expect.objectContaining({ code: 'RCP_INVALID_ARGUMENTS' }),
  );
  const plan = transports.file.select({ name: 'upload_document', arguments: '{"document":"att-png-1","title":"Chart"}' });
  expect(toModelResult(await plan.execute({ userId: 'ada' }))).toEqual({ ok: true, data: { id: 'doc-1' } });
  expect(toolRequestLines(api)).toEqual(['POST /documents']);
  expect(await uploadedParts(api.requests.at(-1)!)).toEqual([
    { name: 'title', value: 'Chart' },
    { name: 'document', filename: 'chart.png', type: 'image/png', sha256: sha256(pngBytes()) },
  ]);
});
