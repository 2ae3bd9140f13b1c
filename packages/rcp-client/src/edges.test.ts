/**
 * What a second red-team run found at the edges (issue 27), as the core's seams answer it: a
 * response observed without replacing the transport, a manifest loaded from text with a declared
 * source, redaction over every encoding, no credential in 2xx data, the boundary by name, and
 * rediscovery by the HTTP caching rules. Real servers on 127.0.0.1 only.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient, toModelResult, type RcpObservedResponse } from 'rcp-client';
import { errorText, rejectsWith, serveManifest } from './internal/testing';

const TOKEN = 'tok_live/SECRET+ë';
const USER = 'u-4242';

let server: TestServer;
let other: TestServer;
beforeEach(async () => {
  server = await startTestServer();
  other = await startTestServer();
});
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all([server.close(), other.close()]);
});

const authed = (tools: object[]) => ({
  rcpVersion: '0.1',
  auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
  tools,
});
const profileTool = { name: 'get_profile', description: 'Gets.', method: 'GET', url: '/users/{{userId}}', params: [{ name: 'userId', required: true }] };

/** How encoders write the token: PHP's json_encode escapes `/`, Python's json.dumps writes `\u00eb`, and twice over. */
const php = (text: string): string => JSON.stringify(text).slice(1, -1).replaceAll('/', '\\/');
const python = (text: string): string =>
  JSON.stringify(text)
    .slice(1, -1)
    .replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
const twice = (text: string): string => JSON.stringify(text).slice(1, -1);

async function profileClient(options: Parameters<typeof createRcpClient>[0] = {}) {
  const client = createRcpClient({ resolvers: { userId: () => USER }, credentials: () => TOKEN, retry: 0, ...options });
  const discovery = await client.discover(serveManifest(server, authed([profileTool])));
  server.reset();
  return { client, discovery, tool: discovery.tools[0]! };
}

