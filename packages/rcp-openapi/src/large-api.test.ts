import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { sendJson, serveManifest, startTestServer, type TestServer } from 'rcp-test-utils';
import { formatSummary, fromOpenApi } from './index';

/**
 * Issue 41: a large third-party API (Stripe's description, 452 operations) imported as a new
 * user would, shown here on a hand-written excerpt of the same shape (test-data/stripe-excerpt.yaml).
 */

type Json = Record<string, unknown>;

const excerpt = readFileSync(new URL('../test-data/stripe-excerpt.yaml', import.meta.url), 'utf8');
const ok = { responses: { '200': { description: 'ok' } } };

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({ '* /v1/balance': (_request, res) => sendJson(res, 200, { object: 'balance' }) });
});
afterEach(async () => {
  await server.close();
});

describe('auth a real key satisfies (item 1)', () => {
  it('Stripe offers Basic and Bearer: Bearer is kept, and the secret key reaches the API as "Bearer <key>"', async () => {
    const { manifest, report } = await fromOpenApi(excerpt, { baseUrl: server.origin });
    expect(manifest.auth).toEqual({ type: 'header', name: 'Authorization', scheme: 'Bearer' });
    const client = createRcpClient({ credentials: () => 'sk_test_123', trustedOrigins: [server.origin] });
    const discovery = await client.discover(serveManifest(server, manifest));
    server.reset();
    const outcome = await client.call(discovery, { name: 'GetBalance', arguments: {} });
    expect(outcome.ok).toBe(true);
    expect(server.requests.map((request) => request.headers['authorization'])).toEqual(['Bearer sk_test_123']);
    expect(report.documentWarnings).toEqual([]);
  });

  it('the report says once for the document which alternative was kept and which dropped, never per tool', async () => {
    const { report } = await fromOpenApi(excerpt);
    expect(report.notes.filter((note) => note.message.includes('security'))).toEqual([
      {
        message:
          'of 2 security alternatives, "bearerAuth" (http bearer) was kept; dropped "basicAuth" (http basic): it takes a user and a password encoded as one credential, the kept one takes a key as it is',
        tools: ['GetBalance', 'PostCustomersCustomer', 'PostRefunds', 'GetCustomers', 'GetInvoicesUpcoming', 'GetAppsSecretsFind'],
      },
    ]);
    expect(report.lossy.filter((step) => /security|alternative/.test(step.message))).toEqual([]);
    const summary = formatSummary(report);
    expect(summary.split('\n').filter((line) => line.includes('security alternatives'))).toEqual([
      `  ${report.notes[0]!.message} (6 tool(s): GetBalance, PostCustomersCustomer, PostRefunds, …)`,
    ]);
  });

  const doc = (schemes: Json, security: unknown[]): Json => ({
    openapi: '3.0.3',
    info: { title: 'T', version: '1' },
    servers: [{ url: 'https://api.example.com' }],
    components: { securitySchemes: schemes },
    paths: { '/a': { get: { operationId: 'a', security, ...ok } } },
  });
  const basic = { type: 'http', scheme: 'basic' };

  it.each([
    [
      'an apiKey header after Basic',
      { basic, key: { type: 'apiKey', in: 'header', name: 'X-Key' } },
      [{ basic: [] }, { key: [] }],
      { type: 'header', name: 'X-Key' },
    ],
    [
      'an apiKey in the query after Basic',
      { basic, key: { type: 'apiKey', in: 'query', name: 'key' } },
      [{ basic: [] }, { key: [] }],
      { type: 'query', name: 'key' },
    ],
    [
      'OAuth 2 after Basic',
      { basic, oauth: { type: 'oauth2', flows: {} } },
      [{ basic: [] }, { oauth: [] }],
      { type: 'header', name: 'Authorization', scheme: 'Bearer', oauth: {} },
    ],
    ['no auth after Basic', { basic }, [{ basic: [] }, {}], { type: 'none' }],
    [
      'two keys: the document order decides',
      { one: { type: 'apiKey', in: 'header', name: 'X-One' }, two: { type: 'http', scheme: 'bearer' } },
      [{ one: [] }, { two: [] }],
      { type: 'header', name: 'X-One' },
    ],
    [
      'Basic when it is the only one RCP can express',
      { basic, cookie: { type: 'apiKey', in: 'cookie', name: 'sid' } },
      [{ cookie: [] }, { basic: [] }],
      { type: 'header', name: 'Authorization', scheme: 'Basic' },
    ],
  ])('%s', async (_name, schemes, security, auth) => {
    const { manifest } = await fromOpenApi(doc(schemes, security));
    expect(manifest.tools[0]!.auth ?? manifest.auth ?? { type: 'none' }).toEqual(auth);
  });

  it('a dropped alternative RCP cannot express says why; a single requirement has no note', async () => {
    const cookie = await fromOpenApi(doc({ basic, cookie: { type: 'apiKey', in: 'cookie', name: 'sid' } }, [{ cookie: [] }, { basic: [] }]));
    expect(cookie.report.notes.map((note) => note.message)).toEqual([
      'of 2 security alternatives, "basic" (http basic) was kept; dropped "cookie" (apiKey in cookie): cookie auth',
    ]);
    const single = await fromOpenApi(doc({ basic }, [{ basic: [] }]));
    expect(single.report.notes).toEqual([]);
  });
});

