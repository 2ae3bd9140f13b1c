/**
 * The README's two snippets, run as written as two node processes: the first pauses the run and
 * stores its state and the review in a file, the second resumes it with a new client. The OpenAI
 * Agents SDK's default client reads OPENAI_BASE_URL: the fake Responses API on 127.0.0.1.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { redisTestAvailability, startRedisServer, type RedisServer } from 'rcp-test-utils/stores';
import {
  NOTES_TOKEN,
  SPAWN_TIMEOUT,
  pdfBytes,
  runReadmeSnippet,
  sendJson,
  sha256,
  startNotesApi,
  startResultsApi,
  startTestServer,
  toolRequestLines,
  type TestServer,
} from 'rcp-test-utils';

let notes: TestServer;
let manifestUrl: string;
let fake: TestServer;
let dir: string;
beforeEach(async () => {
  ({ server: notes, manifestUrl } = await startNotesApi());
  fake = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'rcp-openai-agents-'));
});
afterEach(async () => {
  rmSync(dir, { recursive: true, force: true });
  await Promise.all([notes.close(), fake.close()]);
});

const usage = {
  input_tokens: 1,
  output_tokens: 1,
  total_tokens: 2,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens_details: { reasoning_tokens: 0 },
};
const answers = [
  { output: [{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'delete_note', arguments: '{"noteId":"n-1"}', status: 'completed' }] },
  {
    output: [
      {
        type: 'message',
        id: 'msg_1',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Your groceries note is deleted.', annotations: [] }],
      },
    ],
  },
].map((answer, index) => ({ id: `resp_${index}`, object: 'response', created_at: 0, status: 'completed', model: 'gpt-test', usage, ...answer }));

describe.skipIf(redisTestAvailability().skip)('the approval snippets, sharing a real redis-server (loopback)', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(() => redis?.stop());

  it('pauses in one process and resumes in another: exactly the reviewed request is sent, once', { timeout: SPAWN_TIMEOUT }, async () => {
    let index = 0;
    fake.route('POST /v1/responses', (_request, res) => sendJson(res, 200, answers[Math.min(index++, answers.length - 1)]));
    const packageDir = fileURLToPath(new URL('..', import.meta.url));
    const env = {
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: fake.url('/v1'),
      OPENAI_AGENTS_DISABLE_TRACING: '1',
      NOTES_TOKEN,
      NOTES_MANIFEST_URL: manifestUrl,
      STATE_FILE: join(dir, 'paused.json'),
      RCP_APPROVAL_SECRET: 'the operator secret of the notes app, 32+ bytes',
      REDIS_URL: redis.url,
    };

    const paused = await runReadmeSnippet(packageDir, 'snippet:pause', env);
    expect(JSON.parse(paused)).toEqual({ method: 'DELETE', url: notes.url('/users/u-1/notes/n-1'), reason: 'the call changes data (approval: "writes")' });
    expect(toolRequestLines(notes)).toEqual([]);
    const stored = JSON.parse(readFileSync(env.STATE_FILE, 'utf8')) as { state: string; reviews: { callId: string; digest: string }[] };
    expect(stored.reviews).toMatchObject([{ callId: 'call_1', digest: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(JSON.stringify(stored)).not.toContain(NOTES_TOKEN);

    const resumed = await runReadmeSnippet(packageDir, 'snippet:resume', env);
    expect(resumed).toBe('Your groceries note is deleted.\n');
    expect(toolRequestLines(notes)).toEqual(['DELETE /users/u-1/notes/n-1']);
    expect(notes.requests.at(-1)!.headers.authorization).toBe(`Bearer ${NOTES_TOKEN}`);
    // The model was sent the call's result; every model request went to the fake.
    const input = (fake.requests[1]!.json as { input: { type?: string; output?: string }[] }).input;
    expect(JSON.parse(input.find((item) => item.type === 'function_call_output')!.output!)).toEqual({ ok: true, data: null });
    expect(fake.count).toBe(2);
  });
});

it('the results snippet: the PDF reaches the model API as input_file with its bytes, and the application reads it', { timeout: SPAWN_TIMEOUT }, async () => {
  const { server: results, manifestUrl: resultsManifestUrl } = await startResultsApi();
  try {
    const turns = [
      { output: [{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_report', arguments: '{}', status: 'completed' }] },
      {
        output: [
          { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Sales rose.', annotations: [] }] },
        ],
      },
    ].map((answer, index) => ({ id: `resp_${index}`, object: 'response', created_at: 0, status: 'completed', model: 'gpt-test', usage, ...answer }));
    let index = 0;
    fake.route('POST /v1/responses', (_request, res) => sendJson(res, 200, turns[Math.min(index++, turns.length - 1)]));
    const packageDir = fileURLToPath(new URL('..', import.meta.url));
    const env = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.url('/v1'), OPENAI_AGENTS_DISABLE_TRACING: '1', RESULTS_MANIFEST_URL: resultsManifestUrl };
    const printed = await runReadmeSnippet(packageDir, 'snippet:results', env);
    const size = pdfBytes().byteLength;
    expect(printed).toBe(`{"ok":true,"data":null,"media":{"mediaType":"application/pdf","size":${size}}} file application/pdf get_report.pdf\nSales rose.\n`);
    expect(toolRequestLines(results)).toEqual(['GET /report.pdf']);
    const input = (fake.requests[1]!.json as { input: { type?: string; output?: { type: string; file_data?: string }[] }[] }).input;
    const file = input.find((item) => item.type === 'function_call_output')!.output!.find((part) => part.type === 'input_file')!;
    expect(sha256({ base64: file.file_data!.split(',')[1]! })).toBe(sha256(pdfBytes()));
    expect(fake.count).toBe(2);
  } finally {
    await results.close();
  }
});

it('the tool-search snippet: the model searches, the found tool is loaded and called, exactly that call is sent', { timeout: SPAWN_TIMEOUT }, async () => {
  const reply = (output: unknown[]) => ({ id: `resp_${fake.count}`, object: 'response', created_at: 0, status: 'completed', model: 'gpt-test', usage, output });
  fake.route('POST /v1/responses', (request, res) => {
    const input = (request.json as { input: { type?: string; tools?: { name: string }[] }[] }).input;
    const loaded = input.find((item) => item.type === 'tool_search_output');
    if (loaded === undefined) {
      return sendJson(
        res,
        200,
        reply([
          {
            type: 'tool_search_call',
            id: 'ts_1',
            call_id: 'ts_1',
            execution: 'client',
            arguments: { query: 'remove one of my notes', limit: 2 },
            status: 'completed',
          },
        ]),
      );
    }
    if (!input.some((item) => item.type === 'function_call_output')) {
      return sendJson(
        res,
        200,
        reply([{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: loaded.tools![0]!.name, arguments: '{"noteId":"n-1"}', status: 'completed' }]),
      );
    }
    return sendJson(
      res,
      200,
      reply([{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Deleted.', annotations: [] }] }]),
    );
  });
  const packageDir = fileURLToPath(new URL('..', import.meta.url));
  const env = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.url('/v1'), OPENAI_AGENTS_DISABLE_TRACING: '1', NOTES_TOKEN, NOTES_MANIFEST_URL: manifestUrl };
  const printed = await runReadmeSnippet(packageDir, 'snippet:tool-search', env);
  expect(printed).toBe('loaded: delete_note, get_note\nDeleted.\n');
  expect(toolRequestLines(notes)).toEqual(['DELETE /users/u-1/notes/n-1']);
  expect(fake.count).toBe(3);
});
