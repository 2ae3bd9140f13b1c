import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { NOTES_TOKEN, SPAWN_TIMEOUT, startNotesApi, toolRequestLines, type TestServer } from 'rcp-test-utils';

/**
 * The one spawn of the `rcp-mcp` bin: an MCP host starts it by the path its configuration gives
 * (bin/rcp-mcp.js), speaks MCP over its stdio, and the process exits 0 when the host closes its
 * stdin. What the command line does is tested in this process (mcp-command.test.ts).
 */
const bin = fileURLToPath(new URL('../bin/rcp-mcp.js', import.meta.url));

let notes: TestServer;
let manifestUrl: string;
beforeEach(async () => {
  ({ server: notes, manifestUrl } = await startNotesApi());
});
afterEach(async () => {
  await notes.close();
});

it('bin/rcp-mcp.js serves a host over stdio and exits 0 when the host closes it', { timeout: SPAWN_TIMEOUT }, async () => {
  const transport = new StdioTransportV1({
    command: process.execPath,
    args: [bin, manifestUrl, '--ctx', 'userId=u-1', '--token-env', 'NOTES_TOKEN'],
    env: { ...(process.env as Record<string, string>), NOTES_TOKEN },
    stderr: 'pipe',
  });
  const client = new ClientV1({ name: 'host-v1', version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(['list_notes', 'get_note', 'create_note', 'delete_note']);
  expect(await client.callTool({ name: 'get_note', arguments: { noteId: 'n-1' } })).toMatchObject({ structuredContent: { id: 'n-1', title: 'Groceries' } });
  expect(toolRequestLines(notes)).toEqual(['GET /users/u-1/notes/n-1']);
  // A host closes the child's stdin: the gateway ends by itself, exit code 0, no signal. The stdin is ended here
  // rather than by the SDK's close, which signals a child still running 2 s later — on a loaded machine a healthy
  // exit can take longer than that. (The child process is the SDK's own; its exit is read from it.)
  const child = (transport as unknown as { _process: ChildProcess })._process;
  const exited = new Promise<[number | null, string | null]>((resolve) => child.once('exit', (code, signal) => resolve([code, signal])));
  child.stdin?.end();
  expect(await exited).toEqual([0, null]);
  await client.close();
});
