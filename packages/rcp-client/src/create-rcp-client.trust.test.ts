import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient } from './create-rcp-client';
import { errorText, rejectsWith, serveManifest } from './internal/testing';

const TOKEN = 'tok-TRUST-7777';

let home: TestServer; // serves the manifest
let foreign: TestServer; // another origin
beforeEach(async () => {
  [home, foreign] = await Promise.all([startTestServer(), startTestServer()]);
  for (const server of [home, foreign]) {
    // The server answers what it received, the token named (an echoed credential is redacted from data).
    server.route('* /data', (request, res) =>
      sendJson(res, 200, { auth: (request.headers.authorization as string | undefined)?.replace(TOKEN, '(the token)') ?? null }),
    );
  }
});
afterEach(async () => {
  await Promise.all([home.close(), foreign.close()]);
});

function manifestFor(origin: string, extra: Record<string, unknown> = {}) {
  return {
    rcpVersion: '0.1',
    auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
    ...extra,
    tools: [
      { name: 'with_credential', description: 'Needs the token.', method: 'GET', url: `${origin}/data` },
      {
        name: 'with_resolver',
        description: 'Needs the user.',
        method: 'GET',
        url: `${origin}/data`,
        queryParams: { user: '{{userId}}' },
        params: [{ name: 'userId' }],
        auth: { type: 'none' },
      },
      { name: 'no_secrets', description: 'Public.', method: 'GET', url: `${origin}/data`, auth: { type: 'none' } },
    ],
  };
}

describe('trust: where secrets may go', () => {
  it('refuses to send a credential or a resolver value to a foreign origin, before any request', async () => {
    const client = createRcpClient({ credentials: () => TOKEN, resolvers: { userId: () => 'u-1' } });
    const { tools, warnings } = await client.discover(serveManifest(home, manifestFor(foreign.origin)));
    expect(warnings.map(({ path, tool }) => [path, tool])).toEqual([
      ['/tools/0', 'with_credential'],
      ['/tools/1', 'with_resolver'],
    ]);
    expect(warnings[0]?.message).toContain(foreign.origin);

    const refused = await rejectsWith(client.execute(tools[0]!, {}), 'RCP_ORIGIN_NOT_ALLOWED');
    expect(errorText(refused)).not.toContain(TOKEN);
    await rejectsWith(client.execute(tools[1]!, {}), 'RCP_ORIGIN_NOT_ALLOWED');
    await rejectsWith(client.prepare(tools[0]!, {}), 'RCP_ORIGIN_NOT_ALLOWED');
    expect(foreign.count).toBe(0);

    // A tool with no secrets may call any http(s) origin.
    const result = await client.execute(tools[2]!, {});
    expect(result.data).toEqual({ auth: null });
    expect(foreign.count).toBe(1);
  });

  it('never asks the credentials provider or the resolvers for a tool bound to an untrusted origin', async () => {
    let asked = 0;
    const client = createRcpClient({
      credentials: () => {
        asked++;
        return TOKEN;
      },
      resolvers: {
        userId: () => {
          asked++;
          return 'u-1';
        },
      },
    });
    const { tools } = await client.discover(serveManifest(home, manifestFor(foreign.origin)));
    await rejectsWith(client.execute(tools[0]!, {}), 'RCP_ORIGIN_NOT_ALLOWED');
    await rejectsWith(client.execute(tools[1]!, {}), 'RCP_ORIGIN_NOT_ALLOWED');
    expect(asked).toBe(0);
  });

  it('sends them once the operator lists the origin in trustedOrigins', async () => {
    const client = createRcpClient({
      credentials: () => TOKEN,
      resolvers: { userId: () => 'u-1' },
      trustedOrigins: [foreign.origin],
    });
    const { tools, warnings } = await client.discover(serveManifest(home, manifestFor(foreign.origin)));
    expect(warnings).toEqual([]);
    expect((await client.execute(tools[0]!, {})).data).toEqual({ auth: 'Bearer (the token)' });
    await client.execute(tools[1]!, {});
    expect(foreign.requests.map((request) => request.url)).toEqual(['/data', '/data?user=u-1']);
  });

  it('sends them to the manifest origin by default', async () => {
    const client = createRcpClient({ credentials: () => TOKEN });
    const { tools } = await client.discover(serveManifest(home, manifestFor(home.origin)));
    expect((await client.execute(tools[0]!, {})).data).toEqual({ auth: 'Bearer (the token)' });
  });

  it('a manifest can never widen trust', async () => {
    const client = createRcpClient({ credentials: () => TOKEN });
    const manifest = manifestFor(foreign.origin, { trustedOrigins: [foreign.origin], trust: 'all' });
    const { tools, warnings } = await client.discover(serveManifest(home, manifest));
    expect(warnings.some((warning) => warning.path === '/trustedOrigins')).toBe(true);
    await rejectsWith(client.execute(tools[0]!, {}), 'RCP_ORIGIN_NOT_ALLOWED');
    expect(foreign.count).toBe(0);
  });

  it('127.0.0.1 and localhost are different sites', async () => {
    const client = createRcpClient({ credentials: () => TOKEN });
    const other = home.origin.replace('127.0.0.1', 'localhost');
    const { tools } = await client.discover(serveManifest(home, manifestFor(other)));
    await rejectsWith(client.execute(tools[0]!, {}), 'RCP_ORIGIN_NOT_ALLOWED');
    expect(home.count).toBe(1); // the manifest only
  });
});

