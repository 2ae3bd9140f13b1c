import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import {
  NOTES_TOKEN,
  runReadmeSnippet,
  SPAWN_TIMEOUT,
  sendJson,
  startNotesApi,
  startTestServer,
  toolRequestLines,
  type RecordedRequest,
  type TestServer,
} from 'rcp-test-utils';
import { createOpenAITools } from './index';

let notes: TestServer;
let manifestUrl: string;
let openaiFake: TestServer;
beforeEach(async () => {
  ({ server: notes, manifestUrl } = await startNotesApi());
  openaiFake = await startTestServer();
});
afterEach(async () => {
  await Promise.all([notes.close(), openaiFake.close()]);
});

/** Scripts the fake's answers, one per request, in order. */
function script(path: string, answers: unknown[]): void {
  let index = 0;
  openaiFake.route(`POST ${path}`, (_request, res) => sendJson(res, 200, answers[Math.min(index++, answers.length - 1)]));
}

const completion = (message: Record<string, unknown>) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 0,
  model: 'gpt-test',
  choices: [{ index: 0, finish_reason: message.tool_calls ? 'tool_calls' : 'stop', message: { role: 'assistant', content: null, ...message } }],
});
const toolCall = (id: string, name: string, args: string) => ({ id, type: 'function', function: { name, arguments: args } });
const response = (output: unknown[]) => ({
  id: 'resp_1',
  object: 'response',
  created_at: 0,
  status: 'completed',
  model: 'gpt-test',
  output,
});

const notesClient = () =>
  createRcpClient({ resolvers: { userId: (ctx: { userId?: string }) => ctx.userId }, credentials: () => NOTES_TOKEN });
const openai = () => new OpenAI({ apiKey: 'sk-test', baseURL: openaiFake.url('/v1'), maxRetries: 0 });
const toolRequests = () => toolRequestLines(notes);
const sentTools = (request: RecordedRequest) => (request.json as { tools: unknown[] }).tools;

describe('Chat Completions', () => {
  it('sends strict tools without resolver-bound params, and answers tool calls with tool messages', async () => {
    script('/v1/chat/completions', [
      completion({
        tool_calls: [
          toolCall('call_1', 'list_notes', '{"tag":null}'),
          toolCall('call_2', 'get_note', '{"noteId":"n-1","userId":"u-7"}'),
          toolCall('call_3', 'list_note', '{}'),
        ],
      }),
    ]);
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
    script('/v1/responses', [
      response([
        { type: 'reasoning', id: 'rs_1', summary: [] },
        { type: 'function_call', id: 'fc_1', call_id: 'call_9', name: 'create_note', arguments: '{"title":"Call mum","text":null,"pinned":true}', status: 'completed' },
      ]),
    ]);
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
  it('runs the agent loop as written, against the fake OpenAI and the notes API', { timeout: SPAWN_TIMEOUT }, async () => {
    script('/v1/chat/completions', [
      completion({ tool_calls: [toolCall('call_1', 'list_notes', '{"tag":null}')] }),
      completion({ tool_calls: [toolCall('call_2', 'get_note', '{"noteId":"n-1"}')] }),
      completion({ content: 'Your groceries note says: eggs.' }),
    ]);
    const printed = await runReadmeSnippet(fileURLToPath(new URL('..', import.meta.url)), 'snippet:chat-loop', {
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: openaiFake.url('/v1'),
      NOTES_TOKEN,
      NOTES_MANIFEST_URL: manifestUrl,
    });
    expect(printed).toBe('Your groceries note says: eggs.\n');
    expect(toolRequests()).toEqual(['GET /users/u-1/notes', 'GET /users/u-1/notes/n-1']);
    expect(notes.requests.slice(1).every((request) => request.headers.authorization === `Bearer ${NOTES_TOKEN}`)).toBe(true);
    // The third request carried both tool answers back to the model.
    const lastMessages = (openaiFake.requests[2]!.json as { messages: { role: string; content: string }[] }).messages;
    expect(lastMessages.filter((message) => message.role === 'tool').map((message) => JSON.parse(message.content).ok)).toEqual([true, true]);
  });
});

describe('RCP 0.2 value details', () => {
  it('are kept, and an array with items or an object with properties can be strict at every level', async () => {
    const { toOpenAISchema } = await import('./strict-schema');
    const schema = {
      type: 'object',
      properties: {
        status: { type: 'string', enum: ['open', 'closed'] },
        tags: { type: 'array', items: { type: 'string', maxLength: 20 } },
        meta: { type: 'object', properties: { id: { type: 'string' }, n: { type: 'integer', minimum: 1 } }, required: ['id'], additionalProperties: false },
        limit: { type: 'integer', maximum: 50, default: 10 },
      },
      required: ['tags'],
      additionalProperties: false,
    } as const;
    expect(toOpenAISchema(schema as never, { strict: true })).toEqual({
      strict: true,
      parameters: {
        type: 'object',
        properties: {
          status: { type: ['string', 'null'], enum: ['open', 'closed', null] },
          tags: { type: 'array', items: { type: 'string', maxLength: 20 } },
          meta: {
            type: ['object', 'null'],
            properties: { id: { type: 'string' }, n: { type: ['integer', 'null'], minimum: 1 } },
            required: ['id', 'n'],
            additionalProperties: false,
          },
          limit: { type: ['integer', 'null'], maximum: 50 },
        },
        required: ['status', 'tags', 'meta', 'limit'],
        additionalProperties: false,
      },
    });
    const open = toOpenAISchema({ ...schema, properties: { ...schema.properties, raw: { type: 'object' } } } as never, { strict: true });
    expect(open.strict).toBe(false);
    expect(open.parameters).toMatchObject({ properties: { limit: { default: 10 }, status: { enum: ['open', 'closed'] } } });
  });
});
