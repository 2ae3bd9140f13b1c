import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolverSeedManifest, seedManifestAt, sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient } from './create-rcp-client';
import { rejectsWith, serveManifest } from './internal/testing';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

describe('createRcpClient options', () => {
  it.each([
    ['timeout 0', { timeout: 0 }],
    ['timeout NaN', { timeout: Number.NaN }],
    ['timeout too large', { timeout: 2 ** 31 }],
    ['timeout as string', { timeout: '30s' }],
    ['retry negative', { retry: -1 }],
    ['retry fractional', { retry: 1.5 }],
    ['maxResponseBytes 0', { maxResponseBytes: 0 }],
    ['maxResponseBytes fractional', { maxResponseBytes: 10.5 }],
    ['maxManifestBytes negative', { maxManifestBytes: -5 }],
    ['maxManifestTools zero', { maxManifestTools: 0 }],
    ['trustedOrigins not an array', { trustedOrigins: 'https://a.example' }],
    ['trustedOrigins with a path', { trustedOrigins: ['https://a.example/path'] }],
    ['trustedOrigins not http(s)', { trustedOrigins: ['ftp://a.example'] }],
    ['resolver not a function', { resolvers: { userId: 'u-1' } }],
    ['resolvers not an object', { resolvers: [() => 1] }],
    ['credentials not a function', { credentials: 'token' }],
    ['allowOrigin not a function', { allowOrigin: true }],
    ['fetch not a function', { fetch: {} }],
    ['headers with CRLF', { headers: { 'X-A': 'a\r\nX-B: b' } }],
    ['headers with a bad name', { headers: { 'X A': 'a' } }],
    ['secret header in headers', { headers: { authorization: 'Bearer t' } }],
    ['cookie in headers', { headers: { Cookie: 'sid=1' } }],
    // The header rules come from their homes now: rcp-manifest's forbidden names (Expect, Keep-Alive were
    // let through before) and rcp-template's header-value rule (a trailing space was let through before).
    ['expect in headers', { headers: { Expect: '100-continue' } }],
    ['keep-alive in headers', { headers: { 'Keep-Alive': 'timeout=5' } }],
    ['a header value ending in a space', { headers: { 'X-A': 'a ' } }],
    // The client let a tab through; the one rule (rcp-template, RCP M7.3c) refuses it, as manifests always did.
    ['a header value with a tab', { headers: { 'X-A': 'a\tb' } }],
    ['options not an object', 'fast'],
  ])('refuses %s with RCP_INVALID_OPTIONS', async (_name, options) => {
    await rejectsWith(() => createRcpClient(options as never), 'RCP_INVALID_OPTIONS');
  });

  it('accepts no options, and returns a frozen client', () => {
    const client = createRcpClient();
    expect(Object.isFrozen(client)).toBe(true);
    expect(Object.keys(client).sort()).toEqual(['call', 'close', 'decide', 'discover', 'execute', 'load', 'prepare', 'resume', 'review', 'storedReview']);
  });

  it('sends the default headers with every request', async () => {
    const client = createRcpClient({ headers: { 'User-Agent': 'my-agent/1.0' } });
    const { tools } = await client.discover(serveManifest(server, seedManifestAt(server.origin)));
    server.route('GET /courses/search', (_request, res) => sendJson(res, 200, []));
    await client.execute(tools[1]!, { query: 'x' });
    expect(server.requests.map((request) => request.headers['user-agent'])).toEqual(['my-agent/1.0', 'my-agent/1.0']);
  });
});

