import { fileURLToPath } from 'node:url';
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient, createToolSet, toModelResult, toModelText } from 'rcp-client';
import { createToolSearch } from 'rcp-search';
import { NOTES_TOKEN, runReadmeSnippet, startNotesApi, toolRequestLines, SPAWN_TIMEOUT, type TestServer } from 'rcp-test-utils';
import { createLangChainTools } from './index';

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

describe('createLangChainTools', () => {
  it('has the model-facing JSON Schema, and a ToolCall gets a ToolMessage, ctx from config.configurable', async () => {
    const client = notesClient();
    const tools = createLangChainTools(client, await client.discover(manifestUrl));
    expect(tools.map((tool) => tool.name)).toEqual(['list_notes', 'get_note', 'create_note', 'delete_note']);
    expect(tools[1]!.schema).toEqual({
      type: 'object',
      properties: { noteId: { type: 'string', description: 'A note id from list_notes' } },
      required: ['noteId'],
      additionalProperties: false,
    });
    expect(JSON.stringify(tools.map((tool) => [tool.description, tool.schema]))).not.toContain('userId');

    const message = await tools[1]!.invoke({ name: 'get_note', args: { noteId: 'n-1' }, id: 'call_1', type: 'tool_call' }, { configurable: { userId: 'u-1' } });
    expect(message).toBeInstanceOf(ToolMessage);
    expect(message).toMatchObject({ tool_call_id: 'call_1', name: 'get_note', status: 'success' });
    expect(JSON.parse((message as ToolMessage).content as string)).toEqual({ ok: true, data: { id: 'n-1', title: 'Groceries', text: 'eggs' } });
    expect(toolRequests()).toEqual(['GET /users/u-1/notes/n-1']);
  });

  it('a failed call is a ToolMessage with status error; plain arguments get the JSON text', async () => {
    const client = notesClient();
    const tools = createLangChainTools(client, await client.discover(manifestUrl));
    const missingUser = await tools[0]!.invoke({ name: 'list_notes', args: {}, id: 'call_2', type: 'tool_call' }, { configurable: {} });
    expect(missingUser).toMatchObject({ status: 'error' });
    expect(JSON.parse((missingUser as ToolMessage).content as string)).toMatchObject({ error: { code: 'RCP_UNRESOLVED' } });
    const text = await tools[0]!.invoke({ tag: 'home' }, { configurable: { userId: 'u-1' } });
    expect(JSON.parse(text as string)).toMatchObject({ ok: true });
    expect(notes.requests.at(-1)).toMatchObject({ path: '/users/u-1/notes', rawQuery: 'tag=home' });
  });

  it("a spoofed resolver-bound param comes back to the model as the client's RCP_INVALID_ARGUMENTS: nothing is sent", async () => {
    const client = notesClient();
    const tools = createLangChainTools(client, await client.discover(manifestUrl), { context: (configurable) => ({ userId: configurable.user as string }) });
    const spoofed = (await tools[1]!.invoke(
      { name: 'get_note', args: { noteId: 'n-1', userId: 'u-7' }, id: 'call_3', type: 'tool_call' },
      { configurable: { user: 'u-1' } },
    )) as ToolMessage;
    expect(spoofed).toMatchObject({ tool_call_id: 'call_3', name: 'get_note', status: 'error' });
    expect(spoofed.content).toBe(
      toModelText({
        ok: false,
        error: { code: 'RCP_INVALID_ARGUMENTS', message: 'Invalid arguments for tool "get_note": /userId is not a parameter of this tool' },
      }),
    );
    expect(spoofed.artifact).toMatchObject({ ok: false, error: { code: 'RCP_INVALID_ARGUMENTS' } });
    expect(toolRequests()).toEqual([]);
    // The context mapper is used for a good call.
    await tools[1]!.invoke({ name: 'get_note', args: { noteId: 'n-1' }, id: 'call_4', type: 'tool_call' }, { configurable: { user: 'u-1' } });
    expect(toolRequests()).toEqual(['GET /users/u-1/notes/n-1']);
  });

  it('a wrong type, a missing argument, plain arguments: the same refusal as the client gives on every stack', async () => {
    const client = notesClient();
    const discovery = await client.discover(manifestUrl);
    const tools = createLangChainTools(client, discovery);
    const wrongType = (await tools[1]!.invoke(
      { name: 'get_note', args: { noteId: 42 }, id: 'c1', type: 'tool_call' },
      { configurable: { userId: 'u-1' } },
    )) as ToolMessage;
    // What the core says for the same call, not a copy of its wording.
    const expected = toModelText(toModelResult(await client.call(discovery, { name: 'get_note', arguments: { noteId: 42 } }, { userId: 'u-1' })));
    expect(expected).toContain('RCP_INVALID_ARGUMENTS');
    expect(wrongType).toMatchObject({ status: 'error', content: expected });
    const missing = (await tools[1]!.invoke({ name: 'get_note', args: {}, id: 'c2', type: 'tool_call' }, { configurable: { userId: 'u-1' } })) as ToolMessage;
    expect(JSON.parse(missing.content as string)).toEqual({
      ok: false,
      error: { code: 'RCP_INVALID_ARGUMENTS', message: 'Invalid arguments for tool "get_note": /noteId is required' },
    });
    const plain = await tools[1]!.invoke({ noteId: 'n-1', userId: 'u-7' }, { configurable: { userId: 'u-1' } });
    expect(JSON.parse(plain as string)).toMatchObject({ ok: false, error: { code: 'RCP_INVALID_ARGUMENTS' } });
    expect(toolRequests()).toEqual([]);
  });

  it('null for an optional argument is "not given" (as the client\'s rule says); null for a required one is "is required"', async () => {
    const client = notesClient();
    const tools = createLangChainTools(client, await client.discover(manifestUrl));
    const listed = (await tools[0]!.invoke(
      { name: 'list_notes', args: { tag: null }, id: 'c1', type: 'tool_call' },
      { configurable: { userId: 'u-1' } },
    )) as ToolMessage;
    expect(listed).toMatchObject({ status: 'success' });
    expect(notes.requests.at(-1)).toMatchObject({ path: '/users/u-1/notes', rawQuery: '' });
    const required = (await tools[1]!.invoke(
      { name: 'get_note', args: { noteId: null }, id: 'c2', type: 'tool_call' },
      { configurable: { userId: 'u-1' } },
    )) as ToolMessage;
    expect(required).toMatchObject({ status: 'error' });
    expect(JSON.parse(required.content as string)).toMatchObject({
      error: { code: 'RCP_INVALID_ARGUMENTS', message: expect.stringContaining('/noteId is required') },
    });
    expect(toolRequests()).toEqual(['GET /users/u-1/notes']);
  });

  it("stage: every tool for the model, each call through the stage — outside it, the client's RCP_TOOL_NOT_IN_STAGE sentence, nothing sent", async () => {
    const client = notesClient();
    const whole = createToolSet(await client.discover(manifestUrl));
    const tools = createLangChainTools(client, whole, { stage: whole.select(['list_notes'], { stage: 'browse' }) });
    expect(tools.map((tool) => tool.name)).toEqual(whole.names);
    const deleteNote = tools.find((tool) => tool.name === 'delete_note')!;
    const refused = (await deleteNote.invoke(
      { name: 'delete_note', args: { noteId: 'n-1' }, id: 'c1', type: 'tool_call' },
      { configurable: { userId: 'u-1' } },
    )) as ToolMessage;
    expect(refused).toMatchObject({ status: 'error' });
    expect(JSON.parse(refused.content as string)).toEqual({
      ok: false,
      error: { code: 'RCP_TOOL_NOT_IN_STAGE', message: 'Tool "delete_note" is not available in stage "browse".' },
    });
    expect(toolRequests()).toEqual([]);
    await tools[0]!.invoke({ name: 'list_notes', args: {}, id: 'c2', type: 'tool_call' }, { configurable: { userId: 'u-1' } });
    expect(toolRequests()).toEqual(['GET /users/u-1/notes']);
  });

  it("an aborted run's tool rejects, as every LangChain tool does; nothing is sent", async () => {
    const client = notesClient();
    const tools = createLangChainTools(client, await client.discover(manifestUrl));
    const controller = new AbortController();
    controller.abort();
    await expect(
      tools[1]!.invoke(
        { name: 'get_note', args: { noteId: 'n-1' }, id: 'c1', type: 'tool_call' },
        { configurable: { userId: 'u-1' }, signal: controller.signal },
      ),
    ).rejects.toThrow();
    expect(toolRequests()).toEqual([]);
  });

  it('through LangGraph\'s ToolNode: the model reads the client\'s refusal, not "did not match expected schema"; null is accepted', async () => {
    const client = notesClient();
    const toolNode = new ToolNode(createLangChainTools(client, await client.discover(manifestUrl)));
    const asked = new AIMessage({
      content: '',
      tool_calls: [
        { id: 'c1', name: 'get_note', args: { noteId: 'n-1', userId: 'u-7' } },
        { id: 'c2', name: 'list_notes', args: { tag: null } },
      ],
    });
    const { messages } = (await toolNode.invoke({ messages: [asked] }, { configurable: { userId: 'u-1' } })) as { messages: ToolMessage[] };
    expect(messages.map((message) => [message.tool_call_id, message.status])).toEqual([
      ['c1', 'error'],
      ['c2', 'success'],
    ]);
    expect(messages[0]!.content).toBe(
      '{"ok":false,"error":{"code":"RCP_INVALID_ARGUMENTS","message":"Invalid arguments for tool \\"get_note\\": /userId is not a parameter of this tool"}}',
    );
    expect(JSON.stringify(messages)).not.toContain('did not match expected schema');
    expect(toolRequests()).toEqual(['GET /users/u-1/notes']);
  });
});