describe('2. redaction over every form an encoder writes', () => {
  const forms: [string, string][] = [
    ["PHP's json_encode (\\/)", php(TOKEN)],
    ["Python's json.dumps (\\u00eb)", python(TOKEN)],
    ['upper-case \\u00EB', python(TOKEN).replace('\\u00eb', '\\u00EB')],
    ['escaped twice', twice(php(TOKEN))],
  ];

  it.each(forms)('a credential echoed in an error body as %s never reaches the error or the model', async (_what, form) => {
    server.route(`GET /users/${USER}`, (_request, res) => {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(`{"error":"bad token ${form}"}`);
    });
    const { client, discovery } = await profileClient();
    const outcome = await client.call(discovery, { name: 'get_profile', arguments: {} });
    expect(outcome.ok).toBe(false);
    const text = `${errorText(!outcome.ok && outcome.error)}\n${JSON.stringify(toModelResult(outcome))}`;
    expect(text).not.toContain('SECRET');
    expect(JSON.stringify(toModelResult(outcome))).toContain('bad token [redacted]');
  });

  it.each(forms)('a credential echoed in a 2xx body as %s is taken out of the data the model reads', async (_what, form) => {
    server.route(`GET /users/${USER}`, (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"name":"Ada","debug":{"authorization":"Bearer ${form}"},"user":"${USER}"}`);
    });
    const { client, discovery } = await profileClient();
    const outcome = await client.call(discovery, { name: 'get_profile', arguments: {} });
    const model = toModelResult(outcome);
    expect(JSON.stringify(model)).not.toContain('SECRET');
    // Resolver values are legitimate data in a success: only the credential is taken out.
    expect(model).toEqual({ ok: true, data: { name: 'Ada', debug: { authorization: 'Bearer [redacted]' }, user: USER } });
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('a resolver value echoed as Python writes it is redacted from the error too', async () => {
    const name = 'Zoë';
    const client = createRcpClient({ resolvers: { userId: () => name }, retry: 0 });
    const discovery = await client.discover(serveManifest(server, { rcpVersion: '0.1', tools: [profileTool] }));
    server.route(`GET /users/${encodeURIComponent(name)}`, (_request, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(`{"error":"no user ${python(name)}"}`);
    });
    const outcome = await client.call(discovery, { name: 'get_profile', arguments: {} });
    expect(JSON.stringify(toModelResult(outcome))).toContain('no user [redacted]');
    expect(errorText(!outcome.ok && outcome.error)).not.toMatch(/Zo(ë|\\u00eb)/);
  });

  it('a text answer that echoes the credential is redacted as well', async () => {
    server.route(`GET /users/${USER}`, (request, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`you sent ${String(request.headers.authorization)}`);
    });
    const { client, tool } = await profileClient();
    expect((await client.execute(tool, {})).data).toBe('you sent Bearer [redacted]');
  });
});

describe('1. observe, never replace: observeResponse', () => {
  it('sees the final response (status, headers, body) with the credential redacted everywhere; the call is unchanged', async () => {
    server.route(`GET /users/${USER}`, (_request, res) => {
      // Written on the socket: node:http refuses to send a control character in a reason phrase.
      const body = JSON.stringify({ name: 'Ada', token: TOKEN });
      res.socket!.end(
        `HTTP/1.1 200 OK \x1b]0;pwned\x07\r\ncontent-type: application/json\r\nx-echo: ${python(TOKEN).replaceAll('/', '\\/')}\r\n` +
          `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    });
    const { client, tool } = await profileClient();
    const seen: RcpObservedResponse[] = [];
    const result = await client.execute(tool, {}, undefined, { observeResponse: (response) => seen.push(response) });
    expect(result.data).toEqual({ name: 'Ada', token: '[redacted]' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ status: 200, url: `${server.origin}/users/${USER}`, truncated: false });
    expect(seen[0]!.statusText).toBe('OK \\x1b]0;pwned\\x07');
    expect(seen[0]!.headers['x-echo']).toBe('[redacted]');
    expect(JSON.parse(seen[0]!.body)).toEqual({ name: 'Ada', token: '[redacted]' });
    expect(JSON.stringify(seen)).not.toContain('SECRET');
  });

  it('sees an error response too, and an observer that throws changes nothing', async () => {
    server.route(`GET /users/${USER}`, (_request, res) => sendJson(res, 404, { error: 'none', echo: TOKEN }));
    const { client, tool } = await profileClient();
    const seen: RcpObservedResponse[] = [];
    await rejectsWith(client.execute(tool, {}, undefined, { observeResponse: (response) => seen.push(response) }), 'RCP_HTTP_ERROR');
    expect(seen.map((response) => [response.status, JSON.parse(response.body)])).toEqual([[404, { error: 'none', echo: '[redacted]' }]]);
    server.route(`GET /users/${USER}`, (_request, res) => sendJson(res, 200, { ok: true }));
    const thrower = () => {
      throw new Error('observer bug');
    };
    expect((await client.execute(tool, {}, undefined, { observeResponse: thrower })).data).toEqual({ ok: true });
    // An async observer that rejects is no unhandled rejection (vitest fails the run on one).
    const rejecting = async () => {
      throw new Error('async observer bug');
    };
    expect((await client.execute(tool, {}, undefined, { observeResponse: rejecting })).data).toEqual({ ok: true });
    await new Promise((resolve) => setImmediate(resolve));
  });

  // The finding: a recording fetch switched the client to the fetch transport and dropped the
  // connect-time check. An observer keeps the platform transport, so the check still holds.
  it.skipIf(process.env.RCP_TEST_TRANSPORT === 'fetch')(
    'observing keeps the connect-time check: a "public" name resolving to loopback is refused, nothing sent',
    async () => {
      const classifyAddress = (host: string) => (host === 'localhost' ? ('public' as const) : undefined);
      other.route('GET /admin', (_request, res) => sendJson(res, 200, { secret: 'internal' }));
      const manifestUrl = serveManifest(server, {
        rcpVersion: '0.1',
        tools: [{ name: 'read', description: 'Reads.', method: 'GET', url: `${other.origin.replace('127.0.0.1', 'localhost')}/admin` }],
      }).replace('127.0.0.1', 'localhost');
      const client = createRcpClient({ classifyAddress });
      const discovery = await client.discover(manifestUrl);
      const seen: RcpObservedResponse[] = [];
      await rejectsWith(client.execute(discovery.tools[0]!, {}, undefined, { observeResponse: (response) => seen.push(response) }), 'RCP_ORIGIN_NOT_ALLOWED');
      expect([other.count, seen.length]).toEqual([0, 0]);
    },
  );
});

