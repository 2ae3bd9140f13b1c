import { expectTypeOf, test } from 'vitest';
import { bearerAuth, createRcpServer, defineTool, type RcpServer, type VerifyHook } from './index';

interface Principal {
  userId: string;
}

test('the principal type reaches bound params and handlers', () => {
  defineTool<Principal>({
    name: 't',
    description: 'A tool.',
    method: 'GET',
    path: '/users/{{userId}}',
    params: [{ name: 'userId', bound: (principal) => expectTypeOf(principal).toEqualTypeOf<Principal>() && principal.userId }],
    handler: ({ principal, values, request }) => {
      expectTypeOf(principal).toEqualTypeOf<Principal>();
      expectTypeOf(values).toEqualTypeOf<Record<string, unknown>>();
      expectTypeOf(request).toEqualTypeOf<Request>();
      return undefined;
    },
  });
});

test('bearerAuth is a verify hook of its principal; the server is a fetch handler', () => {
  const verify = bearerAuth([{ token: 't', principal: { userId: 'u-1' } }]);
  expectTypeOf(verify).toEqualTypeOf<VerifyHook<{ userId: string }>>();
  const server = createRcpServer<Principal>({ tools: [], verify });
  expectTypeOf(server).toEqualTypeOf<RcpServer>();
  expectTypeOf(server.fetch).toEqualTypeOf<(request: Request) => Promise<Response>>();
  // @ts-expect-error a method is one of RCP's five
  defineTool({ name: 't', description: 'A tool.', method: 'HEAD', path: '/', handler: () => undefined });
  // @ts-expect-error a tool has a handler
  defineTool({ name: 't', description: 'A tool.', method: 'GET', path: '/' });
});
