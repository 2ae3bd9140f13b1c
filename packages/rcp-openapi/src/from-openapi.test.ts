import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isRcpError } from 'rcp-manifest';
import { startTestServer, type TestServer } from 'rcp-test-utils';
import { fromOpenApi } from './index';

type Json = Record<string, unknown>;

const doc = (paths: Json, extra: Json = {}): Json => ({
  openapi: '3.0.3',
  info: { title: 'T', version: '1' },
  servers: [{ url: 'https://api.example.com/v1' }],
  paths,
  ...extra,
});
const ok = { responses: { '200': { description: 'ok' } } };
const tools = async (document: Json, options = {}) => (await fromOpenApi(document, options)).manifest.tools;

describe('tool names', () => {
  it('come from operationId, sanitised, or from method and path; long and clashing ones get a deterministic hash', async () => {
    const long = 'x'.repeat(80);
    const result = await fromOpenApi(
      doc({
        '/a/{id}': { get: { operationId: 'get a.thing!', ...ok }, put: { ...ok } },
        '/b': { get: { operationId: long, ...ok }, post: { operationId: 'Get_A_Thing', ...ok } },
      }),
    );
    const names = result.manifest.tools.map((tool) => tool.name);
    expect(names[0]).toBe('get_a_thing');
    expect(names[1]).toBe('put_a_id');
    expect(names[2]).toMatch(/^x{57}_[0-9a-z]{6}$/);
    expect(names[3]).toMatch(/^Get_A_Thing_[0-9a-z]{6}$/);
    expect((await fromOpenApi(doc({ '/b': { get: { operationId: long, ...ok } } }))).manifest.tools[0]!.name).toBe(names[2]);
  });

  it('descriptions join summary and description; an operation with neither is described by method and path', async () => {
    const [a, b] = await tools(doc({ '/a': { get: { summary: 'List a', description: 'Lists every a.', ...ok } }, '/b': { get: ok } }));
    expect(a!.description).toBe('List a\n\nLists every a.');
    expect(b!.description).toBe('GET /b');
  });
});

describe('params', () => {
  it("merges path-item params with the operation's (the operation wins) and carries details", async () => {
    const [tool] = await tools(
      doc({
        '/pets/{petId}': {
          parameters: [
            { name: 'petId', in: 'path', required: true, schema: { type: 'string' }, description: 'from the path item' },
            { name: 'limit', in: 'query', schema: { type: 'integer' } },
          ],
          get: {
            operationId: 'getPet',
            parameters: [
              { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 50, format: 'int32' } },
              { name: 'status', in: 'query', schema: { type: 'string', enum: ['open', 'closed', null] } },
              { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } },
              { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
              { name: 'Authorization', in: 'header', schema: { type: 'string' } },
            ],
            ...ok,
          },
        },
      }),
    );
    expect(tool!.url).toBe('https://api.example.com/v1/pets/{{petId}}');
    expect(tool!.params).toEqual([
      { name: 'petId', type: 'string', description: 'from the path item', required: true },
      { name: 'limit', type: 'integer', minimum: 1, maximum: 50, format: 'int32' },
      { name: 'status', type: 'string', enum: ['open', 'closed'] },
      { name: 'tags', type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
      { name: 'X_Trace', type: 'string' },
    ]);
    expect(tool!.queryParams).toEqual({ limit: '{{limit}}', status: '{{status}}', tags: '{{tags}}' });
    expect(tool!.headers).toEqual({ 'X-Trace': '{{X_Trace}}' });
  });

  it('resolve: the params stay declared, described as set by the client, and never appear in the tool description', async () => {
    const result = await fromOpenApi(
      doc({
        '/accounts/{AccountSid}/calls': {
          get: { summary: 'Calls', parameters: [{ name: 'AccountSid', in: 'path', required: true, description: 'Your account SID' }], ...ok },
        },
        '/accounts/{AccountSid}/messages': { get: { summary: 'Messages', parameters: [{ name: 'AccountSid', in: 'path', required: true }], ...ok } },
      }),
      { resolve: ['AccountSid'] },
    );
    const tool = result.manifest.tools[0]!;
    expect(tool.params![0]).toEqual({
      name: 'AccountSid',
      type: 'string',
      description: 'Set by the client (resolver-bound), not by the model.',
      required: true,
    });
    expect(tool.description).toBe('Calls');
    const suggested = await fromOpenApi(
      doc({ '/accounts/{AccountSid}/calls': { get: ok }, '/accounts/{AccountSid}/messages': { get: ok }, '/status': { get: ok } }),
    );
    expect(suggested.report.resolverCandidates).toEqual([{ param: 'AccountSid', operations: 2, of: 3 }]);
  });
});

