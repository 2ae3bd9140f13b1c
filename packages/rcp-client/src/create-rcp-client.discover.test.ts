import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RcpManifestError, RcpVersionError } from 'rcp-manifest';
import { resolverSeedManifest, seedManifest, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient } from './create-rcp-client';
import { errorText, rejectsWith, serveManifest } from './internal/testing';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

describe('discover', () => {
  it('fetches the manifest once with Accept: application/json and no credential', async () => {
    const client = createRcpClient({ credentials: () => 'never-sent' });
    const url = serveManifest(server, resolverSeedManifest);
    const discovery = await client.discover(`${url}#section`);
    expect(discovery.manifestUrl).toBe(url);
    expect(server.count).toBe(1);
    expect(server.requests[0]?.headers.accept).toContain('application/json');
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
    expect(Object.isFrozen(discovery)).toBe(true);
    expect(Object.isFrozen(discovery.tools)).toBe(true);
  });

  it('resolves relative tool URLs against the manifest URL and keeps absolute ones', async () => {
    const client = createRcpClient();
    const { tools } = await client.discover(new URL(serveManifest(server, resolverSeedManifest, '/deep/path/manifest.json')));
    expect(tools[0]).toMatchObject({
      url: `${server.origin}/users/{{userId}}`,
      origin: server.origin,
      manifestUrl: `${server.origin}/deep/path/manifest.json`,
      auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
    });
    const seed = await client.discover(serveManifest(server, seedManifest, '/seed'));
    expect(seed.tools.map((tool) => tool.origin)).toEqual(['https://api.example.com', 'https://api.example.com']);
  });

  it('returns the manifest warnings (unknown fields, unused params)', async () => {
    const client = createRcpClient();
    const { warnings, manifest } = await client.discover(
      serveManifest(server, {
        rcpVersion: '0.1',
        vendor: 'acme',
        tools: [{ name: 'x', description: 'X.', method: 'GET', url: '/x', params: [{ name: 'unused' }] }],
      }),
    );
    expect(warnings.map((warning) => warning.path)).toEqual(expect.arrayContaining(['/vendor']));
    expect(warnings.length).toBeGreaterThanOrEqual(2);
    expect(manifest).not.toHaveProperty('vendor');
  });

  it('accepts a JSON manifest served as text/plain', async () => {
    server.route('GET /raw.json', (_request, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(JSON.stringify(resolverSeedManifest));
    });
    const { tools } = await createRcpClient().discover(server.url('/raw.json'));
    expect(tools.map((tool) => tool.name)).toEqual(['get_profile']);
  });
});