describe('text fit for a model (item 5)', () => {
  it("Stripe's HTML descriptions reach the manifest as plain text, Markdown kept, said once in the report", async () => {
    const { manifest, report } = await fromOpenApi(excerpt);
    const refunds = manifest.tools.find((tool) => tool.name === 'PostRefunds')!;
    expect(refunds.description).toBe('Create a refund\n\nRefunds a `charge` or a `payment_intent` that was paid.\n\nRefunds & reversals — see the guide.');
    expect(refunds.params?.map((param) => param.description)).toEqual([
      'The identifier of the charge to refund.',
      'A positive integer in the smallest currency unit.',
    ]);
    expect(report.notes.find((note) => note.message.startsWith('HTML'))).toEqual({
      message: 'HTML in descriptions was read as plain text (tags dropped, entities decoded; Markdown kept)',
      tools: ['PostRefunds', 'GetCustomers'],
    });
    expect(formatSummary(report)).toContain(
      '  HTML in descriptions was read as plain text (tags dropped, entities decoded; Markdown kept) (2 tool(s): PostRefunds, GetCustomers)',
    );
  });

  it('lengths are capped as documented (1,024 for a tool, 512 for a param or a nested property), each cut said once for the document', async () => {
    const long = (word: string, times: number) => Array.from({ length: times }, () => word).join(' ');
    const operation = (operationId: string): Json => ({
      operationId,
      description: long('<b>tool</b>', 400),
      parameters: [{ name: 'q', in: 'query', description: long('param', 200), schema: { type: 'string' } }],
      requestBody: {
        content: {
          'application/json': {
            schema: { type: 'object', properties: { nested: { type: 'object', properties: { deep: { type: 'string', description: long('deep', 300) } } } } },
          },
        },
      },
      ...ok,
    });
    const { manifest, report } = await fromOpenApi({
      openapi: '3.0.3',
      info: { title: 'T', version: '1' },
      servers: [{ url: 'https://api.example.com' }],
      paths: { '/a': { post: operation('one') }, '/b': { post: operation('two') } },
    });
    for (const tool of manifest.tools) {
      expect(tool.description.length).toBeLessThanOrEqual(1_024);
      expect(tool.description).toMatch(/^tool tool .*tool…$/);
      const [q, nested] = [tool.params!.find((param) => param.name === 'q')!, tool.params!.find((param) => param.name === 'nested')!];
      expect(q.description!.length).toBeLessThanOrEqual(512);
      expect(q.description).toMatch(/…$/);
      const deep = (nested.properties as Record<string, { description?: string }>)['deep']!;
      expect(deep.description!.length).toBeLessThanOrEqual(512);
    }
    expect(report.notes.map((note) => [note.message, note.tools])).toEqual([
      ['param descriptions were cut to 512 characters', ['one', 'two']],
      ['HTML in descriptions was read as plain text (tags dropped, entities decoded; Markdown kept)', ['one', 'two']],
      ['a tool description was cut to 1,024 characters', ['one', 'two']],
    ]);
    expect(report.lossy.filter((step) => /description/.test(step.message))).toEqual([]);
  });
});