describe('the seed flows, end to end', () => {
  it('discovers the manifest seed and calls both tools on their own URLs', async () => {
    const client = createRcpClient();
    const manifestUrl = serveManifest(server, seedManifestAt(server.origin));
    const { tools, warnings } = await client.discover(manifestUrl);
    // No resolver fills learnerId here, so the model would: discovery says so.
    expect(warnings).toEqual([
      { path: '/tools/0/params/0', tool: 'get_learner_profile', cause: 'unbound-identity', message: expect.stringContaining('looks like an identity') },
    ]);
    expect(tools.map((tool) => [tool.name, tool.method, tool.url])).toEqual([
      ['get_learner_profile', 'GET', `${server.origin}/learners/{{learnerId}}/profile`],
      ['search_courses', 'GET', `${server.origin}/courses/search`],
    ]);

    server.route('GET /learners/l-42/profile', (_request, res) =>
      sendJson(res, 200, { data: { name: 'Ada', progress: { percent: 40, lessons: 12 }, plan: 'pro' } }),
    );
    server.route('GET /courses/search', (request, res) => sendJson(res, 200, { results: [{ title: `About ${request.query[0]?.[1]}` }] }));

    const profile = await client.execute(tools[0]!, { learnerId: 'l-42' });
    expect(profile).toEqual({ status: 200, data: { name: 'Ada', progress: 40 }, contentType: 'application/json' });
    const search = await client.execute(tools[1]!, { query: 'linear algebra' });
    expect(search.data).toEqual({ results: [{ title: 'About linear algebra' }] });

    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /rcp/manifest',
      'GET /learners/l-42/profile',
      'GET /courses/search?q=linear%20algebra',
    ]);
  });

  it('fills a resolver-bound param from ctx; the model never sees it', async () => {
    const client = createRcpClient<{ currentUserId?: string }>({
      resolvers: { learnerId: (ctx) => ctx.currentUserId },
    });
    const { tools } = await client.discover(serveManifest(server, seedManifestAt(server.origin)));
    const profile = tools[0]!;
    expect(profile.inputSchema).toEqual({ type: 'object', properties: {}, required: [], additionalProperties: false });
    expect(profile.resolvedParams).toEqual(['learnerId']);
    expect(profile.params).toEqual([
      { name: 'learnerId', type: 'string', required: true, description: "The learner's id", resolved: true, looksLikeIdentity: false },
    ]);
    server.route('GET /learners/u-7/profile', (_request, res) => sendJson(res, 200, { data: { name: 'Bo' } }));
    const result = await client.execute(profile, {}, { currentUserId: 'u-7' });
    expect(result.data).toEqual({ name: 'Bo' });
    expect(server.requests.at(-1)?.path).toBe('/learners/u-7/profile');
  });

  it('runs the resolvers seed: Bearer credential to the manifest origin, userId from the resolver', async () => {
    const seen: unknown[] = [];
    const client = createRcpClient<{ currentUserId: string }>({
      resolvers: { userId: (ctx) => ctx.currentUserId },
      credentials: (info) => {
        seen.push({ manifestUrl: info.manifestUrl, origin: info.origin, tool: info.tool.name, auth: info.auth, ctx: info.ctx });
        return 'tok-123';
      },
    });
    const manifestUrl = serveManifest(server, resolverSeedManifest);
    const { tools } = await client.discover(manifestUrl);
    server.route('GET /users/u-1', (request, res) => sendJson(res, 200, { id: 'u-1', auth: request.headers.authorization }));
    const result = await client.execute(tools[0]!, {}, { currentUserId: 'u-1' });
    // The credential went out; echoed back, it is redacted from the data (SPEC §14).
    expect(server.requests.at(-1)!.headers.authorization).toBe('Bearer tok-123');
    expect(result.data).toEqual({ id: 'u-1', auth: 'Bearer [redacted]' });
    expect(seen).toEqual([
      {
        manifestUrl,
        origin: server.origin,
        tool: 'get_profile',
        auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
        ctx: { currentUserId: 'u-1' },
      },
    ]);
    // The manifest itself is fetched without any credential.
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });
});

describe('prepare', () => {
  it('returns what would be sent, with the credential redacted, and sends nothing', async () => {
    const client = createRcpClient({
      resolvers: { tenant: () => 'acme' },
      credentials: () => 'super-secret-token',
    });
    const { tools } = await client.discover(
      serveManifest(server, {
        rcpVersion: '0.1',
        auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
        tools: [
          {
            name: 'create_note',
            description: 'Creates a note.',
            method: 'POST',
            url: '/tenants/{{tenant}}/notes',
            headers: { 'X-Request-Source': 'agent' },
            body: { text: '{{text}}', tags: '{{tags}}' },
            params: [
              { name: 'tenant', required: true },
              { name: 'text', required: true },
              { name: 'tags', type: 'array' },
            ],
          },
        ],
      }),
    );
    server.reset();
    const prepared = await client.prepare(tools[0]!, { text: 'hello', tags: ['a'] });
    expect(prepared).toEqual({
      method: 'POST',
      url: `${server.origin}/tenants/acme/notes`,
      headers: {
        'X-Request-Source': 'agent',
        'content-type': 'application/json',
        Authorization: 'Bearer [redacted]',
      },
      body: { text: 'hello', tags: ['a'] },
    });
    expect(JSON.stringify(prepared)).not.toContain('super-secret-token');
    expect(server.count).toBe(0);
  });

  it('redacts a bare credential (no scheme) to "[redacted]"', async () => {
    const client = createRcpClient({ credentials: async () => 'k-999' });
    const { tools } = await client.discover(
      serveManifest(server, {
        rcpVersion: '0.1',
        auth: { type: 'header', name: 'X-Api-Key' },
        tools: [{ name: 'ping', description: 'Ping.', method: 'GET', url: '/ping' }],
      }),
    );
    expect(await client.prepare(tools[0]!, {})).toEqual({
      method: 'GET',
      url: `${server.origin}/ping`,
      headers: { 'X-Api-Key': '[redacted]' },
    });
  });
});

describe('tool identity', () => {
  it('refuses copies, look-alikes and tools of another client with RCP_INVALID_TOOL, before any request', async () => {
    const client = createRcpClient();
    const other = createRcpClient();
    const manifestUrl = serveManifest(server, seedManifestAt(server.origin));
    const { tools } = await client.discover(manifestUrl);
    const { tools: otherTools } = await other.discover(manifestUrl);
    server.reset();
    const search = tools[1]!;
    await rejectsWith(client.execute({ ...search }, { query: 'x' }), 'RCP_INVALID_TOOL');
    await rejectsWith(client.execute(JSON.parse(JSON.stringify(search)), { query: 'x' }), 'RCP_INVALID_TOOL');
    await rejectsWith(client.prepare({ ...search, url: 'http://evil.example/' }, { query: 'x' }), 'RCP_INVALID_TOOL');
    await rejectsWith(client.execute(otherTools[1]!, { query: 'x' }), 'RCP_INVALID_TOOL');
    expect(server.count).toBe(0);
    expect(Object.isFrozen(search)).toBe(true);
    expect(() => {
      (search as { url: string }).url = 'http://evil.example/';
    }).toThrow(TypeError);
  });
});
