import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient, type RcpInputSchema } from 'rcp-client';
import { type ModelFake, startModelFake } from 'rcp-model-fake';
import {
  detailsManifest,
  NOTES_TOKEN,
  runReadmeSnippet,
  sendJson,
  serveManifest,
  startNotesApi,
  startTestServer,
  toolRequestLines,
  SPAWN_TIMEOUT,
  type TestServer,
} from 'rcp-test-utils';
import { createAnthropicTools, toAnthropicInputSchema } from './index';

let notes: TestServer;
let manifestUrl: string;
let fake: ModelFake;
beforeEach(async () => {
  ({ server: notes, manifestUrl } = await startNotesApi());
  fake = await startModelFake();
});
afterEach(async () => {
  await Promise.all([notes.close(), fake.close()]);
});

const toolRequests = () => toolRequestLines(notes);

describe('createAnthropicTools', () => {
  it('sends tools without resolver-bound params and answers tool_use blocks with tool_result blocks', async () => {
    fake.script({
      text: 'Let me look.',
      toolCalls: [
        { name: 'get_note', arguments: { noteId: 'n-1' } },
        { name: 'get_note', arguments: { noteId: 'n-1', userId: 'u-7' } },
        { name: 'delete_note', arguments: { noteId: 'n-1' } },
      ],
    });
    const client = createRcpClient({ resolvers: { userId: (ctx: { userId?: string }) => ctx.userId }, credentials: () => NOTES_TOKEN });
    const rcp = createAnthropicTools(client, await client.discover(manifestUrl));
    const anthropic = new Anthropic({ apiKey: 'sk-ant-test', baseURL: fake.origin, maxRetries: 0 });
    const reply = await anthropic.messages.create({
      model: 'claude-test',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
      tools: rcp.tools,
    });
    const sent = fake.requests[0]!.body.tools as unknown[];
    expect(sent[1]).toEqual({
      name: 'get_note',
      description: 'Gets one note.',
      input_schema: {
        type: 'object',
        properties: { noteId: { type: 'string', description: 'A note id from list_notes' } },
        required: ['noteId'],
        additionalProperties: false,
      },
    });
    expect(JSON.stringify(sent)).not.toContain('userId');

    const results = await rcp.runToolUses(reply.content, { userId: 'u-1' });
    expect(results.map(({ tool_use_id, is_error }) => [tool_use_id, is_error])).toEqual([
      ['toolu_1', false],
      ['toolu_2', true],
      ['toolu_3', false],
    ]);
    expect(JSON.parse(results[0]!.content as string)).toEqual({ ok: true, data: { id: 'n-1', title: 'Groceries', text: 'eggs' } });
    expect(JSON.parse(results[2]!.content as string)).toEqual({ ok: true, data: null });
    expect(toolRequests()).toEqual(['GET /users/u-1/notes/n-1', 'DELETE /users/u-1/notes/n-1']);
  });

  it('a turn with no verified user is an is_error result and nothing is sent', async () => {
    const client = createRcpClient({ resolvers: { userId: (ctx: { userId?: string }) => ctx.userId }, credentials: () => NOTES_TOKEN });
    const rcp = createAnthropicTools(client, await client.discover(manifestUrl));
    const [result] = await rcp.runToolUses([{ type: 'tool_use', id: 'toolu_1', name: 'list_notes', input: {} }], {});
    expect(result).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      is_error: true,
      content: JSON.stringify({ ok: false, error: { code: 'RCP_UNRESOLVED', message: 'A value the client must supply is unavailable.' } }),
    });
    expect(toolRequests()).toEqual([]);
  });
});

