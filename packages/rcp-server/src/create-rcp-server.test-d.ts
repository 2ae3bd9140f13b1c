import { expectTypeOf, test } from 'vitest';
import { bearerAuth, createRcpServer, defineTool, type BearerAuthHook, type RcpServer, type VerifyHook } from './index';

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
  expectTypeOf(verify).toEqualTypeOf<BearerAuthHook<{ userId: string }>>();
  expectTypeOf(verify).toExtend<VerifyHook<{ userId: string }>>();
  const server = createRcpServer<Principal>({ tools: [], verify });
  expectTypeOf(server).toEqualTypeOf<RcpServer>();
  expectTypeOf(server.fetch).toEqualTypeOf<(request: Request) => Promise<Response>>();
  // @ts-expect-error a method is one of RCP's five
  defineTool({ name: 't', description: 'A tool.', method: 'HEAD', path: '/', handler: () => undefined });
  // @ts-expect-error a tool has a handler
  defineTool({ name: 't', description: 'A tool.', method: 'GET', path: '/' });
});

test('a pagination param names a declared param (when defineTool infers the names)', () => {
  const listed = defineTool({
    name: 'list_records',
    description: 'Lists records.',
    method: 'GET',
    path: '/records',
    params: [
      { name: 'cursor', type: 'string' },
      { name: 'limit', type: 'integer' },
    ],
    queryParams: { cursor: '{{cursor}}', limit: '{{limit}}' },
    pagination: { nextCursor: '@next', param: 'cursor' },
    responseMediaTypes: ['application/pdf'],
    handler: () => ({ items: [], next: null }),
  });
  expectTypeOf(listed.pagination!.param).toEqualTypeOf<'cursor' | 'limit'>();
  createRcpServer({ tools: [listed] });
  defineTool({
    name: 'list_records',
    description: 'Lists records.',
    method: 'GET',
    path: '/records',
    params: [{ name: 'cursor', type: 'string' }],
    // @ts-expect-error "page" is not a declared param
    pagination: { nextCursor: '@next', param: 'page' },
    handler: () => undefined,
  });
  // Without declared params (or with the principal type given explicitly) the names are not
  // inferred: any string type-checks, and createRcpServer refuses an undeclared one at run time.
  defineTool({ name: 't', description: 'A tool.', method: 'GET', path: '/', pagination: { nextCursor: '@next', param: 'cursor' }, handler: () => undefined });
});
