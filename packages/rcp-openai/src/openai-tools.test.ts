import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient, type RcpInputSchema } from 'rcp-client';
import { type ModelFake, type ModelRequest, startModelFake } from 'rcp-model-fake';
import {
  detailsManifest,
  NOTES_TOKEN,
  runReadmeSnippet,
  serveManifest,
  SPAWN_TIMEOUT,
  sendJson,
  startNotesApi,
  startTestServer,
  toolRequestLines,
  type TestServer,
} from 'rcp-test-utils';
import { createOpenAITools, toOpenAISchema } from './index';

let notes: TestServer;
let manifestUrl: string;
let openaiFake: ModelFake;
beforeEach(async () => {
  ({ server: notes, manifestUrl } = await startNotesApi());
  openaiFake = await startModelFake();
});
afterEach(async () => {
  await Promise.all([notes.close(), openaiFake.close()]);
});

/** A scripted tool call with the id the assertions name. */
const toolCall = (id: string, name: string, args: string) => ({ id, name, arguments: args });
/** A Response with output items the turns do not script (a reasoning item), sent as written. */
const response = (output: unknown[]) => ({
  id: 'resp_1',
  object: 'response',
  created_at: 0,
  status: 'completed',
  model: 'gpt-test',
  output,
});

const notesClient = () => createRcpClient({ resolvers: { userId: (ctx: { userId?: string }) => ctx.userId }, credentials: () => NOTES_TOKEN });
const openai = () => new OpenAI({ apiKey: 'sk-test', baseURL: openaiFake.baseURL, maxRetries: 0 });
const toolRequests = () => toolRequestLines(notes);
const sentTools = (request: ModelRequest) => request.body.tools as unknown[];

describe('Chat Completions', () => {
  it('sends strict tools without resolver-bound params, and answers tool calls with tool messages', async () => {
    openaiFake.script({
      toolCalls: [
        toolCall('call_1', 'list_notes', '{"tag":null}'),
        toolCall('call_2', 'get_note', '{"noteId":"n-1","userId":"u-7"}'),
        toolCall('call_3', 'list_note', '{}'),
      ],
    });
    const client = notesClient();
    const rcp = createOpenAITools(client, await client.discover(manifestUrl));
    const result = await openai().chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], tools: rcp.chatTools });
    const tools = sentTools(openaiFake.requests[0]!);
    expect(tools[0]).toEqual({
      type: 'function',
      function: {
        name: 'list_notes',
        description: "Lists the user's notes.",
        parameters: {
          type: 'object',
          properties: { tag: { type: ['string', 'null'], description: 'Only notes with this tag' } },
          required: ['tag'],
          additionalProperties: false,
        },
        strict: true,
      },
    });
    expect(JSON.stringify(tools)).not.toContain('userId');

    const answers = await rcp.runToolCalls(result.choices[0]!.message.tool_calls, { userId: 'u-1' });
    expect(answers.map((answer) => answer.tool_call_id)).toEqual(['call_1', 'call_2', 'call_3']);
    expect(JSON.parse(answers[0]!.content)).toEqual({ ok: true, data: [{ id: 'n-1', title: 'Groceries' }] });
    expect(JSON.parse(answers[1]!.content)).toMatchObject({ ok: false, error: { code: 'RCP_INVALID_ARGUMENTS' } });
    expect(JSON.parse(answers[2]!.content).error.message).toContain('Did you mean "list_notes"?');
    // A null optional argument is "not given"; the spoof and the wrong name sent nothing.
    expect(toolRequests()).toEqual(['GET /users/u-1/notes']);
    expect(notes.requests.at(-1)!.rawQuery).toBe('');
  });

  it('a tool with an object or array param is sent with strict: false; strict can be turned off', async () => {
    const client = notesClient();
    const discovery = await client.discover(manifestUrl);
    const strictOff = createOpenAITools(client, discovery, { strict: false });
    expect(strictOff.chatTools.every((tool) => tool.function.strict === false)).toBe(true);
    expect(strictOff.chatTools[2]!.function.parameters).toMatchObject({ required: ['title'] });
    // Fresh copies: patching one never changes the next read.
    (strictOff.chatTools[0]!.function.parameters as { type: string }).type = 'patched';
    expect(strictOff.chatTools[0]!.function.parameters.type).toBe('object');
  });
});