describe('every imported param can be sent (item 2, the importer side)', () => {
  const scalar = new Set(['string', 'number', 'integer', 'boolean']);

  it("Stripe's object query params: a union is narrowed to the branch a query carries; a deepObject one is sent in that style (RCP 0.4)", async () => {
    const { manifest, report } = await fromOpenApi(excerpt);
    expect(manifest.rcpVersion).toBe('0.4');
    for (const tool of manifest.tools) {
      for (const template of Object.values(tool.queryParams ?? {})) {
        const param = tool.params!.find((entry) => `{{${entry.name}}}` === template)!;
        const sendable =
          scalar.has(param.type ?? '') ||
          (param.type === 'array' && (param.items === undefined || scalar.has(param.items.type ?? ''))) ||
          (param.type === 'object' && param.queryStyle === 'deepObject');
        expect(sendable, `${tool.name}: ${param.name}`).toBe(true);
      }
    }
    const customers = manifest.tools.find((tool) => tool.name === 'GetCustomers')!;
    expect(customers.params!.find((param) => param.name === 'created')).toEqual({
      name: 'created',
      type: 'integer',
      description: 'Only customers created in this interval, or at this exact time.',
    });
    const upcoming = manifest.tools.find((tool) => tool.name === 'GetInvoicesUpcoming')!;
    expect(upcoming.params!.map((param) => [param.name, param.queryStyle])).toEqual([
      ['customer', undefined],
      ['customer_details', 'deepObject'],
    ]);
    expect(Object.keys(upcoming.queryParams!)).toEqual(['customer', 'customer_details']);
    expect(report.operations.find((entry) => entry.operationId === 'GetAppsSecretsFind')).toMatchObject({ status: 'imported' });
    expect(report.notes.filter((note) => note.examples !== undefined)).toEqual([
      {
        message:
          'query params that may be an object were narrowed to the branch of their union a query can carry (RCP sends a scalar or an array of scalars there)',
        tools: ['GetCustomers'],
        examples: ['"created" → integer'],
      },
      {
        message: 'query arrays in the deepObject style are sent as repeated keys (k=a&k=b), not with brackets (k[0]=a): check that the API reads them so',
        tools: ['GetCustomers'],
        examples: ['"expand"'],
      },
    ]);
    expect(report.lossy.filter((step) => /created|customer_details|scope/.test(step.message))).toEqual([]);
  });

  it('a deepObject query param is sent as the document says (scope[type]=account); a comma-joined array as one entry', async () => {
    server.route('GET /v1/apps/secrets/find', (_request, res) => sendJson(res, 200, { object: 'apps.secret' }));
    const { manifest } = await fromOpenApi(excerpt, { baseUrl: server.origin });
    const client = createRcpClient({ credentials: () => 'sk_test_123', trustedOrigins: [server.origin] });
    const discovery = await client.discover(serveManifest(server, manifest));
    server.reset();
    const sent = await client.call(discovery, { name: 'GetAppsSecretsFind', arguments: { name: 'key', scope: { type: 'account' } } });
    expect(sent.ok).toBe(true);
    expect(server.requests.map((request) => request.url)).toEqual(['/v1/apps/secrets/find?name=key&scope%5Btype%5D=account']);
    const { manifest: csv } = await fromOpenApi(
      doc([id, { name: 'fields', in: 'query', style: 'form', explode: false, schema: { type: 'array', items: { type: 'string' } } }]),
    );
    expect(csv.rcpVersion).toBe('0.4');
    expect(csv.tools[0]!.params!.find((param) => param.name === 'fields')).toMatchObject({ type: 'array', queryStyle: 'comma' });
  });

  it('the narrowed param is sent as the API reads it; an object is refused before any request', async () => {
    server.route('GET /v1/customers', (_request, res) => sendJson(res, 200, { object: 'list', data: [] }));
    const { manifest } = await fromOpenApi(excerpt, { baseUrl: server.origin });
    const client = createRcpClient({ credentials: () => 'sk_test_123', trustedOrigins: [server.origin] });
    const discovery = await client.discover(serveManifest(server, manifest));
    server.reset();
    const sent = await client.call(discovery, { name: 'GetCustomers', arguments: { created: 1_700_000_000, limit: 3 } });
    expect(sent.ok).toBe(true);
    expect(server.requests.map((request) => request.url)).toEqual(['/v1/customers?created=1700000000&limit=3']);
    server.reset();
    const refused = await client.call(discovery, { name: 'GetCustomers', arguments: { created: { gte: 1 } } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'RCP_INVALID_ARGUMENTS' } });
    expect(server.requests).toEqual([]);
  });

  const doc = (parameters: Json[]): Json => ({
    openapi: '3.0.3',
    info: { title: 'T', version: '1' },
    servers: [{ url: 'https://api.example.com' }],
    paths: { '/things/{id}': { get: { operationId: 'getThing', parameters, ...ok } } },
  });
  const id = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
  const object = { type: 'object', properties: { a: { type: 'string' } } };

  it.each([
    ['a path param that is an object skips the operation', [{ ...id, schema: object }], 'a required path param RCP cannot send ("id" is an object)'],
    [
      'a required header that is an object skips it',
      [id, { name: 'X-Filter', in: 'header', required: true, schema: object }],
      'a required header param RCP cannot send ("X-Filter" is an object)',
    ],
    [
      'a required query array of objects skips it',
      [id, { name: 'lines', in: 'query', required: true, schema: { type: 'array', items: object } }],
      'a required query param RCP cannot send ("lines" is an array of objects)',
    ],
  ])('%s', async (_name, parameters, reason) => {
    const { report } = await fromOpenApi(doc(parameters));
    expect(report.operations[0]).toMatchObject({ status: 'skipped', reason });
  });

  it('a union takes the first branch its place carries: an array of strings in a query, a string in a header', async () => {
    const { manifest, report } = await fromOpenApi(
      doc([
        id,
        { name: 'tags', in: 'query', schema: { oneOf: [object, { type: 'array', items: { type: 'string' } }] } },
        { name: 'X-Mode', in: 'header', schema: { anyOf: [object, { type: 'array', items: { type: 'string' } }, { type: 'string' }] } },
        { name: 'X-Extra', in: 'header', schema: object },
      ]),
    );
    expect(manifest.tools[0]!.params!.map((param) => [param.name, param.type])).toEqual([
      ['id', 'string'],
      ['tags', 'array'],
      ['X_Mode', 'string'],
    ]);
    expect(manifest.tools[0]!.headers).toEqual({ 'X-Mode': '{{X_Mode}}' });
    expect(report.notes.map((note) => note.examples)).toEqual([['"tags" → array'], ['"X-Mode" → string'], ['"X-Extra" (an object)']]);
  });
});
