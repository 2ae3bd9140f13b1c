import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { isRcpError } from 'rcp-manifest';
import { sendJson, serveManifest, startTestServer, type TestServer } from 'rcp-test-utils';
import { formatSummary, fromOpenApi, type FromOpenApiOptions } from './index';

/**
 * Issue 20, item 6: what a fresh-clone trial found the importer losing without a word — a
 * `+json` body sent as `application/json`, an exclusive bound made inclusive, a deprecated
 * admin operation imported as an ordinary tool, a security scheme the document never defines.
 * Each is now kept, or reported.
 */

type Json = Record<string, unknown>;

const ok = { responses: { '200': { description: 'ok' } } };
const doc = (paths: Json, extra: Json = {}): Json => ({
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  servers: [{ url: 'https://api.example.com' }],
  paths,
  ...extra,
});
const swagger = (paths: Json, extra: Json = {}): Json => ({ swagger: '2.0', info: { title: 'Pets', version: '1' }, host: 'api.example.com', paths, ...extra });
const reasons = (operations: readonly { operationId?: string; status: string; reason?: string }[]) =>
  Object.fromEntries(operations.map((entry) => [entry.operationId, entry.status === 'imported' ? 'imported' : entry.reason]));

let server: TestServer;
/** Content types the API accepts on `/pets/...`; anything else is a 415, as the trial's API answered. */
let accepted: string;
beforeEach(async () => {
  server = await startTestServer();
  accepted = 'application/json';
  server.route('* /pets/1', (request, res) => {
    if (request.headers['content-type'] !== accepted) sendJson(res, 415, { error: 'unsupported media type' });
    else sendJson(res, 200, { ok: true });
  });
  server.route('* /pets', (_request, res) => sendJson(res, 200, { ok: true }));
});
afterEach(async () => {
  await server.close();
});

/** Imports `document` with the loopback server as the base and calls one tool through rcp-client. */
async function callThroughClient(document: Json, tool: string, args: Json, options: FromOpenApiOptions = {}) {
  const { manifest, report } = await fromOpenApi(document, { baseUrl: server.origin, ...options });
  const client = createRcpClient({ trustedOrigins: [server.origin] });
  const discovery = await client.discover(serveManifest(server, manifest));
  server.reset();
  const outcome = await client.call(discovery, { name: tool, arguments: args });
  return { manifest, report, outcome, requests: server.requests };
}