describe('README', () => {
  const packageDir = fileURLToPath(new URL('..', import.meta.url));

  it.each(['snippet:messages-loop', 'snippet:messages-loop-ts'])(
    'runs the %s agent loop as written, against the fake Messages API and the notes API',
    { timeout: SPAWN_TIMEOUT },
    async (marker) => {
      fake.script(
        { toolCalls: [{ name: 'list_notes', arguments: {} }] },
        { toolCalls: [{ name: 'get_note', arguments: { noteId: 'n-1' } }] },
        { text: 'Your groceries note says: eggs.' },
      );
      const printed = await runReadmeSnippet(packageDir, marker, {
        ANTHROPIC_API_KEY: 'sk-ant-test',
        ANTHROPIC_BASE_URL: fake.origin,
        NOTES_TOKEN,
        NOTES_MANIFEST_URL: manifestUrl,
      });
      expect(printed).toBe('Your groceries note says: eggs.\n');
      expect(toolRequests()).toEqual(['GET /users/u-1/notes', 'GET /users/u-1/notes/n-1']);
      expect(fake.requests[0]!.body.model).toBe('claude-sonnet-5-5');
      // Each tool_result went back to the model, answering its tool_use.
      expect(fake.requests.map((request) => request.toolResults.map((result) => [result.callId, result.isError]))).toEqual([
        [],
        [['toolu_1', false]],
        [
          ['toolu_1', false],
          ['toolu_2', false],
        ],
      ]);
    },
  );
});

describe('the Anthropic table (docs/behaviour.md): a non-strict input_schema keeps every keyword', () => {
  it('sends each detail through the real SDK; the client still refuses a bad value before any request', async () => {
    const api = await startTestServer();
    try {
      api.route('GET /search', (_request, res) => sendJson(res, 200, { items: [] }));
      fake.script({ text: '' });
      const client = createRcpClient();
      const discovery = await client.discover(serveManifest(api, detailsManifest));
      const rcp = createAnthropicTools(client, discovery);
      await new Anthropic({ apiKey: 'sk-ant-test', baseURL: fake.origin, maxRetries: 0 }).messages.create({
        model: 'claude-test',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'find lamps' }],
        tools: rcp.tools,
      });
      const [search, ping] = fake.requests[0]!.body.tools as { input_schema: unknown; strict?: unknown }[];
      expect(search!.strict).toBeUndefined();
      expect(search!.input_schema).toEqual({
        type: 'object',
        properties: {
          q: { type: 'string', description: 'Search terms', minLength: 2, maxLength: 40 },
          site: { type: 'string', description: 'Only this site', format: 'uri' },
          since: { type: 'string', format: 'date-time' },
          code: { type: 'string', pattern: '^[A-Z]{3}$' },
          limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
          status: { type: 'string', enum: ['open', 'closed'] },
          size: { type: 'integer', enum: [1, 2] },
        },
        required: ['q'],
        additionalProperties: false,
      });
      expect(ping!.input_schema).toEqual({ type: 'object', properties: {}, required: [], additionalProperties: false });

      const [tooShort, good] = await rcp.runToolUses([
        { type: 'tool_use', id: 'toolu_1', name: 'search_items', input: { q: 'x' } },
        { type: 'tool_use', id: 'toolu_2', name: 'search_items', input: { q: 'lamps', limit: 5 } },
      ]);
      expect(tooShort).toMatchObject({ is_error: true });
      expect(JSON.parse(tooShort!.content as string)).toMatchObject({ error: { code: 'RCP_INVALID_ARGUMENTS' } });
      expect(good).toMatchObject({ is_error: false });
      expect(api.requests.filter((request) => request.path === '/search').map((request) => request.rawQuery)).toEqual(['q=lamps&limit=5']);
    } finally {
      await api.close();
    }
  });

  it('projects nested items and properties the same way, as a fresh copy', () => {
    const schema = {
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string', maxLength: 20, pattern: '^[a-z]+$' } },
        meta: { type: 'object', properties: { n: { type: 'number', minimum: 0 } }, required: ['n'], additionalProperties: false },
      },
      required: [],
      additionalProperties: false,
    } as unknown as RcpInputSchema;
    const projected = toAnthropicInputSchema(schema);
    expect(projected).toEqual(schema);
    (projected.properties['tags'] as { items: { maxLength: number } }).items.maxLength = 1;
    expect((schema.properties['tags'] as { items: { maxLength: number } }).items.maxLength).toBe(20);
  });
});
