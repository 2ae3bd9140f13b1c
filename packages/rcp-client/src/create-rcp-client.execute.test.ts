import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import type { RcpClientOptions } from './client-options';
import type { RcpClientTool } from './client-tool';
import { createRcpClient } from './create-rcp-client';
import { errorText, rejectsWith, serveManifest } from './internal/testing';
import { RcpResolverError } from './resolver-error';

const SECRET_TOKEN = 'tok-SECRET-4242';
const SECRET_USER = 'user-SECRET-9191';

const manifest = {
  rcpVersion: '0.1',
  auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
  tools: [
    {
      name: 'get_profile',
      description: 'Profile of the signed-in user.',
      method: 'GET',
      url: '/users/{{userId}}/profile',
      queryParams: { fields: '{{fields}}' },
      params: [
        { name: 'userId', description: 'the user id' },
        { name: 'fields', type: 'array', description: 'fields to return' },
      ],
    },
    {
      name: 'create_note',
      description: 'Creates a note.',
      method: 'POST',
      url: '/notes/{{folder}}',
      headers: { 'X-Note-Title': '{{title}}' },
      body: { title: '{{title}}', text: 'Note: {{text}}', owner: '{{userId}}', role: 'user' },
      params: [{ name: 'folder', required: true }, { name: 'title', required: true }, { name: 'text' }, { name: 'userId' }],
    },
    {
      name: 'public_search',
      description: 'Search, no auth.',
      method: 'GET',
      url: '/search',
      queryParams: { q: '{{q}}', limit: '{{limit}}' },
      params: [
        { name: 'q', required: true },
        { name: 'limit', type: 'integer' },
      ],
      auth: { type: 'none' },
    },
  ],
};

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
  server.route('* /users/u-1/profile', (request, res) => sendJson(res, 200, { ok: true, query: request.rawQuery }));
});
afterEach(async () => {
  await server.close();
});

async function setup(options: RcpClientOptions<{ userId?: unknown }> = {}) {
  const resolver = vi.fn((ctx: { userId?: unknown }) => ctx.userId);
  const credentials = vi.fn(() => SECRET_TOKEN as string | undefined);
  const client = createRcpClient<{ userId?: unknown }>({ resolvers: { userId: resolver }, credentials, ...options });
  const { tools } = await client.discover(serveManifest(server, manifest));
  server.reset();
  const byName = (name: string): RcpClientTool => tools.find((tool) => tool.name === name)!;
  return { client, resolver, credentials, profile: byName('get_profile'), note: byName('create_note'), search: byName('public_search') };
}

