import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient, describeManifest, isRcpError } from 'rcp-client';
import { errorText, rejectsWith, serveManifest } from './internal/testing';

const KEY = 'key_LIVE_9f8e7d6c';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

/** What reached the server besides the manifest. */
const calls = () => server.requests.filter((request) => request.path !== '/rcp/manifest');

const charges = {
  name: 'create_charge',
  description: 'Creates a charge.',
  method: 'POST',
  url: '/v1/charges',
  bodyEncoding: 'form',
  params: [
    { name: 'amount', type: 'integer', required: true, minimum: 1 },
    { name: 'currency', enum: ['usd', 'eur'], required: true },
    { name: 'description' },
    { name: 'metadata', type: 'object', properties: { order: { type: 'string', maxLength: 20 } }, requiredProperties: ['order'] },
    { name: 'expand', type: 'array', items: { type: 'string', enum: ['customer', 'invoice'] } },
  ],
  body: { amount: '{{amount}}', currency: '{{currency}}', description: '{{description}}', metadata: '{{metadata}}', expand: '{{expand}}' },
};

describe('RCP 0.2 form bodies', () => {
  it('a "0.1" manifest using bodyEncoding "form" is refused at its pointer; only the manifest was fetched', async () => {
    const url = serveManifest(server, { rcpVersion: '0.1', tools: [charges] });
    const error = await rejectsWith(createRcpClient().discover(url), 'RCP_INVALID_MANIFEST');
    expect(error.issues).toContainEqual({ path: '/tools/0/bodyEncoding', message: expect.stringContaining('needs rcpVersion "0.2"') });
    expect(calls()).toEqual([]);
  });

  it('sends application/x-www-form-urlencoded; values that try to add fields (a&b=c, a[b]) stay one value', async () => {
    server.route('POST /v1/charges', (_request, res) => sendJson(res, 200, { id: 'ch_1' }));
    const client = createRcpClient();
    const { tools } = await client.discover(serveManifest(server, { rcpVersion: '0.2', tools: [charges] }));
    const result = await client.execute(tools[0]!, {
      amount: 500,
      currency: 'usd',
      description: 'a&amount=1&b[c]=d',
      metadata: { order: 'x]=1&y[' },
      expand: ['customer', 'invoice'],
    });
    expect(result.data).toEqual({ id: 'ch_1' });
    const [request] = calls();
    expect(request!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request!.body).toBe(
      'amount=500&currency=usd&description=a%26amount%3D1%26b%5Bc%5D%3Dd&metadata%5Border%5D=x%5D%3D1%26y%5B&expand=customer&expand=invoice',
    );
    expect([...new URLSearchParams(request!.body)]).toEqual([
      ['amount', '500'],
      ['currency', 'usd'],
      ['description', 'a&amount=1&b[c]=d'],
      ['metadata[order]', 'x]=1&y['],
      ['expand', 'customer'],
      ['expand', 'invoice'],
    ]);
  });

  it('an object key with a bracket in a model value is refused before any request', async () => {
    const client = createRcpClient();
    const loose = { ...charges, params: [...charges.params.slice(0, 3), { name: 'metadata', type: 'object' }, charges.params[4]] };
    const { tools } = await client.discover(serveManifest(server, { rcpVersion: '0.2', tools: [loose] }));
    await rejectsWith(client.execute(tools[0]!, { amount: 1, currency: 'usd', metadata: { 'a][b': 1 } }), 'RCP_TEMPLATE_VALUE');
    expect(calls()).toEqual([]);
  });
});

describe('RCP 0.2 param details', () => {
  it('enum, items, bounds and properties are enforced before any request, every problem listed', async () => {
    const client = createRcpClient();
    const { tools } = await client.discover(serveManifest(server, { rcpVersion: '0.2', tools: [charges] }));
    const error = await rejectsWith(
      client.execute(tools[0]!, { amount: 0, currency: 'gbp', metadata: { note: 'x' }, expand: ['customer', 'refunds'] }),
      'RCP_INVALID_ARGUMENTS',
    );
    expect(error.issues).toEqual([
      { path: '/amount', message: 'must be ≥ 1' },
      { path: '/currency', message: 'must be one of "usd", "eur"' },
      { path: '/metadata/note', message: 'is not a property of this object' },
      { path: '/metadata/order', message: 'is required' },
      { path: '/expand/1', message: 'must be one of "customer", "invoice"' },
    ]);
    expect(calls()).toEqual([]);
  });

  it('are shown to the model and in describeManifest', async () => {
    const client = createRcpClient();
    const { manifest, tools } = await client.discover(serveManifest(server, { rcpVersion: '0.2', tools: [charges] }));
    expect(tools[0]!.inputSchema.properties).toMatchObject({
      amount: { type: 'integer', minimum: 1 },
      currency: { type: 'string', enum: ['usd', 'eur'] },
      metadata: { type: 'object', properties: { order: { type: 'string', maxLength: 20 } }, required: ['order'], additionalProperties: false },
      expand: { type: 'array', items: { type: 'string', enum: ['customer', 'invoice'] } },
    });
    const text = describeManifest(manifest, tools);
    expect(text).toContain('one of "usd", "eur"');
    expect(text).toContain('≥ 1');
  });
});

