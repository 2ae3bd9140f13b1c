import type { McpServer } from '@modelcontextprotocol/server';
import type { IncomingMessage } from 'node:http';
import { expectTypeOf, test } from 'vitest';
import type { RcpClient, RcpDiscovery, RcpToolSet } from 'rcp-client';
import { createRcpMcpGateway, createRcpMcpHttpHandler, createRcpMcpServer, serveRcpMcpStdio, type RcpMcpGateway, type RcpMcpGatewayOptions } from './index';

type Ctx = { userId: string };
declare const client: RcpClient<Ctx>;
declare const discovery: RcpDiscovery;
declare const toolSet: RcpToolSet;

test("the gateway's Context is the client's: serverFor takes exactly that context", () => {
  const gateway = createRcpMcpGateway({ client, source: discovery });
  expectTypeOf(gateway).toEqualTypeOf<RcpMcpGateway<Ctx>>();
  expectTypeOf(gateway.serverFor({ userId: 'u-1' })).toEqualTypeOf<McpServer>();
  expectTypeOf(gateway.toolSet).toEqualTypeOf<RcpToolSet>();
  expectTypeOf(gateway.warnings).toEqualTypeOf<readonly string[]>();
  // @ts-expect-error the client's resolvers read userId: a server needs its user
  gateway.serverFor();
  // @ts-expect-error a context of another shape
  gateway.serverFor({ user: 'u-1' });
});

test('createRcpMcpServer and serveRcpMcpStdio take the context the client reads', () => {
  expectTypeOf(createRcpMcpServer({ client, source: [discovery] }, { userId: 'u-1' })).toEqualTypeOf<McpServer>();
  serveRcpMcpStdio({ client, source: toolSet }, { userId: 'u-1' });
  // @ts-expect-error userId is a string
  createRcpMcpServer({ client, source: discovery }, { userId: 1 });
});

test('the HTTP gateway: authenticate returns the context (or nothing: 401), sync or async', () => {
  createRcpMcpHttpHandler({
    client,
    source: discovery,
    authenticate: (request: IncomingMessage) => (request.headers.authorization ? { userId: 'u-1' } : undefined),
  });
  createRcpMcpHttpHandler({ client, source: discovery, authenticate: async () => ({ userId: 'u-1' }) });
  // @ts-expect-error authenticate returns the client's context
  createRcpMcpHttpHandler({ client, source: discovery, authenticate: () => ({ user: 'u-1' }) });
});

test('options: a source, only / namespace from the tool set, dynamic mode; a misspelled key is refused', () => {
  const options: RcpMcpGatewayOptions<Ctx> = {
    client,
    source: [discovery, discovery],
    only: (tool) => tool.method === 'GET',
    namespace: (_discovery, index) => `m${index}`,
    dynamic: true,
    search: {},
    serverInfo: { name: 'notes', version: '1.0.0' },
  };
  createRcpMcpGateway(options);
  createRcpMcpGateway({ client, source: discovery, only: ['list_notes'] });
  // @ts-expect-error the option is dynamic
  createRcpMcpGateway({ client, source: discovery, dynamc: true });
  // @ts-expect-error a source is discoveries or a tool set, not a URL
  createRcpMcpGateway({ client, source: 'https://notes.example.com/rcp/manifest' });
});
