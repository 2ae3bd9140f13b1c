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
import { type ModelFake, startModelFake } from 'rcp-model-fake';
import { redisTestAvailability, startRedisServer, type RedisServer } from 'rcp-test-utils/stores';
import {
  NOTES_TOKEN,
  SPAWN_TIMEOUT,
  pdfBytes,
  runReadmeSnippet,
  sha256,
  startNotesApi,
  startResultsApi,
  toolRequestLines,
  type TestServer,
} from 'rcp-test-utils';

let notes: TestServer;
let manifestUrl: string;
let fake: ModelFake;
let dir: string;
beforeEach(async () => {
  ({ server: notes, manifestUrl } = await startNotesApi());
  fake = await startModelFake();
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

describe.skipIf(redisTestAvailability().skip)('the approval snippets, sharing a real redis-server (loopback)', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(() => redis?.stop());

  it('pauses in one process and resumes in another: exactly the reviewed request is sent, once', { timeout: SPAWN_TIMEOUT }, async () => {
    fake.script({ toolCalls: [{ id: 'call_1', name: 'delete_note', arguments: { noteId: 'n-1' } }] }, { text: 'Your groceries note is deleted.' });
    const packageDir = fileURLToPath(new URL('..', import.meta.url));
    const env = {
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: fake.baseURL,
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
    expect(fake.requests[1]!.toolResults.map((result) => JSON.parse(result.text))).toEqual([{ ok: true, data: null }]);
    expect(fake.requests).toHaveLength(2);
  });
});

it('the results snippet: the PDF reaches the model API as input_file with its bytes, and the application reads it', { timeout: SPAWN_TIMEOUT }, async () => {
  const { server: results, manifestUrl: resultsManifestUrl } = await startResultsApi();
  try {
    fake.script({ toolCalls: [{ id: 'call_1', name: 'get_report' }] }, { text: 'Sales rose.' });
    const packageDir = fileURLToPath(new URL('..', import.meta.url));
    const env = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseURL, OPENAI_AGENTS_DISABLE_TRACING: '1', RESULTS_MANIFEST_URL: resultsManifestUrl };
    const printed = await runReadmeSnippet(packageDir, 'snippet:results', env);
    const size = pdfBytes().byteLength;
    expect(printed).toBe(`{"ok":true,"data":null,"media":{"mediaType":"application/pdf","size":${size}}} file application/pdf get_report.pdf\nSales rose.\n`);
    expect(toolRequestLines(results)).toEqual(['GET /report.pdf']);
    const parts = fake.requests[1]!.toolResults[0]!.output as { type: string; file_data?: string }[];
    const file = parts.find((part) => part.type === 'input_file')!;
    expect(sha256({ base64: file.file_data!.split(',')[1]! })).toBe(sha256(pdfBytes()));
    expect(fake.requests).toHaveLength(2);
  } finally {
    await results.close();
  }
});

it('the tool-search snippet: the model searches, the found tool is loaded and called, exactly that call is sent', { timeout: SPAWN_TIMEOUT }, async () => {
  // The search call and the loaded tools are Responses items the turns do not script: raw answers.
  const reply = (output: unknown[]) => ({
    body: { id: `resp_${fake.requests.length}`, object: 'response', created_at: 0, status: 'completed', model: 'gpt-test', usage, output },
  });
  fake.script(
    () =>
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
    (request) => {
      const loaded = (request.body.input as { type?: string; tools?: { name: string }[] }[]).find((item) => item.type === 'tool_search_output');
      return { toolCalls: [{ id: 'call_1', name: loaded!.tools![0]!.name, arguments: { noteId: 'n-1' } }] };
    },
    (request) => ({ text: request.toolResults.length > 0 ? 'Deleted.' : 'no tool result came back' }),
  );
  const packageDir = fileURLToPath(new URL('..', import.meta.url));
  const env = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseURL, OPENAI_AGENTS_DISABLE_TRACING: '1', NOTES_TOKEN, NOTES_MANIFEST_URL: manifestUrl };
  const printed = await runReadmeSnippet(packageDir, 'snippet:tool-search', env);
  expect(printed).toBe('loaded: delete_note, get_note\nDeleted.\n');
  expect(toolRequestLines(notes)).toEqual(['DELETE /users/u-1/notes/n-1']);
  expect(fake.requests).toHaveLength(3);
});