describe('trust: same-site hosts (requests routed to the local server by a custom fetch)', () => {
  /** A fetch that sends `https://<host>/...` to the local server, telling it which host was meant. */
  function routedFetch(target: TestServer): typeof fetch {
    return async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      const headers = new Headers(request.headers);
      headers.set('x-routed-host', url.host);
      const body = request.body === null ? undefined : await request.arrayBuffer();
      return fetch(target.origin + url.pathname + url.search, {
        method: request.method,
        headers,
        body,
        redirect: 'manual',
        signal: request.signal,
      });
    };
  }

  it('sends the credential to a host of the same registrable domain, and refuses other sites', async () => {
    home.route('* /data', (request, res) =>
      sendJson(res, 200, {
        host: request.headers['x-routed-host'],
        auth: (request.headers.authorization as string | undefined)?.replace(TOKEN, '(the token)') ?? null,
      }),
    );
    const client = createRcpClient({ credentials: () => TOKEN, fetch: routedFetch(home) });
    const manifest = {
      rcpVersion: '0.1',
      auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
      tools: [
        { name: 'api_host', description: 'Same site.', method: 'GET', url: 'https://api.example.test/data' },
        { name: 'deep_host', description: 'Same site.', method: 'GET', url: 'https://a.b.example.test/data' },
        { name: 'look_alike', description: 'Other site.', method: 'GET', url: 'https://example.test.evil.test/data' },
        { name: 'suffix_trick', description: 'Other site.', method: 'GET', url: 'https://notexample.test/data' },
      ],
    };
    serveManifest(home, manifest);
    const { tools, warnings } = await client.discover('https://example.test/rcp/manifest');
    expect(warnings.map((warning) => warning.tool)).toEqual(['look_alike', 'suffix_trick']);
    expect((await client.execute(tools[0]!, {})).data).toEqual({ host: 'api.example.test', auth: 'Bearer (the token)' });
    expect((await client.execute(tools[1]!, {})).data).toEqual({ host: 'a.b.example.test', auth: 'Bearer (the token)' });
    home.reset();
    await rejectsWith(client.execute(tools[2]!, {}), 'RCP_ORIGIN_NOT_ALLOWED');
    await rejectsWith(client.execute(tools[3]!, {}), 'RCP_ORIGIN_NOT_ALLOWED');
    expect(home.count).toBe(0);
  });
});

describe('trust: redirects', () => {
  it('a cross-origin redirect never reaches the second server', async () => {
    home.route('GET /moved', (_request, res) => {
      res.writeHead(302, { location: `${foreign.origin}/data` });
      res.end();
    });
    const client = createRcpClient({ credentials: () => TOKEN });
    const { tools } = await client.discover(
      serveManifest(home, {
        rcpVersion: '0.1',
        tools: [
          { name: 'public', description: 'No secrets.', method: 'GET', url: '/moved' },
          {
            name: 'secret',
            description: 'With a credential.',
            method: 'GET',
            url: '/moved',
            auth: { type: 'header', name: 'X-Api-Key' },
          },
        ],
      }),
    );
    const error = await rejectsWith(client.execute(tools[1]!, {}), 'RCP_ORIGIN_NOT_ALLOWED');
    expect(errorText(error)).not.toContain(TOKEN);
    await rejectsWith(client.execute(tools[0]!, {}), 'RCP_ORIGIN_NOT_ALLOWED');
    expect(foreign.count).toBe(0);
  });

  it('a same-origin redirect is followed, keeping the credential on the trusted origin', async () => {
    home.route('GET /old', (_request, res) => {
      res.writeHead(301, { location: '/data' });
      res.end();
    });
    const client = createRcpClient({ credentials: () => TOKEN });
    const { tools } = await client.discover(
      serveManifest(home, {
        rcpVersion: '0.1',
        auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
        tools: [{ name: 'old', description: 'Moved.', method: 'GET', url: '/old' }],
      }),
    );
    expect((await client.execute(tools[0]!, {})).data).toEqual({ auth: 'Bearer (the token)' });
    expect(home.requests.map((request) => request.path)).toEqual(['/rcp/manifest', '/old', '/data']);
  });
});

describe('injection through arguments', () => {
  async function searchTool() {
    home.route('* /items/x', (_r, res) => sendJson(res, 200, {}));
    const client = createRcpClient();
    const { tools } = await client.discover(
      serveManifest(home, {
        rcpVersion: '0.1',
        tools: [
          {
            name: 'item',
            description: 'Gets an item.',
            method: 'GET',
            url: '/items/{{id}}',
            queryParams: { q: '{{q}}', tenant: 'fixed' },
            params: [{ name: 'id' }, { name: 'q' }],
          },
        ],
      }),
    );
    home.reset();
    return { client, tool: tools[0]! };
  }

  it.each([
    ['../admin', '/items/..%2Fadmin'],
    ['%2e%2e', '/items/%252e%252e'],
    ['a/b?c#d', '/items/a%2Fb%3Fc%23d'],
    ['..\\admin', '/items/..%5Cadmin'],
  ])('a path value %j stays one segment: %s', async (id, path) => {
    const { client, tool } = await searchTool();
    await client.execute(tool, { id }).catch(() => undefined); // 404 from the server is fine
    expect(home.requests.map((request) => request.path)).toEqual([path]);
  });

  it('a query value cannot add parameters', async () => {
    const { client, tool } = await searchTool();
    await client.execute(tool, { id: 'x', q: 'a&tenant=evil' });
    expect(home.requests[0]?.rawQuery).toBe('q=a%26tenant%3Devil&tenant=fixed');
    expect(home.requests[0]?.query).toEqual([
      ['q', 'a&tenant=evil'],
      ['tenant', 'fixed'],
    ]);
  });
});