describe('a JSON body other than application/json is sent with its own Content-Type', () => {
  const patch = (type: string, schema: Json): Json =>
    doc({
      '/pets/{petId}': {
        patch: {
          operationId: 'updatePet',
          parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: { required: true, content: { [type]: { schema } } },
          ...ok,
        },
      },
    });
  const object = { type: 'object', properties: { name: { type: 'string' } } };
  const operations = { type: 'array', items: { type: 'object', properties: { op: { type: 'string' }, path: { type: 'string' }, value: { type: 'string' } } } };

  it.each([
    ['application/merge-patch+json', object, { petId: '1', name: 'Rex' }, { name: 'Rex' }],
    [
      'application/json-patch+json',
      operations,
      { petId: '1', body: [{ op: 'replace', path: '/name', value: 'Rex' }] },
      [{ op: 'replace', path: '/name', value: 'Rex' }],
    ],
    ['application/vnd.api+json', object, { petId: '1', name: 'Rex' }, { name: 'Rex' }],
    ['application/problem+json', object, { petId: '1', name: 'Rex' }, { name: 'Rex' }],
    ['application/vnd.api+json; ext=bulk', object, { petId: '1', name: 'Rex' }, { name: 'Rex' }],
  ])('%s: the server receives that exact Content-Type and the JSON body', async (type, schema, args, body) => {
    accepted = type;
    const { manifest, report, outcome, requests } = await callThroughClient(patch(type, schema), 'updatePet', args);
    expect(manifest.tools[0]!.headers).toEqual({ 'Content-Type': type });
    expect(report.lossy).toEqual([]);
    expect(outcome.ok).toBe(true);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.method).toBe('PATCH');
    expect(requests[0]!.headers['content-type']).toBe(type);
    expect(requests[0]!.json).toEqual(body);
  });

  it('application/json, when the operation also lists it, is chosen and needs no header', async () => {
    const document = doc({
      '/pets/{petId}': {
        patch: {
          operationId: 'updatePet',
          parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: { content: { 'application/merge-patch+json': { schema: object }, 'application/json; charset=utf-8': { schema: object } } },
          ...ok,
        },
      },
    });
    const { manifest, outcome, requests } = await callThroughClient(document, 'updatePet', { petId: '1', name: 'Rex' });
    expect(manifest.tools[0]!.headers).toBeUndefined();
    expect(outcome.ok).toBe(true);
    expect(requests[0]!.headers['content-type']).toBe('application/json');
  });

  it("a header param named Content-Type is still dropped, and the body's type is the one sent", async () => {
    accepted = 'application/merge-patch+json';
    const document = doc({
      '/pets/{petId}': {
        patch: {
          operationId: 'updatePet',
          parameters: [
            { name: 'petId', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'Content-Type', in: 'header', schema: { type: 'string' } },
            { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
          ],
          requestBody: { content: { 'application/merge-patch+json': { schema: object } } },
          ...ok,
        },
      },
    });
    const { manifest, report, requests } = await callThroughClient(document, 'updatePet', { petId: '1', name: 'Rex', X_Trace: 't-1' });
    expect(manifest.tools[0]!.headers).toEqual({ 'X-Trace': '{{X_Trace}}', 'Content-Type': 'application/merge-patch+json' });
    expect(report.lossy).toEqual([{ tool: 'updatePet', message: 'header param "Content-Type" was dropped (the client or auth sets it)' }]);
    expect(requests[0]!.headers['content-type']).toBe('application/merge-patch+json');
    expect(requests[0]!.headers['x-trace']).toBe('t-1');
  });

  it('Swagger 2: the body param is sent as the +json type the operation (or the document) consumes', async () => {
    accepted = 'application/merge-patch+json';
    const body = { name: 'body', in: 'body', required: true, schema: object };
    const document = swagger(
      {
        '/pets/{petId}': { patch: { operationId: 'updatePet', parameters: [{ name: 'petId', in: 'path', required: true, type: 'string' }, body], ...ok } },
        '/pets': { post: { operationId: 'createPet', consumes: ['application/xml', 'application/json'], parameters: [body], ...ok } },
      },
      { consumes: ['application/merge-patch+json'] },
    );
    const update = await callThroughClient(document, 'updatePet', { petId: '1', name: 'Rex' });
    expect(update.requests[0]!.headers['content-type']).toBe('application/merge-patch+json');
    expect(update.outcome.ok).toBe(true);
    expect(update.manifest.tools[1]!.headers).toBeUndefined();
  });

  it('a body type RCP cannot send is reported for each operation: a skip when required, a lossy step when optional (multipart/form-data is sent, RCP 0.4)', async () => {
    const body = (type: string, required: boolean): Json => ({ required, content: { [type]: { schema: { type: 'string', format: 'binary' } } } });
    const document = doc({
      '/photo': {
        put: { operationId: 'uploadPhoto', requestBody: body('application/octet-stream', true), ...ok },
        post: { operationId: 'uploadForm', requestBody: body('multipart/form-data', false), ...ok },
        patch: { operationId: 'notePhoto', requestBody: body('text/plain', false), ...ok },
        delete: { operationId: 'deletePhoto', requestBody: body('application/xml', true), ...ok },
      },
    });
    const { manifest, report } = await fromOpenApi(document);
    expect(reasons(report.operations)).toEqual({
      uploadPhoto: 'an unsupported body type (application/octet-stream)',
      uploadForm: 'imported',
      notePhoto: 'imported',
      deletePhoto: 'an unsupported body type (application/xml)',
    });
    expect(manifest.tools.map((tool) => [tool.name, tool.body, tool.headers])).toEqual([
      ['uploadForm', { file: '{{file}}' }, undefined],
      ['notePhoto', undefined, undefined],
    ]);
    expect(report.lossy).toEqual([
      { tool: 'uploadForm', message: 'the multipart body is one file with no field name: it is sent as a part named "file"' },
      { tool: 'notePhoto', message: 'the optional body (text/plain) was left out' },
    ]);
    const swaggerBody = { name: 'photo', in: 'body', schema: { type: 'string' } };
    const old = await fromOpenApi(
      swagger({
        '/a': { put: { operationId: 'required', consumes: ['application/octet-stream'], parameters: [{ ...swaggerBody, required: true }], ...ok } },
        '/b': { put: { operationId: 'optional', consumes: ['application/octet-stream'], parameters: [swaggerBody], ...ok } },
        '/c': { put: { operationId: 'multipart', consumes: ['multipart/form-data'], parameters: [swaggerBody], ...ok } },
      }),
    );
    expect(reasons(old.report.operations)).toEqual({
      required: 'an unsupported body type (application/octet-stream)',
      optional: 'imported',
      multipart: 'a multipart body without form fields',
    });
    expect(old.manifest.tools[0]!.body).toBeUndefined();
    expect(old.report.lossy).toEqual([{ tool: 'optional', message: 'the optional body (application/octet-stream) was left out' }]);
  });
});

