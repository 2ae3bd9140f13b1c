import { fileURLToPath } from 'node:url';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import {
  NOTES_TOKEN,
  RESULTS_RETRY_AFTER_SECONDS,
  pngBytes,
  runReadmeSnippet,
  startNotesApi,
  startResultsApi,
  startStreamApi,
  STREAM_EVENTS,
  STREAM_TEXT,
  toolRequestLines,
  SPAWN_TIMEOUT,
  type TestServer,
} from 'rcp-test-utils';
import { createAISDKTools, type AISDKTurn } from './index';

let notes: TestServer;
let manifestUrl: string;
beforeEach(async () => {
  ({ server: notes, manifestUrl } = await startNotesApi());
});
afterEach(async () => {
  await notes.close();
});

type Ctx = { userId?: string };
const notesClient = () => createRcpClient({ resolvers: { userId: (ctx: Ctx) => ctx.userId }, credentials: () => NOTES_TOKEN });
const toolRequests = () => toolRequestLines(notes);

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const toolCalls = (...calls: [string, string, unknown][]) => ({
  content: calls.map(([toolCallId, toolName, input]) => ({ type: 'tool-call' as const, toolCallId, toolName, input: JSON.stringify(input) })),
  finishReason: { unified: 'tool-calls' as const, raw: undefined },
  usage,
  warnings: [],
});
const text = (value: string) => ({
  content: [{ type: 'text' as const, text: value }],
  finishReason: { unified: 'stop' as const, raw: undefined },
  usage,
  warnings: [],
});

describe('createAISDKTools through generateText', () => {
  it('the model never sees a resolver-bound param; calls run with the turn context; errors are results', async () => {
    const client = notesClient();
    const rcp = createAISDKTools(client, await client.discover(manifestUrl));
    const model = new MockLanguageModelV3({
      doGenerate: [toolCalls(['c1', 'list_notes', {}], ['c2', 'get_note', { noteId: 'n-9' }]), text('Done.')],
    });
    const result = await generateText({
      model,
      tools: rcp.tools,
      prompt: 'list my notes',
      stopWhen: stepCountIs(3),
      experimental_context: { userId: 'u-1' },
    });
    const sent = model.doGenerateCalls[0]!.tools!;
    expect(sent.map((tool) => tool.name)).toEqual(['list_notes', 'get_note', 'create_note', 'delete_note']);
    expect(sent[1]).toMatchObject({
      type: 'function',
      name: 'get_note',
      description: 'Gets one note.',
      inputSchema: { properties: { noteId: { type: 'string' } }, required: ['noteId'], additionalProperties: false },
    });
    expect(JSON.stringify(model.doGenerateCalls.map((call) => call.tools))).not.toContain('userId');
    const outputs = result.steps[0]!.toolResults.map((toolResult) => toolResult.output);
    expect(outputs[0]).toEqual({ ok: true, data: [{ id: 'n-1', title: 'Groceries' }] });
    expect(outputs[1]).toMatchObject({ ok: false, error: { code: 'RCP_HTTP_ERROR', message: expect.stringContaining('HTTP 404') } });
    expect(result.text).toBe('Done.');
    expect(toolRequests()).toEqual(['GET /users/u-1/notes', 'GET /users/u-1/notes/n-9']);
  });

  it("RCP's validation refuses a spoofed resolver-bound param before execute: nothing is sent", async () => {
    const client = notesClient();
    const rcp = createAISDKTools(client, await client.discover(manifestUrl));
    const model = new MockLanguageModelV3({ doGenerate: [toolCalls(['c1', 'get_note', { noteId: 'n-1', userId: 'u-7' }]), text('ok')] });
    const result = await generateText({ model, tools: rcp.tools, prompt: 'x', stopWhen: stepCountIs(3), experimental_context: { userId: 'u-1' } });
    const errors = result.steps[0]!.content.filter((part) => part.type === 'tool-error');
    expect(errors).toHaveLength(1);
    expect(String((errors[0] as { error: unknown }).error)).toContain('/userId is not a parameter of this tool');
    expect(toolRequests()).toEqual([]);
  });

  it('stages map to activeTools, and a call outside the turn stage sends no request', async () => {
    const client = notesClient();
    const rcp = createAISDKTools(client, await client.discover(manifestUrl), {
      stages: { browse: ['list_notes', 'get_note'], act: () => true },
      turn: (context) => context as AISDKTurn<Ctx>,
    });
    expect(rcp.activeTools('browse')).toEqual(['list_notes', 'get_note']);
    expect(() => rcp.activeTools('nope')).toThrow(/No stage "nope"/);
    const model = new MockLanguageModelV3({ doGenerate: [toolCalls(['c1', 'delete_note', { noteId: 'n-1' }]), text('ok')] });
    const result = await generateText({
      model,
      tools: rcp.tools,
      activeTools: rcp.activeTools('browse'),
      prompt: 'delete it',
      stopWhen: stepCountIs(3),
      experimental_context: { ctx: { userId: 'u-1' }, stage: 'browse' },
    });
    expect(model.doGenerateCalls[0]!.tools!.map((tool) => tool.name)).toEqual(['list_notes', 'get_note']);
    const parts = result.steps[0]!.content.filter((part) => part.type === 'tool-result' || part.type === 'tool-error');
    expect(parts).toHaveLength(1);
    expect(toolRequests()).toEqual([]);
  });

  it('a fixed ctx serves a tool set built for one user', async () => {
    const client = notesClient();
    const rcp = createAISDKTools(client, await client.discover(manifestUrl), { ctx: { userId: 'u-1' } });
    const model = new MockLanguageModelV3({ doGenerate: [toolCalls(['c1', 'list_notes', {}]), text('ok')] });
    await generateText({ model, tools: rcp.tools, prompt: 'x', stopWhen: stepCountIs(3) });
    expect(toolRequests()).toEqual(['GET /users/u-1/notes']);
  });
});