describe('1. a manifest loaded from text, with a declared source', () => {
  const manifest = (url: string) => ({ rcpVersion: '0.1', tools: [{ name: 'read', description: 'Reads.', method: 'GET', url }] });

  it('validates and compiles as discover does, fetching nothing; relative URLs resolve against the declared URL', async () => {
    server.route('GET /notes', (_request, res) => sendJson(res, 200, { notes: [] }));
    const client = createRcpClient();
    const discovery = await client.load(JSON.stringify(manifest('/notes')), { manifestUrl: server.url('/rcp/manifest') });
    expect(discovery.tools[0]!.url).toBe(`${server.origin}/notes`);
    expect(discovery.cache.freshUntil).toBe(0);
    expect(server.count).toBe(0);
    expect((await client.execute(discovery.tools[0]!, {})).data).toEqual({ notes: [] });
    expect(server.requests.map((request) => request.path)).toEqual(['/notes']);
  });

  it('bad text, a bad manifest, bad options: typed errors, nothing sent', async () => {
    const client = createRcpClient();
    const url = server.url('/rcp/manifest');
    expect(errorText(await rejectsWith(client.load('{"rcpVersion": "0.1", tools', { manifestUrl: url }), 'RCP_INVALID_MANIFEST'))).not.toContain('tools');
    await rejectsWith(client.load({ rcpVersion: '9', tools: [] }, { manifestUrl: url }), 'RCP_UNSUPPORTED_VERSION');
    await rejectsWith(client.load(manifest('/x'), { manifestUrl: url, sourceClass: 'link-local' as never }), 'RCP_INVALID_OPTIONS');
    await rejectsWith(client.load(manifest('/x'), undefined as never), 'RCP_INVALID_OPTIONS');
    await rejectsWith(client.load(manifest('/x'), { manifestUrl: 'file:///etc/passwd' }), 'RCP_DISCOVERY_FAILED');
    expect(server.count).toBe(0);
  });

  it('the declared source class decides the boundary: a public source may not reach loopback, a local one may', async () => {
    other.route('GET /admin', (_request, res) => sendJson(res, 200, { ok: true }));
    const text = JSON.stringify(manifest(`${other.origin}/admin`));
    const client = createRcpClient();
    const asPublic = await client.load(text, { manifestUrl: 'https://manifest-file.invalid/m.json', sourceClass: 'public' });
    expect(asPublic.warnings[0]!.message).toContain('a loopback address, but the manifest comes from a public address');
    await rejectsWith(client.execute(asPublic.tools[0]!, {}), 'RCP_ORIGIN_NOT_ALLOWED');
    expect(other.count).toBe(0);
    // By default a name like manifest-file.invalid is public: a file is declared local.
    await rejectsWith(
      client.execute((await client.load(text, { manifestUrl: 'https://manifest-file.invalid/m.json' })).tools[0]!, {}),
      'RCP_ORIGIN_NOT_ALLOWED',
    );
    const asLocal = await client.load(text, { manifestUrl: 'https://manifest-file.invalid/m.json', sourceClass: 'local' });
    expect(asLocal.warnings).toEqual([]);
    expect((await client.execute(asLocal.tools[0]!, {})).data).toEqual({ ok: true });
    // Link-local stays out of reach for a local source.
    const metadata = await client.load(manifest('http://169.254.169.254/latest/meta-data/'), {
      manifestUrl: 'https://manifest-file.invalid/m.json',
      sourceClass: 'local',
    });
    await rejectsWith(client.prepare(metadata.tools[0]!, {}), 'RCP_ORIGIN_NOT_ALLOWED');
  });
});