describe('exclusive bounds stay exclusive, or the report says they could not', () => {
  const query = (name: string, schema: Json): Json => ({ name, in: 'query', schema });
  const list = (parameters: Json[], openapi = '3.0.3'): Json => ({ ...doc({ '/pets': { get: { operationId: 'listPets', parameters, ...ok } } }), openapi });

  it('OpenAPI 3.0 integers: exclusiveMinimum / exclusiveMaximum true are the inclusive bound a step in; 0 is refused before anything is sent', async () => {
    const document = list([query('limit', { type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 100, exclusiveMaximum: true })]);
    const refused = await callThroughClient(document, 'listPets', { limit: 0 });
    expect(refused.manifest.tools[0]!.params).toEqual([{ name: 'limit', type: 'integer', minimum: 1, maximum: 99 }]);
    expect(refused.report.lossy).toEqual([]);
    expect(refused.outcome.ok).toBe(false);
    expect(isRcpError(refused.outcome.ok ? undefined : refused.outcome.error, 'RCP_INVALID_ARGUMENTS')).toBe(true);
    expect(refused.requests).toEqual([]);
    const sent = await callThroughClient(document, 'listPets', { limit: 1 });
    expect(sent.outcome.ok).toBe(true);
    expect(sent.requests.map((request) => request.query)).toEqual([[['limit', '1']]]);
  });

  it('OpenAPI 3.0 numbers: the bound is kept inclusive and a lossy step says so — never a silent minimum: 0', async () => {
    const { manifest, report } = await fromOpenApi(
      list([query('price', { type: 'number', minimum: 0, exclusiveMinimum: true }), query('ratio', { type: 'number', maximum: 1, exclusiveMaximum: true })]),
    );
    expect(manifest.tools[0]!.params).toEqual([
      { name: 'price', type: 'number', minimum: 0 },
      { name: 'ratio', type: 'number', maximum: 1 },
    ]);
    expect(report.lossy).toEqual([
      {
        tool: 'listPets',
        message: '"price" must be greater than 0: kept as minimum 0 (RCP bounds are inclusive, so 0 itself is not refused before the request)',
      },
      { tool: 'listPets', message: '"ratio" must be less than 1: kept as maximum 1 (RCP bounds are inclusive, so 1 itself is not refused before the request)' },
    ]);
  });

  it('OpenAPI 3.1 numeric exclusiveMinimum / exclusiveMaximum, alone or beside an inclusive bound (the tighter wins)', async () => {
    const { manifest, report } = await fromOpenApi(
      list(
        [
          query('limit', { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10.5 }),
          query('page', { type: 'integer', minimum: 5, exclusiveMinimum: 0 }),
          query('offset', { type: 'integer', minimum: 3, exclusiveMinimum: 3 }),
          query('score', { type: 'number', exclusiveMinimum: 0.5, maximum: 2 }),
        ],
        '3.1.0',
      ),
    );
    expect(manifest.tools[0]!.params).toEqual([
      { name: 'limit', type: 'integer', minimum: 1, maximum: 10 },
      { name: 'page', type: 'integer', minimum: 5 },
      { name: 'offset', type: 'integer', minimum: 4 },
      { name: 'score', type: 'number', minimum: 0.5, maximum: 2 },
    ]);
    expect(report.lossy.map((step) => step.message)).toEqual([
      '"score" must be greater than 0.5: kept as minimum 0.5 (RCP bounds are inclusive, so 0.5 itself is not refused before the request)',
    ]);
  });

  it('exclusiveMinimum false or without a minimum adds nothing; Swagger 2 and nested body properties read the same rule', async () => {
    const plain = await fromOpenApi(
      list([query('a', { type: 'integer', minimum: 0, exclusiveMinimum: false }), query('b', { type: 'integer', exclusiveMinimum: true })]),
    );
    expect(plain.manifest.tools[0]!.params).toEqual([
      { name: 'a', type: 'integer', minimum: 0 },
      { name: 'b', type: 'integer' },
    ]);
    expect(plain.report.lossy).toEqual([]);
    const old = await fromOpenApi(
      swagger({
        '/pets': { get: { operationId: 'listPets', parameters: [{ name: 'limit', in: 'query', type: 'integer', minimum: 0, exclusiveMinimum: true }], ...ok } },
      }),
    );
    expect(old.manifest.tools[0]!.params).toEqual([{ name: 'limit', type: 'integer', minimum: 1 }]);
    const nested = await fromOpenApi(
      doc({
        '/pets': {
          post: {
            operationId: 'createPet',
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { size: { type: 'object', properties: { weight: { type: 'number', minimum: 0, exclusiveMinimum: true } } } },
                  },
                },
              },
            },
            ...ok,
          },
        },
      }),
    );
    expect(nested.manifest.tools[0]!.params).toEqual([{ name: 'size', type: 'object', properties: { weight: { type: 'number', minimum: 0 } } }]);
    expect(nested.report.lossy.map((step) => step.message)).toEqual([
      'property "weight" of "size" must be greater than 0: kept as minimum 0 (RCP bounds are inclusive, so 0 itself is not refused before the request)',
    ]);
  });

  it('bounds that leave no value (an integer > 0 and < 1) are reported, not dropped in silence', async () => {
    const { manifest, report } = await fromOpenApi(
      list([query('n', { type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true })]),
    );
    expect(manifest.tools[0]!.params).toEqual([{ name: 'n', type: 'integer', maximum: 0 }]);
    expect(report.lossy.map((step) => step.message)).toEqual(['"n" has a minimum above its maximum (no value fits): the minimum was dropped']);
  });
});