describe('README', () => {
  const packageDir = fileURLToPath(new URL('..', import.meta.url));

  it.each(['snippet:generate-text', 'snippet:generate-text-ts'])('runs the %s agent loop as written', { timeout: SPAWN_TIMEOUT }, async (marker) => {
    const printed = await runReadmeSnippet(packageDir, marker, { NOTES_TOKEN, NOTES_MANIFEST_URL: manifestUrl });
    expect(printed).toBe('Your groceries note says: eggs.\n');
    expect(toolRequests()).toEqual(['GET /users/u-1/notes', 'GET /users/u-1/notes/n-1']);
  });

  it('runs the approval flow as written: the review printed, one request sent after the yes', { timeout: SPAWN_TIMEOUT }, async () => {
    const printed = await runReadmeSnippet(fileURLToPath(new URL('..', import.meta.url)), 'snippet:approval', {
      NOTES_TOKEN,
      NOTES_MANIFEST_URL: manifestUrl,
    });
    expect(printed).toBe(`the call changes data (approval: "writes"): POST ${notes.url('/users/u-1/notes')} {"title":"Milk"}\nAdded "Milk".\n`);
    expect(toolRequests()).toEqual(['POST /users/u-1/notes']);
    expect(notes.requests.at(-1)!.json).toEqual({ title: 'Milk' });
  });

  it('runs the results snippet as written: an image part and a retry hint reach the model', { timeout: SPAWN_TIMEOUT }, async () => {
    const { server: results, manifestUrl: resultsManifestUrl } = await startResultsApi();
    try {
      const printed = await runReadmeSnippet(packageDir, 'snippet:results', { RESULTS_MANIFEST_URL: resultsManifestUrl });
      const size = pngBytes().byteLength;
      const lines = printed.trimEnd().split('\n');
      expect(lines[0]).toBe(`get_chart content: {"ok":true,"data":null,"media":{"mediaType":"image/png","size":${size}}} + image-data image/png`);
      expect(lines[1]).toMatch(/^get_busy error-text: \{"ok":false,"error":\{"code":"RCP_HTTP_ERROR",/);
      expect(JSON.parse(lines[1]!.slice('get_busy error-text: '.length)).error.retryAfterSeconds).toBe(RESULTS_RETRY_AFTER_SECONDS);
      expect(lines[2]).toBe(`${size} bytes for the application`);
      expect(toolRequestLines(results)).toEqual(['GET /chart.png', 'GET /busy']);
    } finally {
      await results.close();
    }
  });

  it('runs the stream-progress snippet as written: progress while the stream is read, then the collected text', { timeout: SPAWN_TIMEOUT }, async () => {
    const { server: stream, manifestUrl: streamManifestUrl } = await startStreamApi();
    try {
      const lines = (await runReadmeSnippet(packageDir, 'snippet:stream-progress', { STREAM_MANIFEST_URL: streamManifestUrl })).trimEnd().split('\n');
      expect(lines.at(-1)).toBe(`collected: ${STREAM_TEXT.length} characters`);
      const counts = lines.slice(0, -1).map((line) => Number(/^(\d+) events read$/.exec(line)![1]));
      expect(counts.length).toBeGreaterThan(1);
      expect(counts.every((count, index) => count <= STREAM_EVENTS && (index === 0 || count > counts[index - 1]!))).toBe(true);
      expect(toolRequestLines(stream)).toEqual(['POST /answer']);
    } finally {
      await stream.close();
    }
  });

  it('runs the tool-search snippet as written: one tool first, then the found ones; exactly the found call is sent', { timeout: SPAWN_TIMEOUT }, async () => {
    const printed = await runReadmeSnippet(packageDir, 'snippet:tool-search', { NOTES_TOKEN, NOTES_MANIFEST_URL: manifestUrl });
    expect(printed).toBe('search_tools\nget_note, delete_note, search_tools\nget_note, delete_note, search_tools\nDeleted.\n');
    expect(toolRequests()).toEqual(['DELETE /users/u-1/notes/n-1']);
  });
});