describe('6. the default boundary by name, on every transport', () => {
  const names = [
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://metadata/computeMetadata/v1/',
    'http://instance-data.ec2.internal/latest/',
    'http://printer.local/status',
    'http://db.corp.internal/rows',
    'http://nas.home.arpa/files',
    'http://router.lan/admin',
  ];

  it('a public manifest naming a private-use or metadata host: refused by prepare and execute, nothing resolved or sent', async () => {
    const classifyAddress = (host: string) => (host === 'localhost' ? ('public' as const) : undefined);
    const manifestUrl = serveManifest(server, {
      rcpVersion: '0.1',
      tools: names.map((url, index) => ({ name: `t${index}`, description: 'Reads.', method: 'GET', url })),
    }).replace('127.0.0.1', 'localhost');
    const client = createRcpClient({ classifyAddress, retry: 0 });
    const discovery = await client.discover(manifestUrl);
    expect(discovery.warnings.map((warning) => warning.path)).toEqual(names.map((_url, index) => `/tools/${index}`));
    for (const tool of discovery.tools) {
      await rejectsWith(client.prepare(tool, {}), 'RCP_ORIGIN_NOT_ALLOWED');
      await rejectsWith(client.execute(tool, {}), 'RCP_ORIGIN_NOT_ALLOWED');
    }
  });

  it('metadata names are refused even for a local manifest; the operator may list one', async () => {
    const manifestUrl = serveManifest(server, {
      rcpVersion: '0.1',
      tools: [{ name: 'meta', description: 'Reads.', method: 'GET', url: 'http://metadata.google.internal/computeMetadata/v1/' }],
    });
    const strict = createRcpClient();
    const refused = await strict.discover(manifestUrl);
    expect(refused.warnings[0]!.message).toContain('link-local');
    await rejectsWith(strict.prepare(refused.tools[0]!, {}), 'RCP_ORIGIN_NOT_ALLOWED');
    const listed = createRcpClient({ allowPrivateNetwork: ['http://metadata.google.internal'] });
    expect((await listed.prepare((await listed.discover(manifestUrl)).tools[0]!, {})).url).toBe('http://metadata.google.internal/computeMetadata/v1/');
  });
});

describe('7. rediscovery by the HTTP caching rules', () => {
  const manifest = { rcpVersion: '0.1', tools: [{ name: 'ping', description: 'Pings.', method: 'GET', url: '/ping' }] };

  it('a 304 to a rediscovery that had no validator to send is an error, not the old tools', async () => {
    let calls = 0;
    server.route('GET /rcp/manifest', (_request, res) => {
      calls += 1;
      if (calls === 1) return sendJson(res, 200, manifest); // no ETag, no Last-Modified
      res.writeHead(304);
      res.end();
    });
    const client = createRcpClient();
    const first = await client.discover(server.url('/rcp/manifest'));
    const error = await rejectsWith(client.discover(server.url('/rcp/manifest'), { previous: first }), 'RCP_DISCOVERY_FAILED');
    expect(error.message).toContain('304');
    expect(server.requests[1]!.headers['if-none-match']).toBeUndefined();
  });

  it("freshness counts the response's Age: max-age=60 with Age: 120 is stale at once", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-01T10:00:00Z'));
    server.route('GET /rcp/manifest', (_request, res) => sendJson(res, 200, manifest, { 'cache-control': 'max-age=60', age: '120', etag: '"a"' }));
    server.route('GET /fresh', (_request, res) => sendJson(res, 200, manifest, { 'cache-control': 'public, max-age=60', age: '20' }));
    const client = createRcpClient();
    const stale = await client.discover(server.url('/rcp/manifest'));
    expect(stale.cache.freshUntil).toBe(Date.parse('2026-12-01T10:00:00Z'));
    await client.discover(server.url('/rcp/manifest'), { previous: stale });
    expect(server.count).toBe(2); // asked again, conditionally
    expect(server.requests[1]!.headers['if-none-match']).toBe('"a"');
    const fresh = await client.discover(server.url('/fresh'));
    expect(fresh.cache.freshUntil).toBe(Date.parse('2026-12-01T10:00:40Z'));
  });
});
