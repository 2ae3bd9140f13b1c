/**
 * RCP 0.3 effects reach MCP hosts as tool annotations (SPEC §18.1): a real MCP client lists the
 * tools of a manifest that declares effects; a claim only adds caution.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpMcpHttpHandler, toolAnnotations } from './index';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function serve(manifest: object): Promise<TestServer> {
  const api = await startTestServer();
  api.route('GET /rcp/manifest', (_request, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(manifest));
  });
  closers.push(() => api.close());
  return api;
}

it('a real MCP client sees the declared effects as annotations, only adding caution', async () => {
  const api = await serve({
    rcpVersion: '0.3',
    tools: [
      { name: 'export_all', description: 'A GET that wipes a cache.', method: 'GET', url: '/export', effects: { destructive: true } },
      {
        name: 'search',
        description: 'Search by POST.',
        method: 'POST',
        url: '/search',
        body: {},
        effects: { readOnly: true, destructive: false, openWorld: false },
      },
      { name: 'ping', description: 'Ping.', method: 'GET', url: '/ping' },
    ],
  });
  const client = createRcpClient();
  const handler = createRcpMcpHttpHandler({ client, source: await client.discover(api.url('/rcp/manifest')), authenticate: () => ({}) });
  const gateway: Server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => gateway.close(resolve)));
  const host = new Client({ name: 'host', version: '1.0.0' });
  await host.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}/mcp`)));
  closers.push(() => host.close());

  const { tools } = await host.listTools();
  expect(Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]))).toEqual({
    export_all: { openWorldHint: true, destructiveHint: true, idempotentHint: true },
    // the read-only claim of a POST is not taken; its other claims are
    search: { openWorldHint: false, destructiveHint: false },
    ping: { openWorldHint: true, readOnlyHint: true },
  });
});

it('annotations of a bare method are the method defaults', () => {
  expect(toolAnnotations('GET')).toEqual({ openWorldHint: true, readOnlyHint: true });
  expect(toolAnnotations('PATCH')).toEqual({ openWorldHint: true });
});