describe('Responses API', () => {
  it('sends function tools and answers function_call items with function_call_output items', async () => {
    openaiFake.script({
      body: response([
        { type: 'reasoning', id: 'rs_1', summary: [] },
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_9',
          name: 'create_note',
          arguments: '{"title":"Call mum","text":null,"pinned":true}',
          status: 'completed',
        },
      ]),
    });
    const client = notesClient();
    const rcp = createOpenAITools(client, await client.discover(manifestUrl));
    const result = await openai().responses.create({ model: 'gpt-test', input: 'note: call mum', tools: rcp.responsesTools });
    const tools = sentTools(openaiFake.requests[0]!);
    expect(tools[2]).toMatchObject({ type: 'function', name: 'create_note', strict: true });
    expect(JSON.stringify(tools)).not.toContain('userId');
    const outputs = await rcp.runFunctionCalls(result.output, { userId: 'u-1' });
    expect(outputs).toEqual([
      {
        type: 'function_call_output',
        call_id: 'call_9',
        output: JSON.stringify({ ok: true, data: { id: 'n-2', title: 'Call mum', pinned: true } }),
      },
    ]);
    expect(notes.requests.at(-1)).toMatchObject({ method: 'POST', path: '/users/u-1/notes', json: { title: 'Call mum', pinned: true } });
  });
});

describe('README', () => {
  const packageDir = fileURLToPath(new URL('..', import.meta.url));
  const env = () => ({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: openaiFake.baseURL, NOTES_TOKEN, NOTES_MANIFEST_URL: manifestUrl });

  it.each(['snippet:chat-loop', 'snippet:chat-loop-ts'])(
    'runs the %s agent loop as written, against the fake OpenAI and the notes API',
    { timeout: SPAWN_TIMEOUT },
    async (marker) => {
      openaiFake.script(
        { toolCalls: [toolCall('call_1', 'list_notes', '{"tag":null}')] },
        { toolCalls: [toolCall('call_2', 'get_note', '{"noteId":"n-1"}')] },
        { text: 'Your groceries note says: eggs.' },
      );
      const printed = await runReadmeSnippet(packageDir, marker, env());
      expect(printed).toBe('Your groceries note says: eggs.\n');
      expect(toolRequests()).toEqual(['GET /users/u-1/notes', 'GET /users/u-1/notes/n-1']);
      expect(notes.requests.slice(1).every((request) => request.headers.authorization === `Bearer ${NOTES_TOKEN}`)).toBe(true);
      // The third request carried both tool answers back to the model.
      expect(openaiFake.requests[2]!.toolResults.map((result) => [result.callId, JSON.parse(result.text).ok])).toEqual([
        ['call_1', true],
        ['call_2', true],
      ]);
    },
  );

  it('runs the Responses loop as written: each turn sends the function_call_output items after the previous response', { timeout: SPAWN_TIMEOUT }, async () => {
    openaiFake.script(
      { toolCalls: [toolCall('call_1', 'list_notes', '{"tag":null}')] },
      { toolCalls: [toolCall('call_2', 'get_note', '{"noteId":"n-1"}')] },
      { text: 'Your groceries note says: eggs.' },
    );
    const printed = await runReadmeSnippet(packageDir, 'snippet:responses-loop', env());
    expect(printed).toBe('Your groceries note says: eggs.\n');
    expect(toolRequests()).toEqual(['GET /users/u-1/notes', 'GET /users/u-1/notes/n-1']);
    const sent = openaiFake.requests.map((request) => request.body);
    expect(sent[0]!.input).toBe('What is on my groceries note?');
    // The third turn continues the second response (the fake numbers its responses resp_1, resp_2 …).
    expect(sent[2]).toMatchObject({ previous_response_id: 'resp_2', input: [{ type: 'function_call_output', call_id: 'call_2' }] });
    expect(JSON.parse(openaiFake.requests[2]!.toolResults[0]!.text)).toMatchObject({ ok: true, data: { text: 'eggs' } });
  });
});