describe('RCP 0.2 query auth', () => {
  const tool = {
    name: 'estimate',
    description: 'Estimates a price.',
    method: 'GET',
    url: '/v1/estimates?start={{start}}',
    params: [{ name: 'start', required: true }],
  };
  const manifest = { rcpVersion: '0.2', auth: { type: 'query', name: 'server_token' }, tools: [tool] };

  it('sends the credential as the last query entry, and prepare shows it redacted', async () => {
    server.route('GET /v1/estimates', (_request, res) => sendJson(res, 200, { price: 12 }));
    const client = createRcpClient({ credentials: () => KEY });
    const { tools } = await client.discover(serveManifest(server, manifest));
    expect((await client.execute(tools[0]!, { start: 'a&server_token=evil' })).data).toEqual({ price: 12 });
    expect(calls()[0]!.query).toEqual([
      ['start', 'a&server_token=evil'],
      ['server_token', KEY],
    ]);
    const prepared = await client.prepare(tools[0]!, { start: 'x' });
    expect(prepared.url).toBe(`${server.origin}/v1/estimates?start=x&server_token=[redacted]`);
    expect(JSON.stringify(prepared)).not.toContain(KEY);
  });

  it('never shows the credential in a message, an excerpt or a cause, even when the server echoes the URL', async () => {
    server.route('GET /v1/estimates', (request, res) => sendJson(res, 400, { error: 'bad', url: request.url, again: decodeURIComponent(request.url) }));
    const client = createRcpClient({ credentials: () => KEY, retry: 0 });
    const { tools } = await client.discover(serveManifest(server, manifest));
    const error = await rejectsWith(client.execute(tools[0]!, { start: 'x' }), 'RCP_HTTP_ERROR');
    expect(errorText(error)).not.toContain(KEY);
    expect(JSON.stringify(error)).not.toContain(KEY);
    const outcome = await client.call(tools, { name: 'estimate', arguments: { start: 'x' } });
    expect(outcome.ok).toBe(false);
    expect(JSON.stringify(outcome.ok ? {} : { message: outcome.error.message, json: outcome.error })).not.toContain(KEY);
  });

  it('goes to trusted origins only, and a "0.1" manifest or a tool query key of the same name is refused', async () => {
    const other = await startTestServer();
    try {
      const client = createRcpClient({ credentials: () => KEY, allowPrivateNetwork: true });
      const elsewhere = { ...manifest, tools: [{ ...tool, url: other.url('/v1/estimates?start={{start}}') }] };
      const { tools } = await client.discover(serveManifest(server, elsewhere));
      await rejectsWith(client.execute(tools[0]!, { start: 'x' }), 'RCP_ORIGIN_NOT_ALLOWED');
      expect(other.count).toBe(0);
    } finally {
      await other.close();
    }
    const old = await rejectsWith(createRcpClient().discover(serveManifest(server, { ...manifest, rcpVersion: '0.1' })), 'RCP_INVALID_MANIFEST');
    expect(old.issues.map((issue) => issue.path)).toEqual(['/auth/type']);
    const clash = { ...manifest, tools: [{ ...tool, queryParams: { server_token: '{{start}}' } }] };
    const shadow = await rejectsWith(createRcpClient().discover(serveManifest(server, clash)), 'RCP_INVALID_MANIFEST');
    expect(shadow.issues.map((issue) => issue.path)).toEqual(['/tools/0/queryParams/server_token']);
    expect(isRcpError(shadow, 'RCP_INVALID_MANIFEST')).toBe(true);
  });
});