describe('deprecated operations', () => {
  // The trial's case: an admin operation that deletes an owner and every pet.
  const document = doc({
    '/pets': { get: { operationId: 'listPets', summary: 'List pets', ...ok } },
    '/owners/{ownerId}': {
      delete: {
        operationId: 'purgeOwner',
        summary: 'Delete an owner and all their pets',
        deprecated: true,
        parameters: [{ name: 'ownerId', in: 'path', required: true, schema: { type: 'string' } }],
        ...ok,
      },
      get: { operationId: 'getOwner', deprecated: false, ...ok },
    },
  });

  it('are skipped by default, with the reason, in the report and its summary', async () => {
    const { manifest, report } = await fromOpenApi(document);
    expect(manifest.tools.map((tool) => tool.name)).toEqual(['listPets', 'getOwner']);
    expect(reasons(report.operations)).toEqual({ listPets: 'imported', getOwner: 'imported', purgeOwner: 'deprecated' });
    expect(report.summary.skipped).toEqual({ deprecated: 1 });
    expect(formatSummary(report)).toContain('skipped 1: deprecated');
  });

  it('includeDeprecated imports them, each description starting with "Deprecated: " (the model reads it)', async () => {
    const { manifest, report, outcome, requests } = await callThroughClient(document, 'purgeOwner', { ownerId: 'o-1' }, { includeDeprecated: true });
    expect(manifest.tools.map((tool) => [tool.name, tool.description])).toEqual([
      ['listPets', 'List pets'],
      ['getOwner', 'GET /owners/{ownerId}'],
      ['purgeOwner', 'Deprecated: Delete an owner and all their pets'],
    ]);
    expect(report.summary).toEqual({ operations: 3, imported: 3, groups: 0, skipped: {} });
    expect(outcome.ok).toBe(false); // no route: the server answers 404, after receiving the call
    expect(requests.map((request) => [request.method, request.path])).toEqual([['DELETE', '/owners/o-1']]);
    const swaggerResult = await fromOpenApi(swagger({ '/old': { get: { operationId: 'old', deprecated: true, ...ok } } }), { includeDeprecated: true });
    expect(swaggerResult.manifest.tools[0]!.description).toBe('Deprecated: GET /old');
    expect(reasons((await fromOpenApi(swagger({ '/old': { get: { operationId: 'old', deprecated: true, ...ok } } }))).report.operations)).toEqual({
      old: 'deprecated',
    });
  });

  it('an includeDeprecated that is not a boolean is RCP_INVALID_OPTIONS', async () => {
    await expect(fromOpenApi(document, { includeDeprecated: 'yes' as never })).rejects.toMatchObject({ code: 'RCP_INVALID_OPTIONS' });
  });
});

