import { afterEach, beforeEach, expect, it } from 'vitest';
import { NOTES_TOKEN, notesManifest, serveManifest, startNotesApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { startRcpMcp, type McpHostRun } from './fixtures/run-rcp';

/**
 * `rcp-mcp --dynamic` (rcp-mcp's docs/behaviour.md, the gateway): past the host's tool limit the warning names the
 * flag, and with it a host gets the three tools and reaches a found tool's call. The built command
 * line in this process, the v1 MCP client on its stdio streams, the notes API on 127.0.0.1. (The
 * dynamic mode itself is tested in rcp-mcp.)
 */
const bigManifest = {
  ...notesManifest,
  tools: [
    ...notesManifest.tools,
    ...Array.from({ length: 41 }, (_, index) => ({
      name: `get_report_${index + 1}`,
      description: `Gets sales report number ${index + 1} of the quarter.`,
      method: 'GET',
      url: `/reports/${index + 1}`,
    })),
  ],
};

let notes: TestServer;
let manifestUrl: string;
const runs: McpHostRun[] = [];
beforeEach(async () => {
  ({ server: notes } = await startNotesApi());
  manifestUrl = serveManifest(notes, bigManifest, '/big/manifest');
});
afterEach(async () => {
  await Promise.all(runs.splice(0).map((run) => run.stop()));
  await notes.close();
});

it('rcp-mcp: the warning names --dynamic in the instructions; with --dynamic the host gets the three tools over stdio', async () => {
  const start = async (extra: string[]) => {
    const run = await startRcpMcp([manifestUrl, '--ctx', 'userId=u-1', '--token-env', 'NOTES_TOKEN', ...extra], { env: { NOTES_TOKEN } });
    runs.push(run);
    return run.client;
  };
  const [listing, dynamic] = await Promise.all([start([]), start(['--dynamic'])]);
  expect(listing.getInstructions()).toContain('select fewer (--only a,b); or serve them in dynamic mode (--dynamic: search_tools, describe_tool and call_tool');
  expect(dynamic.getInstructions()).toBeUndefined();
  notes.reset();
  const { tools } = await dynamic.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(['search_tools', 'describe_tool', 'call_tool']);
  const text = (result: unknown) => JSON.parse((result as { content: { text: string }[] }).content[0]!.text) as { ok: boolean; data: any };
  const found = text(await dynamic.callTool({ name: 'search_tools', arguments: { query: 'read one of my notes', limit: 3 } }));
  expect(found.data.tools[0].name).toBe('get_note');
  const called = text(await dynamic.callTool({ name: 'call_tool', arguments: { name: 'get_note', arguments: { noteId: 'n-1' } } }));
  expect(called).toEqual({ ok: true, data: { id: 'n-1', title: 'Groceries', text: 'eggs' } });
  expect(toolRequestLines(notes)).toEqual(['GET /users/u-1/notes/n-1']);
  expect(notes.requests.at(-1)!.headers.authorization).toBe(`Bearer ${NOTES_TOKEN}`);
});

it('rcp-mcp --dynamic over a grouped manifest (RCP 0.4): the start line names list_groups, which the host gets', async () => {
  const grouped = {
    ...bigManifest,
    rcpVersion: '0.4',
    groups: [
      { name: 'notes', description: 'Your notes.' },
      { name: 'reports', description: 'Sales reports.' },
    ],
    tools: bigManifest.tools.map((tool) => ({ ...tool, group: tool.name.startsWith('get_report_') ? 'reports' : 'notes' })),
  };
  const url = serveManifest(notes, grouped, '/grouped/manifest');
  const run = await startRcpMcp([url, '--ctx', 'userId=u-1', '--token-env', 'NOTES_TOKEN', '--dynamic'], { env: { NOTES_TOKEN } });
  runs.push(run);
  const { tools } = await run.client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(['search_tools', 'describe_tool', 'call_tool', 'list_groups']);
  expect(run.stderr()).toContain(
    `rcp-mcp: serving ${grouped.tools.length} tool(s) in 2 group(s) through search_tools, describe_tool, call_tool and list_groups over stdio`,
  );
});