describe('README', () => {
  const packageDir = fileURLToPath(new URL('..', import.meta.url));

  it.each(['snippet:tool-loop', 'snippet:tool-loop-ts'])('runs the %s tool loop as written', { timeout: SPAWN_TIMEOUT }, async (marker) => {
    const printed = await runReadmeSnippet(packageDir, marker, { NOTES_TOKEN, NOTES_MANIFEST_URL: manifestUrl });
    expect(printed).toBe('Your groceries note says: eggs.\n');
    expect(toolRequests()).toEqual(['GET /users/u-1/notes', 'GET /users/u-1/notes/n-1']);
  });

  it("runs the tool selector as written: the model is bound the hits, and the found tool's one request is sent", { timeout: SPAWN_TIMEOUT }, async () => {
    const printed = await runReadmeSnippet(packageDir, 'snippet:tool-selector', { NOTES_TOKEN, NOTES_MANIFEST_URL: manifestUrl });
    const client = notesClient();
    const hits = await createToolSearch(createToolSet(await client.discover(manifestUrl))).search('Read my note n-1.', { limit: 2 });
    expect(hits.map((hit) => hit.name)).toContain('get_note');
    expect(printed).toBe(`[ ${hits.map((hit) => `'${hit.name}'`).join(', ')} ]\nYour note says: eggs.\n`);
    expect(toolRequests()).toEqual(['GET /users/u-1/notes/n-1']);
  });

  it('runs the approval flow as written: the review, the edited review, then the one request sent', { timeout: SPAWN_TIMEOUT }, async () => {
    const printed = await runReadmeSnippet(fileURLToPath(new URL('..', import.meta.url)), 'snippet:approval', {
      NOTES_TOKEN,
      NOTES_MANIFEST_URL: manifestUrl,
    });
    const url = notes.url('/users/u-1/notes');
    expect(printed).toBe(`POST ${url} {"title":"Milk"}\nPOST ${url} {"title":"Oat milk"}\nAdded "Oat milk".\n`);
    expect(toolRequests()).toEqual(['POST /users/u-1/notes']);
    expect(notes.requests.at(-1)!.json).toEqual({ title: 'Oat milk' });
  });
});