describe('the OpenAI table (docs/behaviour.md): what strict mode keeps, sent by the real SDK', () => {
  let api: TestServer;
  beforeEach(async () => {
    api = await startTestServer();
    api.route('GET /search', (_request, res) => sendJson(res, 200, { items: [] }));
  });
  afterEach(async () => {
    await api.close();
  });

  it('strict: the documented keywords only; the client still enforces the dropped lengths before any request', async () => {
    openaiFake.script({
      toolCalls: [
        toolCall('call_1', 'search_items', JSON.stringify({ q: 'x'.repeat(41), site: null, since: null, code: null, limit: null, status: null, size: null })),
        toolCall(
          'call_2',
          'search_items',
          JSON.stringify({ q: 'lamps', site: 'https://a.example', since: null, code: 'ABC', limit: 5, status: 'open', size: null }),
        ),
      ],
    });
    const client = createRcpClient();
    const rcp = createOpenAITools(client, await client.discover(serveManifest(api, detailsManifest)));
    const result = await openai().chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'find lamps' }], tools: rcp.chatTools });
    const [search, ping] = sentTools(openaiFake.requests[0]!) as { function: { parameters: unknown; strict: boolean } }[];
    expect(search!.function.strict).toBe(true);
    expect(search!.function.parameters).toEqual({
      type: 'object',
      properties: {
        q: { type: 'string', description: 'Search terms' }, // minLength / maxLength: not supported
        site: { type: ['string', 'null'], description: 'Only this site' }, // format "uri": not a strict format
        since: { type: ['string', 'null'], format: 'date-time' },
        code: { type: ['string', 'null'], pattern: '^[A-Z]{3}$' },
        limit: { type: ['integer', 'null'], minimum: 1, maximum: 50 }, // default: not supported
        status: { type: ['string', 'null'], enum: ['open', 'closed', null] },
        size: { type: ['integer', 'null'], enum: [1, 2, null] },
      },
      required: ['q', 'site', 'since', 'code', 'limit', 'status', 'size'],
      additionalProperties: false,
    });
    // A tool without arguments: an empty object schema, strict.
    expect(ping!.function).toMatchObject({ strict: true, parameters: { type: 'object', properties: {}, required: [], additionalProperties: false } });

    const answers = await rcp.runToolCalls(result.choices[0]!.message.tool_calls);
    expect(JSON.parse(answers[0]!.content)).toMatchObject({ ok: false, error: { code: 'RCP_INVALID_ARGUMENTS', message: expect.stringContaining('/q') } });
    expect(JSON.parse(answers[1]!.content)).toEqual({ ok: true, data: { items: [] } });
    expect(api.requests.filter((request) => request.path === '/search').map((request) => request.rawQuery)).toEqual([
      'q=lamps&site=https%3A%2F%2Fa.example&code=ABC&limit=5&status=open',
    ]);
  });

  it('strict: false sends every keyword of the model-facing schema (non-strict mode takes any JSON Schema)', async () => {
    openaiFake.script({ text: '' });
    const client = createRcpClient();
    const discovery = await client.discover(serveManifest(api, detailsManifest));
    const rcp = createOpenAITools(client, discovery, { strict: false });
    await openai().responses.create({ model: 'gpt-test', input: 'find lamps', tools: rcp.responsesTools });
    const [search] = sentTools(openaiFake.requests[0]!) as { parameters: unknown; strict: boolean }[];
    expect(search).toMatchObject({ strict: false, parameters: discovery.tool('search_items').inputSchema });
  });

  it.each([
    ['type and description', { type: 'string', description: 'd' }, { type: ['string', 'null'], description: 'd' }],
    ['a strict format', { type: 'string', format: 'email' }, { type: ['string', 'null'], format: 'email' }],
    ['another format', { type: 'string', format: 'uri' }, { type: ['string', 'null'] }],
    ['a number format', { type: 'number', format: 'double' }, { type: ['number', 'null'] }],
    ['pattern', { type: 'string', pattern: '^a' }, { type: ['string', 'null'], pattern: '^a' }],
    ['minLength / maxLength', { type: 'string', minLength: 1, maxLength: 9 }, { type: ['string', 'null'] }],
    ['minimum / maximum', { type: 'number', minimum: 0, maximum: 1 }, { type: ['number', 'null'], minimum: 0, maximum: 1 }],
    ['default', { type: 'boolean', default: true }, { type: ['boolean', 'null'] }],
    ['enum', { type: 'string', enum: ['a'] }, { type: ['string', 'null'], enum: ['a', null] }],
    ['items, not nullable inside', { type: 'array', items: { type: 'string', maxLength: 3 } }, { type: ['array', 'null'], items: { type: 'string' } }],
    [
      'properties, all required, closed',
      { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer', default: 1 } }, required: ['a'], additionalProperties: false },
      { type: ['object', 'null'], properties: { a: { type: 'string' }, b: { type: ['integer', 'null'] } }, required: ['a', 'b'], additionalProperties: false },
    ],
  ])('strict projection of an optional param: %s', (_rule, property, expected) => {
    const schema = { type: 'object', properties: { p: property }, required: [], additionalProperties: false } as unknown as RcpInputSchema;
    expect(toOpenAISchema(schema, { strict: true })).toEqual({
      strict: true,
      parameters: { type: 'object', properties: { p: expected }, required: ['p'], additionalProperties: false },
    });
  });

  it('an object param without properties or an array without items cannot be strict: sent whole, strict: false', () => {
    const schema = {
      type: 'object',
      properties: { raw: { type: 'object' }, limit: { type: 'integer', maximum: 50, default: 10 }, status: { type: 'string', enum: ['open'] } },
      required: [],
      additionalProperties: false,
    } as unknown as RcpInputSchema;
    expect(toOpenAISchema(schema, { strict: true })).toEqual({ strict: false, parameters: schema });
  });
});