describe('discover failures', () => {
  it('a non-2xx answer → RCP_DISCOVERY_FAILED with the HTTP error as cause', async () => {
    const error = await rejectsWith(createRcpClient({ retry: 0 }).discover(server.url('/missing')), 'RCP_DISCOVERY_FAILED');
    expect(error.cause).toMatchObject({ code: 'RCP_HTTP_ERROR', status: 404 });
  });

  it('never shows the manifest URL query (it may carry a key) in the error', async () => {
    const error = await rejectsWith(createRcpClient({ retry: 0 }).discover(server.url('/missing?api_key=KEY-SECRET-31337')), 'RCP_DISCOVERY_FAILED');
    expect(errorText(error)).not.toContain('KEY-SECRET-31337');
    expect(error.message).toContain(`${server.origin}/missing`);
  });

  it('an HTML page → RCP_DISCOVERY_FAILED', async () => {
    server.route('GET /rcp/manifest', (_request, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Login</title>');
    });
    await rejectsWith(createRcpClient().discover(server.url('/rcp/manifest')), 'RCP_DISCOVERY_FAILED');
  });

  it('broken JSON labelled application/json → RCP_DISCOVERY_FAILED', async () => {
    server.route('GET /rcp/manifest', (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"rcpVersion": "0.1", ');
    });
    const error = await rejectsWith(createRcpClient().discover(server.url('/rcp/manifest')), 'RCP_DISCOVERY_FAILED');
    expect(error.cause).toMatchObject({ code: 'RCP_INVALID_RESPONSE' });
  });

  it('a manifest over maxManifestBytes → RCP_DISCOVERY_FAILED (RCP_RESPONSE_TOO_LARGE)', async () => {
    const big = { ...resolverSeedManifest, padding: 'x'.repeat(10_000) };
    const client = createRcpClient({ maxManifestBytes: 4096 });
    const error = await rejectsWith(client.discover(serveManifest(server, big)), 'RCP_DISCOVERY_FAILED');
    expect(error.cause).toMatchObject({ code: 'RCP_RESPONSE_TOO_LARGE' });
  });

  it('maxManifestTools caps the tool count (RCP_MANIFEST_LIMIT passes through) and can be raised', async () => {
    const two = { ...resolverSeedManifest, tools: [resolverSeedManifest.tools[0], { ...resolverSeedManifest.tools[0], name: 'get_profile_2' }] };
    const url = serveManifest(server, two);
    const error = await rejectsWith(createRcpClient({ maxManifestTools: 1 }).discover(url), 'RCP_MANIFEST_LIMIT');
    expect(error).toMatchObject({ limit: 'tools', max: 1 });
    const { tools } = await createRcpClient({ maxManifestTools: 2 }).discover(url);
    expect(tools.map((tool) => tool.name)).toEqual(['get_profile', 'get_profile_2']);
  });

  it('a server that stalls → RCP_DISCOVERY_FAILED (RCP_TIMEOUT)', async () => {
    server.route('GET /rcp/manifest', (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"rcpVersion":');
    });
    const client = createRcpClient({ timeout: 200, retry: 0 });
    const error = await rejectsWith(client.discover(server.url('/rcp/manifest')), 'RCP_DISCOVERY_FAILED');
    expect(error.cause).toMatchObject({ code: 'RCP_TIMEOUT' });
  });

  it('a closed port → RCP_DISCOVERY_FAILED (RCP_NETWORK_ERROR)', async () => {
    const closed = await startTestServer();
    await closed.close();
    const error = await rejectsWith(createRcpClient({ retry: 0 }).discover(closed.url('/rcp/manifest')), 'RCP_DISCOVERY_FAILED');
    expect(error.cause).toMatchObject({ code: 'RCP_NETWORK_ERROR' });
  });

  it.each([
    ['not a URL', 'example.com/rcp/manifest'],
    ['a relative URL', '/rcp/manifest'],
    ['another scheme', 'file:///etc/passwd'],
    ['userinfo', 'http://user:pass@127.0.0.1:9/rcp/manifest'],
    ['not a string', 42],
  ])('%s → RCP_DISCOVERY_FAILED before any request', async (_name, url) => {
    await rejectsWith(createRcpClient().discover(url as string), 'RCP_DISCOVERY_FAILED');
    expect(server.count).toBe(0);
  });

  it('an allowOrigin policy refusing the manifest URL → RCP_ORIGIN_NOT_ALLOWED before any request', async () => {
    const client = createRcpClient({ allowOrigin: (url) => url.hostname === 'api.example.com' });
    await rejectsWith(client.discover(serveManifest(server, resolverSeedManifest)), 'RCP_ORIGIN_NOT_ALLOWED');
    expect(server.count).toBe(0);
  });

  it('an aborted discovery → RCP_ABORTED', async () => {
    const controller = new AbortController();
    controller.abort();
    await rejectsWith(createRcpClient().discover(serveManifest(server, resolverSeedManifest), { signal: controller.signal }), 'RCP_ABORTED');
  });

  it('passes the version gate error through unchanged', async () => {
    const error = await rejectsWith(
      createRcpClient().discover(serveManifest(server, { ...resolverSeedManifest, rcpVersion: '0.9' })),
      'RCP_UNSUPPORTED_VERSION',
    );
    expect(error).toBeInstanceOf(RcpVersionError);
    expect(error).toMatchObject({ received: '0.9' });
  });

  it('passes validation errors through unchanged, with every issue', async () => {
    const manifest = {
      rcpVersion: '0.1',
      tools: [{ name: 'bad name', description: '', method: 'get', url: 'https://api.example.com/{{undeclared}}' }],
    };
    const error = await rejectsWith(createRcpClient().discover(serveManifest(server, manifest)), 'RCP_INVALID_MANIFEST');
    expect(error).toBeInstanceOf(RcpManifestError);
    expect((error as RcpManifestError).issues.length).toBeGreaterThanOrEqual(3);
  });

  it('passes limit errors through unchanged', async () => {
    let body: unknown = 'deep';
    for (let depth = 0; depth < 80; depth++) body = { nested: body };
    const manifest = { rcpVersion: '0.1', tools: [{ name: 'x', description: 'X.', method: 'POST', url: '/x', body }] };
    await rejectsWith(createRcpClient().discover(serveManifest(server, manifest)), 'RCP_MANIFEST_LIMIT');
  });
});
