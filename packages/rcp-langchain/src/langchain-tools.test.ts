import { fileURLToPath } from 'node:url';
import { ToolMessage } from '@langchain/core/messages';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { NOTES_TOKEN, readmeTypeErrors, runReadmeSnippet, startNotesApi, toolRequestLines, SPAWN_TIMEOUT, type TestServer } from 'rcp-test-utils';
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

    const message = await tools[1]!.invoke(
      { name: 'get_note', args: { noteId: 'n-1' }, id: 'call_1', type: 'tool_call' },
      { configurable: { userId: 'u-1' } },
    );
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

  it('a spoofed resolver-bound param is refused by the schema before the tool runs: nothing is sent', async () => {
    const client = notesClient();
    const tools = createLangChainTools(client, await client.discover(manifestUrl), { context: (configurable) => ({ userId: configurable.user as string }) });
    await expect(
      tools[1]!.invoke({ name: 'get_note', args: { noteId: 'n-1', userId: 'u-7' }, id: 'call_3', type: 'tool_call' }, { configurable: { user: 'u-1' } }),
    ).rejects.toThrow(/did not match expected schema/);
    expect(toolRequests()).toEqual([]);
    // The context mapper is used for a good call.
    await tools[1]!.invoke({ name: 'get_note', args: { noteId: 'n-1' }, id: 'call_4', type: 'tool_call' }, { configurable: { user: 'u-1' } });
    expect(toolRequests()).toEqual(['GET /users/u-1/notes/n-1']);
  });
});

describe('README', () => {
  const packageDir = fileURLToPath(new URL('..', import.meta.url));

  it.each(['snippet:tool-loop', 'snippet:tool-loop-ts'])('runs the %s tool loop as written', { timeout: SPAWN_TIMEOUT }, async (marker) => {
    const printed = await runReadmeSnippet(packageDir, marker, { NOTES_TOKEN, NOTES_MANIFEST_URL: manifestUrl });
    expect(printed).toBe('Your groceries note says: eggs.\n');
    expect(toolRequests()).toEqual(['GET /users/u-1/notes', 'GET /users/u-1/notes/n-1']);
  });

  it('its TypeScript block compiles with the package\'s strict tsconfig', { timeout: SPAWN_TIMEOUT }, () => {
    expect(readmeTypeErrors(packageDir, 'snippet:tool-loop-ts')).toEqual([]);
  });
});