describe('a security scheme the document never defines', () => {
  it('is a document warning naming it, and the operations that need it are skipped with a reason that names it too', async () => {
    const document = doc(
      {
        '/pets': {
          get: { operationId: 'listPets', security: [{ apiKey: [] }], ...ok },
          post: { operationId: 'createPet', security: [{ apiKey: [] }], ...ok },
          put: { operationId: 'replacePets', security: [{ apiKey: [] }, { token: [] }], ...ok },
        },
        '/owners': { get: { operationId: 'listOwners', ...ok } },
        '/health': { get: { operationId: 'health', security: [], ...ok } },
      },
      { components: { securitySchemes: { token: { type: 'http', scheme: 'bearer' } } }, security: [{ legacy: [] }] },
    );
    const { manifest, report } = await fromOpenApi(document);
    expect(reasons(report.operations)).toEqual({
      listPets: 'the security scheme "apiKey" is not defined',
      createPet: 'the security scheme "apiKey" is not defined',
      replacePets: 'imported',
      listOwners: 'the security scheme "legacy" is not defined',
      health: 'imported',
    });
    expect(manifest.tools.find((tool) => tool.name === 'replacePets')!.auth).toEqual({ type: 'header', name: 'Authorization', scheme: 'Bearer' });
    expect(report.documentWarnings).toEqual([
      'the security scheme "legacy" is not defined in components.securitySchemes, but 1 operation(s) name it (an operation with no other way to authenticate is skipped)',
      'the security scheme "apiKey" is not defined in components.securitySchemes, but 3 operation(s) name it (an operation with no other way to authenticate is skipped)',
    ]);
    const summary = formatSummary(report);
    expect(summary).toContain('  document warning: the security scheme "apiKey" is not defined in components.securitySchemes');
    expect(summary).toContain('  skipped 2: the security scheme "apiKey" is not defined');
  });

  it('Swagger 2 names securityDefinitions; a document-level one no operation uses is still a warning; "__proto__" is a name like any other', async () => {
    const old = await fromOpenApi(swagger({ '/a': { get: { operationId: 'a', security: [{ key: [] }], ...ok } } }, { securityDefinitions: {} }));
    expect(old.report.documentWarnings).toEqual([
      'the security scheme "key" is not defined in securityDefinitions, but 1 operation(s) name it (an operation with no other way to authenticate is skipped)',
    ]);
    const unused = await fromOpenApi(doc({ '/a': { get: { operationId: 'a', security: [], ...ok } } }, { security: [{ gone: [] }] }));
    expect(unused.report.documentWarnings).toEqual([
      'the security scheme "gone" is not defined in components.securitySchemes, but the document\'s security names it (an operation with no other way to authenticate is skipped)',
    ]);
    expect(unused.manifest.tools).toHaveLength(1);
    const proto = await fromOpenApi(
      JSON.parse(
        '{"openapi":"3.0.3","info":{"title":"T","version":"1"},"servers":[{"url":"https://api.example.com"}],"paths":{"/a":{"get":{"operationId":"a","security":[{"__proto__":[]}],"responses":{"200":{"description":"ok"}}}}}}',
      ) as Json,
    );
    expect(reasons(proto.report.operations)).toEqual({ a: 'the security scheme "__proto__" is not defined' });
    expect(proto.report.documentWarnings).toHaveLength(1);
  });
});

describe('format is an annotation: shown to the model, not checked', () => {
  it('a value that does not match its format is sent as given (the README says so)', async () => {
    const document = doc({
      '/pets': {
        get: {
          operationId: 'listPets',
          parameters: [
            { name: 'email', in: 'query', schema: { type: 'string', format: 'email' } },
            { name: 'since', in: 'query', schema: { type: 'string', format: 'date-time' } },
          ],
          ...ok,
        },
      },
    });
    const { manifest, outcome, requests } = await callThroughClient(document, 'listPets', { email: 'not an email', since: 'yesterday' });
    expect(manifest.tools[0]!.params).toEqual([
      { name: 'email', type: 'string', format: 'email' },
      { name: 'since', type: 'string', format: 'date-time' },
    ]);
    expect(outcome.ok).toBe(true);
    expect(requests.map((request) => request.query)).toEqual([
      [
        ['email', 'not an email'],
        ['since', 'yesterday'],
      ],
    ]);
  });
});
