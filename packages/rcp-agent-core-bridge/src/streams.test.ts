/**
 * Streamed answers through the agent-core bridge (SPEC §20.6), against the shared stream API
 * (1,000 SSE events). The contract's call plan has no progress channel: `plan.execute` returns the
 * collected result, and `onProgress` in its execute options is how the application sees progress.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRcpClient, type RcpStreamProgress } from 'rcp-client';
import { STREAM_EVENTS, STREAM_TEXT, startStreamApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { ModelToolRegistry, createRcpModelTools, toModelResult } from './index';

let api: TestServer;
let manifestUrl: string;
beforeEach(async () => {
  ({ server: api, manifestUrl } = await startStreamApi());
});
afterEach(async () => {
  await api.close();
});

it('a streamed tool: the plan collects the answer into one result; onProgress passes through the execute options', async () => {
  const client = createRcpClient();
  const registry = new ModelToolRegistry(createRcpModelTools(client, await client.discover(manifestUrl))).seal();
  const plan = registry.resolve({ toolId: 'stream_answer', input: {} }, { stageId: 'answer' });
  const progress: RcpStreamProgress[] = [];
  const result = await plan.execute(undefined, { onProgress: (seen) => progress.push(seen) });
  expect(result).toMatchObject({ status: 200, data: STREAM_TEXT, events: STREAM_EVENTS });
  expect(toModelResult(result)).toEqual({ ok: true, data: STREAM_TEXT });
  expect(progress.map((seen) => seen.events)).toEqual(Array.from({ length: STREAM_EVENTS }, (_, index) => index + 1));
  expect(toolRequestLines(api)).toEqual(['POST /answer']);
});