describe('bodies', () => {
  it('turns top-level properties of a JSON body into params (allOf merged, readOnly left out, clashes prefixed)', async () => {
    const [tool] = await tools(
      doc({
        '/pets': {
          post: {
            operationId: 'createPet',
            parameters: [{ name: 'name', in: 'query', schema: { type: 'string' } }],
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: {
                    allOf: [
                      { type: 'object', properties: { name: { type: 'string' }, id: { type: 'integer', readOnly: true } }, required: ['name'] },
                      { properties: { tag: { type: 'string', maxLength: 10 } } },
                    ],
                  },
                },
              },
            },
            ...ok,
          },
        },
      }),
    );
    expect(tool!.body).toEqual({ name: '{{body_name}}', tag: '{{tag}}' });
    expect(tool!.params).toEqual([
      { name: 'name', type: 'string' },
      { name: 'body_name', type: 'string', required: true },
      { name: 'tag', type: 'string', maxLength: 10 },
    ]);
  });

  it('a oneOf body becomes one required object param — never an empty body — and the report says so', async () => {
    const result = await fromOpenApi(
      doc({
        '/x': {
          post: { operationId: 'x', requestBody: { content: { 'application/json': { schema: { oneOf: [{ type: 'object' }, { type: 'object' }] } } } }, ...ok },
        },
      }),
    );
    const tool = result.manifest.tools[0]!;
    expect(tool.body).toBe('{{body}}');
    expect(tool.params).toEqual([expect.objectContaining({ name: 'body', type: 'object', required: true })]);
    expect(result.report.lossy).toEqual([{ tool: 'x', message: expect.stringContaining('oneOf of 2 schemas') }]);
  });

  it('a form body makes an RCP 0.2 manifest with bodyEncoding "form"; a JSON-only document stays 0.1', async () => {
    const form = await fromOpenApi(
      doc({
        '/msg': {
          post: {
            operationId: 'send',
            requestBody: { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { To: { type: 'string' } } } } } },
            ...ok,
          },
        },
      }),
    );
    expect(form.manifest.rcpVersion).toBe('0.2');
    expect(form.manifest.tools[0]).toMatchObject({ bodyEncoding: 'form', body: { To: '{{To}}' } });
    expect((await fromOpenApi(doc({ '/a': { get: ok } }))).manifest.rcpVersion).toBe('0.1');
  });

  it('skips multipart bodies RCP cannot send, required cookie params and methods RCP has not, each with its reason', async () => {
    const result = await fromOpenApi(
      doc({
        '/upload': {
          post: { operationId: 'upload', requestBody: { required: true, content: { 'multipart/mixed': { schema: { type: 'object' } } } }, ...ok },
        },
        '/session': { get: { operationId: 'session', parameters: [{ name: 'sid', in: 'cookie', required: true }], ...ok } },
        '/ping': { head: { operationId: 'ping', ...ok } },
        '/xml': { post: { operationId: 'xml', requestBody: { required: true, content: { 'application/xml': { schema: { type: 'object' } } } }, ...ok } },
      }),
    );
    expect(result.manifest.tools).toEqual([]);
    expect(result.report.operations.map((entry) => [entry.operationId, entry.reason])).toEqual([
      ['upload', 'a multipart body other than multipart/form-data'],
      ['session', 'a required cookie param'],
      ['ping', 'method HEAD (RCP tools use GET, POST, PUT, PATCH or DELETE)'],
      ['xml', 'an unsupported body type (application/xml)'],
    ]);
    expect(result.report.summary).toEqual({
      operations: 4,
      imported: 0,
      groups: 0,
      skipped: expect.objectContaining({ 'a multipart body other than multipart/form-data': 1 }),
    });
  });
});

describe('auth from securitySchemes', () => {
  const secured = (scheme: Json, security: unknown[] = [{ s: [] }]) =>
    doc(
      { '/a': { get: { operationId: 'a', ...ok } }, '/open': { get: { operationId: 'open', security: [], ...ok } } },
      { components: { securitySchemes: { s: scheme } }, security },
    );

  it.each([
    [{ type: 'apiKey', in: 'header', name: 'X-Api-Key' }, { type: 'header', name: 'X-Api-Key' }, '0.1'],
    [{ type: 'apiKey', in: 'query', name: 'api_key' }, { type: 'query', name: 'api_key' }, '0.2'],
    [{ type: 'http', scheme: 'bearer' }, { type: 'header', name: 'Authorization', scheme: 'Bearer' }, '0.1'],
    [{ type: 'http', scheme: 'basic' }, { type: 'header', name: 'Authorization', scheme: 'Basic' }, '0.1'],
    [{ type: 'oauth2', flows: {} }, { type: 'header', name: 'Authorization', scheme: 'Bearer', oauth: {} }, '0.1'],
  ])('%j → %j', async (scheme, auth, version) => {
    const { manifest } = await fromOpenApi(secured(scheme));
    expect(manifest.rcpVersion).toBe(version);
    expect(manifest.auth).toEqual(auth);
    expect(manifest.tools[1]!.auth).toEqual({ type: 'none' });
  });

  it('cookie auth is skipped with its reason', async () => {
    const { report } = await fromOpenApi(secured({ type: 'apiKey', in: 'cookie', name: 'sid' }));
    expect(report.operations.map((entry) => entry.reason)).toEqual(['cookie auth', undefined]);
  });
});

