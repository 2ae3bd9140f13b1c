import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { createRcpMcpHttpHandler } from 'rcp-mcp';
import { frameworks, notesServer, TOKEN, type HandlerLog, type Running } from './test/fixture';

/** An MCP host (the real v2 SDK client) → rcp-mcp's gateway → rcp-client → an rcp-server API, all on loopback. */
describe('an MCP host calling an rcp-server API through rcp-mcp', () => {
  let log: HandlerLog;
  let api: Running;
  let gateway: Server;
  let url: URL;
  beforeEach(async () => {
    log = { calls: [] };
    api = await frameworks[0]!.start(notesServer(log));
    const client = createRcpClient({ resolvers: { userId: (ctx: { userId: string }) => ctx.userId }, credentials: () => TOKEN });
    const handler = createRcpMcpHttpHandler({
      client,
      source: await client.discover(`${api.origin}/rcp/manifest`),
      authenticate: (request) => (request.headers.authorization === 'Bearer session-ada' ? { userId: 'u-1' } : undefined),
    });
    gateway = createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}/mcp`);
  });
  afterEach(async () => {
    await new Promise((resolve) => gateway.close(resolve));
    await api.close();
  });

  it('lists the tools without the bound param and runs a call end to end', async () => {
    const host = new Client({ name: 'host', version: '1.0.0' });
    await host.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: 'Bearer session-ada' } } }));
    try {
      const { tools } = await host.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['get_note', 'search_notes', 'create_note', 'pay']);
      expect(JSON.stringify(tools)).not.toContain('userId');
      const result = await host.callTool({ name: 'get_note', arguments: { noteId: 'n-1' } });
      expect(result).toMatchObject({ structuredContent: { id: 'n-1', owner: 'u-1' } });
      const refused = await host.callTool({ name: 'search_notes', arguments: { query: 'x' } });
      expect(refused.isError).toBe(true); // minLength 2: refused by the client before any request
      expect(log.calls).toEqual([{ tool: 'get_note', values: { userId: 'u-1', noteId: 'n-1' } }]);
    } finally {
      await host.close();
    }
  });
});
