import { expectTypeOf, test } from 'vitest';
import { bearerAuth, createRcpServer, defineTool, type DefineTool, type ReceivedFile, type ToolValues, type VerifyHook } from './index';

test("the principal of verify reaches every tool's bound params and handler, with no annotation", () => {
  createRcpServer({
    auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
    verify: bearerAuth([{ token: 'dev-token', principal: { userId: 'u-1' } }]),
    tools: (tool) => [
      tool({
        name: 'get_user',
        description: 'Gets the caller.',
        method: 'GET',
        path: '/users/{{userId}}',
        params: [{ name: 'userId', bound: (principal) => expectTypeOf(principal).toEqualTypeOf<{ userId: string }>() && principal.userId }],
        handler: ({ principal, values }) => {
          expectTypeOf(principal).toEqualTypeOf<{ userId: string }>();
          expectTypeOf(values).toEqualTypeOf<{ userId: string }>();
          return { id: values.userId };
        },
      }),
    ],
  });
  // A verify hook of your own (a function of the request) gives its principal the same way.
  createRcpServer({
    auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
    verify: async (request) => (request.headers.get('authorization') === 'Bearer t' ? { tenant: 't-1', roles: ['admin'] } : undefined),
    tools: (tool) => [
      tool({
        name: 'whoami',
        description: 'Says who the caller is.',
        method: 'GET',
        path: '/me',
        handler: ({ principal }) => expectTypeOf(principal).toEqualTypeOf<{ tenant: string; roles: string[] }>() && principal.tenant,
      }),
    ],
  });
  // A list of tools keeps working; plain tool objects in it get the principal too.
  createRcpServer({
    verify: bearerAuth([{ token: 't', principal: { userId: 'u-1' } }]),
    tools: [{ name: 't', description: 'A tool.', method: 'GET', path: '/t', handler: ({ principal }) => principal.userId }],
  });
  expectTypeOf(bearerAuth([{ token: 't', principal: { userId: 'u-1' } }])).toExtend<VerifyHook<{ userId: string }>>();
});

test('values are typed from the declared params: type, enum, items, properties, required, bound, path', () => {
  const tool: DefineTool<{ userId: string }> = defineTool;
  tool({
    name: 'search_notes',
    description: 'Searches notes.',
    method: 'POST',
    path: '/users/{{userId}}/notes/search',
    params: [
      { name: 'userId', bound: (principal) => principal.userId },
      { name: 'query', required: true },
      { name: 'word', maxLength: 40 },
      { name: 'limit', type: 'integer', minimum: 1 },
      { name: 'score', type: 'number' },
      { name: 'archived', type: 'boolean' },
      { name: 'status', type: 'string', enum: ['open', 'closed'] },
      { name: 'tags', type: 'array', items: { type: 'string' } },
      { name: 'anything', type: 'array' },
      {
        name: 'filter',
        type: 'object',
        properties: { from: { type: 'string', format: 'date' }, pinned: { type: 'boolean' }, ids: { type: 'array', items: { type: 'integer' } } },
        requiredProperties: ['from'],
      },
      { name: 'extra', type: 'object' },
    ],
    body: {
      query: '{{query}}',
      word: '{{word}}',
      limit: '{{limit}}',
      score: '{{score}}',
      archived: '{{archived}}',
      status: '{{status}}',
      tags: '{{tags}}',
      anything: '{{anything}}',
      filter: '{{filter}}',
      extra: '{{extra}}',
    },
    handler: ({ values, principal }) => {
      expectTypeOf(principal).toEqualTypeOf<{ userId: string }>();
      expectTypeOf(values).toEqualTypeOf<{
        userId: string;
        query: string;
        word?: string;
        limit?: number;
        score?: number;
        archived?: boolean;
        status?: 'open' | 'closed';
        tags?: string[];
        anything?: unknown[];
        filter?: { from: string; pinned?: boolean; ids?: number[] };
        extra?: Record<string, unknown>;
      }>();
      // @ts-expect-error an undeclared param is not among the values
      values.page;
      return values.tags?.map((tag) => tag.toUpperCase());
    },
  });
});

test('without a literal list of params, values stay Record<string, unknown> (and explicit type arguments still work)', () => {
  defineTool<{ userId: string }>({
    name: 't',
    description: 'A tool.',
    method: 'GET',
    path: '/users/{{userId}}',
    params: [{ name: 'userId', bound: (principal) => principal.userId }],
    handler: ({ values, principal }) => {
      expectTypeOf(principal).toEqualTypeOf<{ userId: string }>();
      expectTypeOf(values).toEqualTypeOf<Record<string, unknown>>();
      return undefined;
    },
  });
  const params: { name: string }[] = [{ name: 'q' }];
  defineTool({
    name: 't',
    description: 'A tool.',
    method: 'GET',
    path: '/',
    params,
    handler: ({ values }) => expectTypeOf(values).toEqualTypeOf<Record<string, unknown>>(),
  });
  expectTypeOf<ToolValues<readonly [{ name: 'id'; type: 'integer' }], '/items/{{id}}'>>().toEqualTypeOf<{ id: number }>();
});

test('a tool list kept in another file takes DefineTool and gets the principal from the server', () => {
  const notesTools = (tool: DefineTool<{ userId: string }>) => [
    tool({
      name: 'list_notes',
      description: 'Lists notes.',
      method: 'GET',
      path: '/users/{{userId}}/notes',
      params: [{ name: 'userId', bound: (principal) => principal.userId }],
      handler: ({ values }) => expectTypeOf(values).toEqualTypeOf<{ userId: string }>(),
    }),
  ];
  createRcpServer({ verify: bearerAuth([{ token: 't', principal: { userId: 'u-1' } }]), tools: notesTools });
  // @ts-expect-error the tools were written for another principal
  createRcpServer({ verify: bearerAuth([{ token: 't', principal: { accountId: 7 } }]), tools: notesTools });
});

test('a file param (RCP 0.4) reaches the handler as a ReceivedFile; bodyEncoding takes multipart', () => {
  const upload = defineTool({
    name: 'upload',
    description: 'Uploads an image.',
    method: 'POST',
    path: '/images',
    params: [{ name: 'image', type: 'file', required: true, mediaTypes: ['image/png'] }, { name: 'note', type: 'file' }, { name: 'caption' }],
    body: { image: '{{image}}', note: '{{note}}', caption: '{{caption}}' },
    bodyEncoding: 'multipart',
    handler: ({ values }) => {
      expectTypeOf(values).toEqualTypeOf<{ image: ReceivedFile; note?: ReceivedFile; caption?: string }>();
      expectTypeOf(values.image.bytes).toEqualTypeOf<Uint8Array>();
      return { size: values.image.size };
    },
  });
  createRcpServer({ tools: [upload], maxUploadBytes: 10_000_000 });
  // @ts-expect-error: a body is sent as json, form or multipart
  defineTool({ name: 'x', description: 'x', method: 'POST', path: '/x', bodyEncoding: 'xml', handler: () => null });
});