describe('execute: the happy path', () => {
  it('validates, resolves once with (ctx, { tool, param }), adds the credential, renders and sends', async () => {
    const { client, resolver, credentials, profile } = await setup();
    const ctx = { userId: 'u-1' };
    const result = await client.execute(profile, { fields: ['name', 'plan'] }, ctx);
    expect(result).toEqual({ status: 200, data: { ok: true, query: 'fields=name&fields=plan' }, contentType: 'application/json' });
    expect(resolver).toHaveBeenCalledTimes(1);
    expect(resolver).toHaveBeenCalledWith(ctx, { tool: profile, param: 'userId' });
    expect(credentials).toHaveBeenCalledTimes(1);
    expect(server.count).toBe(1);
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/users/u-1/profile' });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${SECRET_TOKEN}`);
    expect(server.requests[0]?.headers.accept).toBe('application/json, */*;q=0.8');
  });

  it('serialises a JSON body with content-type application/json; a body injection stays a string', async () => {
    const { client, note } = await setup();
    server.route('POST /notes/inbox', (request, res) => sendJson(res, 201, request.json));
    const title = '", "role": "admin';
    const result = await client.execute(note, { folder: 'inbox', title: 'plain', text: title }, { userId: 'u-1' });
    expect(result.status).toBe(201);
    const received = server.requests[0]!;
    expect(received.headers['content-type']).toBe('application/json');
    expect(received.json).toEqual({ title: 'plain', text: `Note: ${title}`, owner: 'u-1', role: 'user' });
    expect(received.headers['x-note-title']).toBe('plain');
  });

  it('accepts async resolvers and an async credentials provider', async () => {
    const { client, profile } = await setup({
      resolvers: { userId: async (ctx) => ctx.userId },
      credentials: async () => SECRET_TOKEN,
    });
    const result = await client.execute(profile, {}, { userId: 'u-1' });
    expect(result.status).toBe(200);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${SECRET_TOKEN}`);
  });
});

describe('execute: synchronous and asynchronous resolvers and credentials', () => {
  it('calls synchronous resolvers and a synchronous provider at once, in that order', async () => {
    const calls: string[] = [];
    const { client, profile } = await setup({
      resolvers: { userId: (ctx) => (calls.push('resolver'), ctx.userId) },
      credentials: () => (calls.push('credentials'), SECRET_TOKEN),
    });
    const pending = client.execute(profile, {}, { userId: 'u-1' });
    expect(calls).toEqual(['resolver', 'credentials']);
    expect((await pending).status).toBe(200);
    expect(server.requests[0]?.path).toBe('/users/u-1/profile');
  });

  it('asks a synchronous provider only once an asynchronous resolver has settled', async () => {
    const calls: string[] = [];
    let release: (value: string) => void = () => {};
    const { client, profile } = await setup({
      resolvers: { userId: () => new Promise<string>((resolve) => (release = (value) => (calls.push('settled'), resolve(value)))) },
      credentials: () => (calls.push('credentials'), SECRET_TOKEN),
    });
    const pending = client.execute(profile, {}, {});
    await Promise.resolve();
    expect(calls).toEqual([]);
    release('u-1');
    expect((await pending).status).toBe(200);
    expect(calls).toEqual(['settled', 'credentials']);
  });

  it('reports problems in param order when synchronous and asynchronous resolvers are mixed', async () => {
    const client = createRcpClient({
      resolvers: { folder: async () => 'f', title: () => null },
      credentials: () => SECRET_TOKEN,
      modelFilledParams: ['userId'], // tools[0]'s, not under test here
    });
    const { tools } = await client.discover(serveManifest(server, manifest));
    server.reset();
    const error = await rejectsWith(client.execute(tools[1]!, {}), 'RCP_UNRESOLVED');
    expect(error).toMatchObject({ param: 'title' });
    expect(server.count).toBe(0);
  });

  it('redacts every form of a resolver value and the credential from an HTTP error', async () => {
    const value = 'a/b c&d';
    const { client, profile } = await setup({ resolvers: { userId: () => value } });
    server.route('GET /users/a%2Fb%20c%26d/profile', (request, res) =>
      sendJson(res, 500, { echo: [value, encodeURIComponent(value), request.url, SECRET_TOKEN, JSON.stringify(value)] }),
    );
    const error = await rejectsWith(client.execute(profile, { fields: ['x'] }, {}), 'RCP_HTTP_ERROR');
    expect(server.count).toBe(1);
    const text = errorText(error);
    for (const form of [value, encodeURIComponent(value), 'a%2Fb%20c%26d', SECRET_TOKEN]) expect(text).not.toContain(form);
    expect(text).toContain('[redacted]');
  });
});

describe('execute step 1: arguments (nothing sent, nothing resolved)', () => {
  it.each([
    ['a missing required argument', {}],
    ['a wrong type', { q: 'x', limit: '10' }],
    ['an unknown key', { q: 'x', tenant: 'evil' }],
    ['a resolver-bound key (spoof)', { q: 'x', userId: 'someone-else' }],
    ['a __proto__ key from JSON', JSON.parse('{"q": "x", "__proto__": {"userId": "someone-else"}}')],
    ['not an object', 'q=x'],
  ])('refuses %s with RCP_INVALID_ARGUMENTS', async (_name, args) => {
    const { client, search, resolver, credentials } = await setup();
    const error = await rejectsWith(client.execute(search, args, {}), 'RCP_INVALID_ARGUMENTS');
    expect(error).toHaveProperty('issues');
    expect(resolver).not.toHaveBeenCalled();
    expect(credentials).not.toHaveBeenCalled();
    expect(server.count).toBe(0);
  });

  it('never uses a spoofed value for a resolver-bound param', async () => {
    const { client, profile } = await setup();
    const error = await rejectsWith(client.execute(profile, { userId: 'admin' }, { userId: 'u-1' }), 'RCP_INVALID_ARGUMENTS');
    expect(error).toMatchObject({ issues: [{ path: '/userId', message: 'is not a parameter of this tool' }] });
    const spoof = JSON.parse('{"__proto__": {"userId": "admin"}}');
    await rejectsWith(client.execute(profile, spoof, { userId: 'u-1' }), 'RCP_INVALID_ARGUMENTS');
    expect(server.count).toBe(0);
    expect(({} as { userId?: unknown }).userId).toBeUndefined();
  });
});

describe('execute step 2: resolvers (nothing sent)', () => {
  it.each([
    ['undefined', undefined],
    ['null', null],
  ])('a resolver returning %s fails with RCP_UNRESOLVED naming the param', async (_name, value) => {
    const { client, profile, credentials } = await setup();
    const error = await rejectsWith(client.execute(profile, {}, { userId: value }), 'RCP_UNRESOLVED');
    expect(error).toBeInstanceOf(RcpResolverError);
    expect(error).toMatchObject({ param: 'userId', tool: 'get_profile' });
    expect(error.message).toContain('"userId"');
    expect(credentials).not.toHaveBeenCalled();
    expect(server.count).toBe(0);
  });

  it('a call without ctx whose resolver reads it is a clean RCP_UNRESOLVED (the TypeError kept as cause)', async () => {
    const { client, profile, credentials } = await setup();
    // The types require ctx here; a JavaScript caller (or an `any` context) can still leave it out.
    // @ts-expect-error ctx is required for a client whose resolvers read a typed context
    const error = await rejectsWith(client.execute(profile, {}), 'RCP_UNRESOLVED');
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(error).toMatchObject({ param: 'userId', tool: 'get_profile' });
    expect(error.message).toContain('no context');
    expect(credentials).not.toHaveBeenCalled();
    expect(server.count).toBe(0);
  });

  it('a resolver that throws while a ctx was given is still RCP_RESOLVER_FAILED', async () => {
    const { client, profile, resolver } = await setup();
    resolver.mockImplementationOnce(() => {
      throw new TypeError('boom');
    });
    const error = await rejectsWith(client.execute(profile, {}, {}), 'RCP_RESOLVER_FAILED');
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(server.count).toBe(0);
  });

  it('a rejecting async resolver is RCP_RESOLVER_FAILED with the cause', async () => {
    const cause = new Error('session store down');
    const { client, profile } = await setup({ resolvers: { userId: async () => Promise.reject(cause) } });
    const error = await rejectsWith(client.execute(profile, {}, {}), 'RCP_RESOLVER_FAILED');
    expect(error.cause).toBe(cause);
    expect(server.count).toBe(0);
  });

  it.each([
    ['a number', 42],
    ['an object', { id: SECRET_USER }],
    ['an array', [SECRET_USER]],
  ])('a resolver returning %s for a string param is RCP_RESOLVER_FAILED without echoing it', async (_name, value) => {
    const { client, profile } = await setup();
    const error = await rejectsWith(client.execute(profile, {}, { userId: value }), 'RCP_RESOLVER_FAILED');
    expect(error.message).toMatch(/returned (integer|object|array), but the param must be a string/);
    expect(errorText(error)).not.toContain(SECRET_USER);
    expect(server.count).toBe(0);
  });

  it('resolver values never appear in an error, even when the server echoes them', async () => {
    const { client, profile } = await setup({ resolvers: { userId: () => SECRET_USER } });
    server.route(`GET /users/${SECRET_USER}/profile`, (request, res) => sendJson(res, 403, { error: `user ${SECRET_USER} may not see ${request.url}` }));
    const error = await rejectsWith(client.execute(profile, {}, {}), 'RCP_HTTP_ERROR');
    expect(server.count).toBe(1);
    expect(errorText(error)).not.toContain(SECRET_USER);
    expect(errorText(error)).not.toContain(SECRET_TOKEN);
  });
});

describe('execute step 3: credentials (nothing sent)', () => {
  it('no credentials option → RCP_MISSING_CREDENTIALS', async () => {
    const client = createRcpClient({ resolvers: { userId: () => 'u-1' } });
    const { tools } = await client.discover(serveManifest(server, manifest));
    server.reset();
    await rejectsWith(client.execute(tools[0]!, {}), 'RCP_MISSING_CREDENTIALS');
    expect(server.count).toBe(0);
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['an empty string', ''],
    ['only spaces', '   '],
    ['a number', 42],
    ['a CRLF injection', `${SECRET_TOKEN}\r\nX-Admin: 1`],
    ['a non-Latin-1 character', `${SECRET_TOKEN}✓`],
  ])('a provider returning %s → RCP_MISSING_CREDENTIALS', async (_name, value) => {
    const { client, profile } = await setup({ credentials: () => value as string });
    const error = await rejectsWith(client.execute(profile, {}, { userId: 'u-1' }), 'RCP_MISSING_CREDENTIALS');
    expect(errorText(error)).not.toContain(SECRET_TOKEN);
    expect(server.count).toBe(0);
  });

  it('a throwing provider → RCP_MISSING_CREDENTIALS with the cause', async () => {
    const cause = new Error('vault sealed');
    const { client, profile } = await setup({
      credentials: () => {
        throw cause;
      },
    });
    const error = await rejectsWith(client.execute(profile, {}, { userId: 'u-1' }), 'RCP_MISSING_CREDENTIALS');
    expect(error.cause).toBe(cause);
    expect(server.count).toBe(0);
  });

  it('a tool with auth none never asks for a credential', async () => {
    const { client, search, credentials } = await setup();
    server.route('GET /search', (_request, res) => sendJson(res, 200, []));
    await client.execute(search, { q: 'x' }, {});
    expect(credentials).not.toHaveBeenCalled();
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('a manifest cannot template the auth header itself', async () => {
    const client = createRcpClient({ credentials: () => SECRET_TOKEN });
    const shadow = {
      rcpVersion: '0.1',
      auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
      tools: [
        {
          name: 'shadow',
          description: 'Tries to set its own Authorization.',
          method: 'GET',
          url: '/who',
          headers: { authorization: 'Basic {{x}}' },
          params: [{ name: 'x' }],
        },
      ],
    };
    const error = await rejectsWith(client.discover(serveManifest(server, shadow)), 'RCP_INVALID_MANIFEST');
    expect(error).toMatchObject({ issues: [expect.objectContaining({ path: '/tools/0/headers/authorization' })] });
  });
});

describe('execute step 4: rendering and origin checks (nothing sent)', () => {
  it.each([
    ['..', 'RCP_TEMPLATE_VALUE'],
    ['.', 'RCP_TEMPLATE_VALUE'],
    ['', 'RCP_TEMPLATE_VALUE'],
  ] as const)('a path segment of %j is refused with %s', async (folder, code) => {
    const { client, note } = await setup();
    await rejectsWith(client.execute(note, { folder, title: 't' }, { userId: 'u-1' }), code);
    expect(server.count).toBe(0);
  });

  it('a header value with CRLF is refused with RCP_TEMPLATE_VALUE', async () => {
    const { client, note } = await setup();
    const error = await rejectsWith(client.execute(note, { folder: 'inbox', title: 'a\r\nX-Admin: true' }, { userId: 'u-1' }), 'RCP_TEMPLATE_VALUE');
    expect(error).toMatchObject({ token: 'title', position: 'header' });
    expect(server.count).toBe(0);
  });

  it('allowOrigin refusing the tool origin → RCP_ORIGIN_NOT_ALLOWED', async () => {
    const seen: string[] = [];
    const allowOrigin = (url: URL) => {
      seen.push(url.pathname);
      return url.pathname === '/rcp/manifest';
    };
    const client = createRcpClient({ allowOrigin });
    const { tools, warnings } = await client.discover(serveManifest(server, manifest));
    expect(warnings.map((warning) => warning.tool)).toContain('public_search');
    server.reset();
    await rejectsWith(client.execute(tools[2]!, { q: 'x' }), 'RCP_ORIGIN_NOT_ALLOWED');
    expect(server.count).toBe(0);
    expect(seen).toContain('/search');
  });

  it('an already aborted signal → RCP_ABORTED', async () => {
    const { client, search } = await setup();
    const controller = new AbortController();
    controller.abort();
    await rejectsWith(client.execute(search, { q: 'x' }, {}, { signal: controller.signal }), 'RCP_ABORTED');
    expect(server.count).toBe(0);
  });
});