describe('base URL, filters and limits', () => {
  it("takes servers[0] with its variables at their defaults, Swagger's schemes + host + basePath, or the option", async () => {
    const vars = await tools(
      doc({ '/a': { get: ok } }, { servers: [{ url: '{scheme}://api.example.com/{v}', variables: { scheme: { default: 'https' }, v: { default: 'v2' } } }] }),
    );
    expect(vars[0]!.url).toBe('https://api.example.com/v2/a');
    const swagger = await tools({
      swagger: '2.0',
      info: { title: 'S', version: '1' },
      host: 'api.example.com',
      basePath: '/base',
      schemes: ['http', 'https'],
      paths: { '/a': { get: ok } },
    });
    expect(swagger[0]!.url).toBe('https://api.example.com/base/a');
    expect((await tools(doc({ '/a': { get: ok } }), { baseUrl: 'http://127.0.0.1:8080/api/' }))[0]!.url).toBe('http://127.0.0.1:8080/api/a');
    expect((await tools(doc({ '/a': { get: ok } }, { servers: [{ url: '/v3' }] })))[0]!.url).toBe('/v3/a');
  });

  it('include and exclude by tag, operationId and path pattern; past maxTools the rest is skipped', async () => {
    const document = doc({
      '/pets': { get: { operationId: 'listPets', tags: ['pets'], ...ok } },
      '/pets/{id}': { get: { operationId: 'getPet', tags: ['pets'], ...ok } },
      '/admin/users/{id}': { delete: { operationId: 'deleteUser', tags: ['admin'], ...ok } },
    });
    const names = async (options: Json) => (await tools(document, options)).map((tool) => tool.name);
    expect(await names({ include: { tags: ['pets'] } })).toEqual(['listPets', 'getPet']);
    expect(await names({ exclude: { paths: ['/admin/**'] } })).toEqual(['listPets', 'getPet']);
    expect(await names({ include: { operationIds: ['getPet'] } })).toEqual(['getPet']);
    expect(await names({ exclude: { paths: ['/pets/*'] } })).toEqual(['listPets', 'deleteUser']);
    const limited = await fromOpenApi(document, { maxTools: 2 });
    expect(limited.report.operations[2]).toMatchObject({ status: 'skipped', reason: 'over the tool limit (2)' });
  });
});

describe('references and input', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('never fetches a URL nor reads a file a document names: such refs stay unresolved', async () => {
    const document = doc({
      '/a': {
        post: {
          operationId: 'a',
          parameters: [{ $ref: `${server.url('/params.json')}#/limit` }],
          requestBody: { content: { 'application/json': { schema: { $ref: '/etc/passwd' } } } },
          ...ok,
        },
      },
    });
    const { report } = await fromOpenApi(document);
    expect(server.count).toBe(0);
    expect(report.operations[0]).toMatchObject({ status: 'skipped', reason: expect.stringContaining('unresolved $ref') });
  });

  it('takes YAML or JSON text, and never changes the object it is given', async () => {
    const document = doc(
      { '/a': { get: { operationId: 'a', parameters: [{ $ref: '#/components/parameters/q' }], ...ok } } },
      { components: { parameters: { q: { name: 'q', in: 'query', schema: { type: 'string' } } } } },
    );
    const before = JSON.stringify(document);
    expect((await tools(document))[0]!.queryParams).toEqual({ q: '{{q}}' });
    expect(JSON.stringify(document)).toBe(before);
    const yaml =
      'openapi: 3.0.0\ninfo: { title: Y, version: "1" }\npaths:\n  /y:\n    get:\n      operationId: y\n      responses: { "200": { description: ok } }\n';
    expect((await tools(yaml as never))[0]!.name).toBe('y');
  });

  it('refuses what is not an OpenAPI document with RCP_INVALID_OPTIONS', async () => {
    for (const input of ['not: [yaml', '{"hello": 1}', '[1]']) {
      const error = await fromOpenApi(input).catch((caught: unknown) => caught);
      expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
    }
  });
});
