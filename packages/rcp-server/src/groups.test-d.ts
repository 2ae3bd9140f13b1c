import type { RcpGroup } from 'rcp-manifest';
import { expectTypeOf, test } from 'vitest';
import { bearerAuth, createRcpServer, defineTool, type DefineTool, type RcpServerOptions, type ServerGroup, type ServerTool } from './index';

const verify = bearerAuth([{ token: 't', principal: { userId: 'u-1' } }]);

test("in tools: (tool) => [...], a tool's group is one of the declared groups' names", () => {
  createRcpServer({
    verify,
    groups: [{ name: 'invoices', description: 'Invoices and their payments.' }, { name: 'misc' }],
    tools: (tool) => [
      tool({ name: 'list_invoices', description: 'Lists invoices.', method: 'GET', path: '/invoices', group: 'invoices', handler: () => [] }),
      tool({ name: 'health', description: 'Says the API is up.', method: 'GET', path: '/health', group: 'misc', handler: () => undefined }),
      tool({ name: 'ping', description: 'In no group.', method: 'GET', path: '/ping', handler: () => undefined }),
    ],
  });
  createRcpServer({
    verify,
    groups: [{ name: 'invoices' }],
    tools: (tool) => [
      // @ts-expect-error "refunds" is not one of the groups
      tool({ name: 'refund', description: 'Refunds.', method: 'POST', path: '/refunds', group: 'refunds', handler: () => undefined }),
    ],
  });
  createRcpServer({
    verify,
    groups: [{ name: 'invoices' }],
    tools: (tool) => [
      // @ts-expect-error a group is named as it is declared: "Invoices" is not "invoices"
      tool({ name: 'list_invoices', description: 'Lists invoices.', method: 'GET', path: '/invoices', group: 'Invoices', handler: () => [] }),
    ],
  });
  createRcpServer({
    tools: (tool) => [
      // @ts-expect-error a server without groups has no group to name
      tool({ name: 'refund', description: 'Refunds.', method: 'POST', path: '/refunds', group: 'refunds', handler: () => undefined }),
    ],
  });
});

test('a group is a name and an optional description, the name kept as written', () => {
  expectTypeOf<ServerGroup<'invoices'>['name']>().toEqualTypeOf<'invoices'>();
  expectTypeOf<ServerGroup['description']>().toEqualTypeOf<string | undefined>();
  expectTypeOf<ServerGroup>().toExtend<RcpGroup>();
  expectTypeOf<RcpServerOptions<unknown, 'invoices'>['groups']>().toEqualTypeOf<readonly ServerGroup<'invoices'>[] | undefined>();
  // @ts-expect-error a description is text
  createRcpServer({ groups: [{ name: 'invoices', description: 7 }], tools: [] });
  // @ts-expect-error a misspelled field of a group is refused
  createRcpServer({ groups: [{ name: 'invoices', descripton: 'Invoices.' }], tools: [] });
});

test('a list of tools kept in its own file names the groups its tools use', () => {
  const billing = (tool: DefineTool<{ userId: string }, 'invoices'>) => [
    tool({ name: 'list_invoices', description: 'Lists invoices.', method: 'GET', path: '/invoices', group: 'invoices', handler: () => [] }),
  ];
  const plain = (tool: DefineTool<{ userId: string }>) => [
    tool({ name: 'ping', description: 'Pings.', method: 'GET', path: '/ping', handler: () => undefined }),
  ];
  // A server with these groups and more takes it; one without "invoices" does not.
  createRcpServer({ verify, groups: [{ name: 'invoices' }, { name: 'refunds' }], tools: billing });
  // @ts-expect-error the server does not declare "invoices"
  createRcpServer({ verify, groups: [{ name: 'refunds' }], tools: billing });
  // A list whose tools are in no group fits every server.
  createRcpServer({ verify, groups: [{ name: 'refunds' }], tools: plain });
  createRcpServer({ verify, tools: plain });
  (tool: DefineTool<{ userId: string }>) => [
    // @ts-expect-error DefineTool<Principal> is for tools in no group
    tool({ name: 'list_invoices', description: 'Lists invoices.', method: 'GET', path: '/invoices', group: 'invoices', handler: () => [] }),
  ];
});

test('defineTool takes any group; createRcpServer checks a list of tools when it is created', () => {
  const listed = defineTool({ name: 'list_invoices', description: 'Lists invoices.', method: 'GET', path: '/invoices', group: 'invoices', handler: () => [] });
  expectTypeOf(listed.group).toEqualTypeOf<string | undefined>();
  expectTypeOf(listed).toExtend<ServerTool>();
  createRcpServer({ groups: [{ name: 'invoices' }], tools: [listed] });
});

test('with the principal given by hand, the group names are given too', () => {
  interface Principal {
    userId: string;
  }
  createRcpServer<Principal, 'invoices'>({
    verify,
    groups: [{ name: 'invoices' }],
    tools: (tool) => [tool({ name: 'list_invoices', description: 'Lists invoices.', method: 'GET', path: '/invoices', group: 'invoices', handler: () => [] })],
  });
  // @ts-expect-error without them the server has no group names
  createRcpServer<Principal>({ verify, groups: [{ name: 'invoices' }], tools: [] });
});
