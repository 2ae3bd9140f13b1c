import { fileURLToPath, pathToFileURL } from 'node:url';
import { dereference } from '@readme/openapi-parser';
import OpenAPIRequestValidator from 'openapi-request-validator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { isRcpError } from 'rcp-manifest';
import { runNode, serveManifest, SPAWN_TIMEOUT, startTestServer, type TestServer } from 'rcp-test-utils';
import { fromOpenApi } from './index';

/** Issue 27, item 4: the attacks a red-team run found on the importer, each reproduced. */

type Json = Record<string, unknown>;

const ok = { responses: { '200': { description: 'ok' } } };
const doc = (paths: Json, extra: Json = {}): Json => ({
  openapi: '3.0.3',
  info: { title: 'T', version: '1' },
  servers: [{ url: 'https://api.example.com' }],
  paths,
  ...extra,
});
const reasons = (operations: readonly { operationId?: string; status: string; reason?: string }[]) =>
  Object.fromEntries(operations.map((entry) => [entry.operationId, entry.status === 'imported' ? 'imported' : entry.reason]));

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
  server.route('* /echo', (_request, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
});
afterEach(async () => {
  await server.close();
});

/** Imports `document` with the loopback server as the base and calls one tool through rcp-client. */
async function callThroughClient(document: Json, tool: string, args: Json) {
  const { manifest, report } = await fromOpenApi(document, { baseUrl: server.origin });
  const client = createRcpClient({ trustedOrigins: [server.origin] });
  const discovery = await client.discover(serveManifest(server, manifest));
  server.reset();
  const outcome = await client.call(discovery, { name: tool, arguments: args });
  return { manifest, report, outcome, requests: server.requests };
}

describe('a path never moves a tool to another host, port or base path', () => {
  it('a path that does not start with "/" is skipped with its reason, and every tool keeps the base origin', async () => {
    const { manifest, report } = await fromOpenApi(
      doc({
        '.evil.example/steal': { get: { operationId: 'host', ...ok } },
        ':8443/admin': { get: { operationId: 'port', ...ok } },
        '@evil.example/x': { get: { operationId: 'userinfo', ...ok } },
        '/../admin': { get: { operationId: 'dots', ...ok } },
        '/a/%2E%2e/b': { get: { operationId: 'encodedDots', ...ok } },
        '/fine': { get: { operationId: 'fine', ...ok } },
        '/users/@me': { get: { operationId: 'me', ...ok } },
      }),
    );
    expect(reasons(report.operations)).toEqual({
      host: 'the path does not start with "/" (it would change the host or port of the base URL)',
      port: 'the path does not start with "/" (it would change the host or port of the base URL)',
      userinfo: 'the path does not start with "/" (it would change the host or port of the base URL)',
      dots: 'the path has a "." or ".." segment (it would leave the base path)',
      encodedDots: 'the path has a "." or ".." segment (it would leave the base path)',
      fine: 'imported',
      me: 'imported',
    });
    expect(manifest.tools.map((tool) => tool.url)).toEqual(['https://api.example.com/fine', 'https://api.example.com/users/@me']);
    expect(report.lossy).toEqual([]);
  });

  it('the same with a base path, the baseUrl option, Swagger 2 and a relative server', async () => {
    const paths = { ':8443/admin': { get: { operationId: 'port', ...ok } }, '/fine': { get: { operationId: 'fine', ...ok } } };
    const urls = async (document: Json, options = {}) => (await fromOpenApi(document, options)).manifest.tools.map((tool) => tool.url);
    expect(await urls(doc(paths, { servers: [{ url: 'https://api.example.com/v1/' }] }))).toEqual(['https://api.example.com/v1/fine']);
    expect(await urls(doc(paths), { baseUrl: 'http://127.0.0.1:8080' })).toEqual(['http://127.0.0.1:8080/fine']);
    expect(await urls({ swagger: '2.0', info: { title: 'S', version: '1' }, host: 'api.example.com', paths })).toEqual(['https://api.example.com/fine']);
    expect(await urls(doc(paths, { servers: [{ url: '/v3' }] }))).toEqual(['/v3/fine']);
    const relative = await fromOpenApi(doc({ '//evil.example/x': { get: { operationId: 'other', ...ok } } }, { servers: [] }));
    expect(relative.manifest.tools).toEqual([]);
    expect(relative.report.operations[0]!.reason).toMatch(/^RCP refuses the tool \(\/url: .*"\/\/host" would change the host/);
  });

  it('a base URL that is not a plain http(s) URL is refused before anything, without repeating it', async () => {
    for (const baseUrl of ['https://user:secret-pw@api.example.com', 'https://api.example.com/v1?key=1', 'ftp://api.example.com', 'https://']) {
      const error = await fromOpenApi(doc({ '/a': { get: ok } }), { baseUrl }).catch((caught: unknown) => caught);
      expect(isRcpError(error, 'RCP_INVALID_OPTIONS'), baseUrl).toBe(true);
      expect((error as Error).message).not.toContain('secret-pw');
    }
    const protocolRelative = await fromOpenApi(doc({ '/a': { get: ok } }, { servers: [{ url: '//evil.example' }] })).catch((caught: unknown) => caught);
    expect(isRcpError(protocolRelative, 'RCP_INVALID_OPTIONS')).toBe(true);
  });
});

describe('hostile documents are an RcpError, and the process lives', () => {
  const deepJson = (depth: number): string =>
    `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"x-deep":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
  const deepFlowYaml = (depth: number): string =>
    `openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {}\nx-deep: ${'['.repeat(depth)}1${']'.repeat(depth)}\n`;
  const deepBlockYaml = (depth: number): string => `openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {}\nx-deep:\n${'- '.repeat(depth)}1\n`;

  it('documents 2,000 deep (JSON, YAML flow, YAML block), several times in one process', async () => {
    for (let round = 0; round < 4; round++) {
      for (const text of [deepJson(2_000), deepFlowYaml(2_000), deepBlockYaml(2_000)]) {
        const error = await fromOpenApi(text).catch((caught: unknown) => caught);
        expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
        expect((error as Error).message).toBe('The OpenAPI document is nested deeper than 256 levels');
      }
    }
  });

  it('the same in a child process: it exits normally after every import (a native crash would end it)', { timeout: SPAWN_TIMEOUT }, async () => {
    const entry = pathToFileURL(fileURLToPath(new URL('../dist/index.js', import.meta.url))).href;
    const script = `
      const { fromOpenApi } = await import(${JSON.stringify(entry)});
      const deep = (n) => '{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"x-deep":' + '{"a":'.repeat(n) + '1' + '}'.repeat(n) + '}';
      const yaml = (n) => 'openapi: 3.0.3\\ninfo: {title: t, version: "1"}\\npaths: {}\\nx-deep:\\n' + '- '.repeat(n) + '1\\n';
      const codes = [];
      for (const n of [1000, 1500, 2000, 3000]) for (let i = 0; i < 3; i++) for (const text of [deep(n), yaml(n)]) {
        codes.push(await fromOpenApi(text).then(() => 'imported', (error) => error.code));
      }
      console.log([...new Set(codes)].join(','), codes.length);
    `;
    const run = await runNode(['--input-type=module', '-e', script]);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('RCP_INVALID_OPTIONS 24');
    expect(run.code).toBe(0);
  });

  it('a document within the limit imports; aliases, object input and cycles are measured as values', async () => {
    const fine = await fromOpenApi(deepJson(250).replace('"paths":{}', '"paths":{"/a":{"get":{"operationId":"a","responses":{"200":{"description":"ok"}}}}}'));
    expect(fine.manifest.tools.map((tool) => tool.name)).toEqual(['a']);

    // An anchor 200 deep, used once 100 levels down: no text is deeper than 256, the value is.
    const anchored = `x-anchor: &deep ${'['.repeat(200)}1${']'.repeat(200)}`;
    const aliased = `openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {}\n${anchored}\nx-use: ${'['.repeat(100)}*deep${']'.repeat(100)}\n`;
    const expanded = await fromOpenApi(aliased).catch((caught: unknown) => caught);
    expect(isRcpError(expanded, 'RCP_INVALID_OPTIONS')).toBe(true);
    expect((expanded as Error).message).toBe('The OpenAPI document is nested deeper than 256 levels');

    let object: Json = { a: 1 };
    for (let i = 0; i < 2_000; i++) object = { a: object };
    const deepObject = await fromOpenApi({ ...(doc({}) as object), 'x-deep': object }).catch((caught: unknown) => caught);
    expect(isRcpError(deepObject, 'RCP_INVALID_OPTIONS')).toBe(true);
    const cyclic: Json = doc({});
    cyclic['x-self'] = cyclic;
    const cycle = await fromOpenApi(cyclic).catch((caught: unknown) => caught);
    expect((cycle as Error).message).toBe('The OpenAPI document is nested deeper than 256 levels');
  });

  it('text larger than maxBytes (UTF-8 bytes, default 32 MiB) is refused before it is parsed', async () => {
    const text = JSON.stringify(doc({ '/a': { get: { operationId: 'a', summary: `é${'😀'.repeat(300)}`, ...ok } } }));
    const bytes = Buffer.byteLength(text);
    expect(text.length).toBeLessThan(bytes - 500);
    expect((await fromOpenApi(text, { maxBytes: bytes })).manifest.tools).toHaveLength(1);
    const error = await fromOpenApi(text, { maxBytes: bytes - 1 }).catch((caught: unknown) => caught);
    expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
    expect((error as Error).message).toBe(`The OpenAPI document is larger than ${bytes - 1} bytes (option "maxBytes")`);
    for (const maxBytes of [0, 1.5, -1]) {
      expect(isRcpError(await fromOpenApi(text, { maxBytes }).catch((caught: unknown) => caught), 'RCP_INVALID_OPTIONS')).toBe(true);
    }
  });
});

describe('a document that expands to too much is refused before the validator and the dereferencer run', () => {
  /** Twenty schemas, each an `allOf` naming the next one twice: 3 KB that expands to 14 million values. */
  const doubling = (levels: number): Json => {
    const schemas: Json = {};
    for (let i = 0; i < levels; i++) {
      const next = { $ref: `#/components/schemas/Level${i + 1}` };
      schemas[`Level${i}`] = i === levels - 1 ? { type: 'object', properties: { name: { type: 'string' } } } : { allOf: [next, next] };
    }
    const body = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Level0' } } } };
    return doc({ '/things': { post: { operationId: 'create', requestBody: body, ...ok } } }, { components: { schemas } });
  };

  // The old importer spent about a minute in the third-party validator and dereferencer on this
  // document (the time doubles with each level); the limit refuses it before either runs.
  it('twenty schemas that each name the next twice (3 KB of text): RCP_INVALID_OPTIONS saying where, in well under the timeout', {
    timeout: 15_000,
  }, async () => {
    const text = JSON.stringify(doubling(20));
    expect(text.length).toBeLessThan(3_000);
    const error = await fromOpenApi(text).catch((caught: unknown) => caught);
    expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
    expect((error as Error).message).toBe(
      `The OpenAPI document expands to more than ${5_000_000} values once its $refs are resolved ` +
        '(option "maxExpandedValues"), at /components/schemas/Level0',
    );
  });

  it('an object input that shares one object forty levels over (no $ref, no text): refused the same way, and the depth check is not fooled into walking it', {
    timeout: 15_000,
  }, async () => {
    let shared: Json = { type: 'object', properties: { name: { type: 'string' } } };
    for (let i = 0; i < 40; i++) shared = { allOf: [shared, shared] };
    const body = { content: { 'application/json': { schema: shared } } };
    const error = await fromOpenApi(doc({ '/things': { post: { operationId: 'create', requestBody: body, ...ok } } })).catch((caught: unknown) => caught);
    expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
    expect((error as Error).message).toMatch(
      /^The OpenAPI document expands to more than 5000000 values once its \$refs are resolved \(option "maxExpandedValues"\), at \/paths\/~1things\/post\/requestBody\/content\/application~1json\/schema\/allOf\/0\//,
    );
  });

  it('a document within the limit imports as before; "maxExpandedValues" moves the limit and must be a positive integer', async () => {
    const ten = doubling(10);
    const imported = await fromOpenApi(ten);
    expect(imported.manifest.tools.map((tool) => tool.name)).toEqual(['create']);
    expect(imported.manifest.tools[0]!.params?.map((param) => param.name)).toEqual(['name']);
    const refused = await fromOpenApi(ten, { maxExpandedValues: 1_000 }).catch((caught: unknown) => caught);
    expect(isRcpError(refused, 'RCP_INVALID_OPTIONS')).toBe(true);
    expect((refused as Error).message).toMatch(/^The OpenAPI document expands to more than 1000 values once its \$refs are resolved/);
    expect((await fromOpenApi(ten, { maxExpandedValues: 100_000 })).manifest).toEqual(imported.manifest);
    for (const maxExpandedValues of [0, 1.5, -1, Number.POSITIVE_INFINITY]) {
      const invalid = await fromOpenApi(ten, { maxExpandedValues }).catch((caught: unknown) => caught);
      expect((invalid as Error).message).toBe('Option "maxExpandedValues" must be a positive integer');
    }
  });
});

describe('one operation RCP cannot carry is one skip with its reason, never a failed import', () => {
  it('an apiKey in Cookie or Host, "#" in a path, alongside an operation that imports', async () => {
    const { manifest, report } = await fromOpenApi(
      doc(
        {
          '/cookie': { get: { operationId: 'cookie', security: [{ cookieKey: [] }], ...ok } },
          '/host': { get: { operationId: 'host', security: [{ hostKey: [] }], ...ok } },
          '/a#b': { get: { operationId: 'fragment', ...ok } },
          '/fine': { get: { operationId: 'fine', ...ok } },
        },
        {
          components: {
            securitySchemes: { cookieKey: { type: 'apiKey', in: 'header', name: 'Cookie' }, hostKey: { type: 'apiKey', in: 'header', name: 'Host' } },
          },
        },
      ),
    );
    const why = reasons(report.operations);
    expect(why['cookie']).toBe('RCP refuses the tool (/auth/name: "Cookie" cannot carry a credential (the HTTP client controls that header))');
    expect(why['host']).toBe('RCP refuses the tool (/auth/name: "Host" cannot carry a credential (the HTTP client controls that header))');
    expect(why['fragment']).toMatch(/^RCP refuses the tool \(\/url: .*a fragment \("#"\) is not allowed/);
    expect(why['fine']).toBe('imported');
    expect(manifest.tools.map((tool) => tool.name)).toEqual(['fine']);
  });

  it('document-level security RCP refuses skips the operations that use it; "security: []" ones still import', async () => {
    const { manifest, report } = await fromOpenApi(
      doc(
        { '/a': { get: { operationId: 'secured', ...ok } }, '/open': { get: { operationId: 'open', security: [], ...ok } } },
        { components: { securitySchemes: { s: { type: 'apiKey', in: 'header', name: 'cookie' } } }, security: [{ s: [] }] },
      ),
    );
    expect(manifest.auth).toBeUndefined();
    expect(manifest.tools.map((tool) => [tool.name, tool.auth])).toEqual([['open', undefined]]);
    expect(reasons(report.operations)['secured']).toMatch(/^RCP refuses the tool \(\/auth\/name: "cookie" cannot carry a credential/);
  });

  it('a name that collides with a hashed rename is skipped, not a duplicate tool', async () => {
    const first = await fromOpenApi(doc({ '/c': { post: { operationId: 'x', ...ok } }, '/b': { get: { operationId: 'x', ...ok } } }));
    const renamed = first.manifest.tools[1]!.name;
    expect(renamed).toMatch(/^x_[0-9a-z]{6}$/);
    const { manifest, report } = await fromOpenApi(
      doc({ '/z': { get: { operationId: renamed, ...ok } }, '/c': { post: { operationId: 'x', ...ok } }, '/b': { get: { operationId: 'x', ...ok } } }),
    );
    expect(manifest.tools.map((tool) => tool.name)).toEqual([renamed, 'x']);
    expect(report.operations[2]).toMatchObject({
      path: '/b',
      status: 'skipped',
      reason: `the tool name "${renamed}" is taken by another operation, also after renaming`,
    });
  });
});

describe('params named __proto__ are carried end to end', () => {
  it('query, header and body keys named __proto__ reach the server (rcp-client sends them)', async () => {
    // JSON text, so that "__proto__" is an own key (in an object literal it would set the prototype).
    const document = JSON.parse(`{
      "openapi": "3.0.3", "info": { "title": "T", "version": "1" },
      "paths": { "/echo": { "post": {
        "operationId": "echo",
        "parameters": [
          { "name": "__proto__", "in": "query", "required": true, "schema": { "type": "string" } },
          { "name": "__proto__", "in": "header", "required": true, "schema": { "type": "string" } }
        ],
        "requestBody": { "required": true, "content": { "application/json": { "schema": {
          "type": "object", "required": ["__proto__"], "properties": { "__proto__": { "type": "string" } } } } } },
        "responses": { "200": { "description": "ok" } } } } }
    }`) as Json;
    const { manifest, outcome, requests } = await callThroughClient(document, 'echo', {
      __proto___: 'in-query',
      __proto____2: 'in-header',
      body___proto__: 'in-body',
    });
    expect(manifest.tools[0]!.params!.map((param) => [param.name, param.required])).toEqual([
      ['__proto___', true],
      ['__proto____2', true],
      ['body___proto__', true],
    ]);
    expect(outcome.ok).toBe(true);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request!.query).toEqual([['__proto__', 'in-query']]);
    const raw = request!.rawHeaders;
    expect(raw[raw.indexOf('__proto__') + 1]).toBe('in-header');
    expect(request!.body).toBe('{"__proto__":"in-body"}');
  });
});

describe('nullable unions keep their type', () => {
  // The shape of the OpenAI API description's `metadata` (and of its nullable query params).
  const openAiLike = doc(
    {
      '/echo': {
        post: {
          operationId: 'createThing',
          parameters: [{ name: 'limit', in: 'query', schema: { anyOf: [{ type: 'integer', maximum: 100 }, { type: 'null' }] } }],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['model'],
                  properties: {
                    model: { type: 'string' },
                    metadata: { anyOf: [{ $ref: '#/components/schemas/Metadata' }, { type: 'null' }] },
                    user: { type: 'object', properties: { name: { oneOf: [{ type: 'string' }, { type: 'null' }] } } },
                    tags: { type: ['array', 'null'], items: { type: 'string' } },
                  },
                },
              },
            },
          },
          ...ok,
        },
      },
    },
    { openapi: '3.1.0', components: { schemas: { Metadata: { type: 'object', additionalProperties: { type: 'string' }, description: 'Up to 16 pairs.' } } } },
  );

  it('anyOf [X, null] is X, and the report says the param is nullable', async () => {
    const { manifest, report } = await fromOpenApi(openAiLike);
    expect(manifest.tools[0]!.params).toEqual([
      { name: 'limit', type: 'integer', maximum: 100 },
      { name: 'model', type: 'string', required: true },
      { name: 'metadata', type: 'object' },
      { name: 'user', type: 'object', properties: { name: { type: 'string' } } },
      { name: 'tags', type: 'array', items: { type: 'string' } },
    ]);
    expect(report.lossy.map((step) => step.message)).toEqual([
      '"limit" is nullable: null is never sent (the value is left out instead)',
      '"metadata" is nullable: null is never sent (the value is left out instead)',
      'property "name" of "user" is nullable: null is never sent (the value is left out instead)',
      '"tags" is nullable: null is never sent (the value is left out instead)',
    ]);
  });

  it('a union of several types is its first typed branch, and the report says so', async () => {
    const { manifest, report } = await fromOpenApi(
      doc({
        '/a': {
          get: {
            operationId: 'a',
            parameters: [{ name: 'id', in: 'query', schema: { oneOf: [{ description: 'untyped' }, { type: 'integer' }, { type: 'string' }] } }],
            ...ok,
          },
        },
      }),
    );
    expect(manifest.tools[0]!.params).toEqual([{ name: 'id', type: 'integer' }]);
    expect(report.lossy.map((step) => step.message)).toEqual(['"id" is a oneOf of 3 schemas: narrowed to branch 2 (integer)']);
  });

  it('what rcp-client sends for them passes an independent OpenAPI request validator', async () => {
    const args = { limit: 5, model: 'm-1', metadata: { team: 'a' }, user: { name: 'ada' }, tags: ['x'] };
    const { outcome, requests } = await callThroughClient(openAiLike, 'createThing', args);
    expect(outcome.ok).toBe(true);
    const [request] = requests;
    expect(request!.json).toEqual({ model: 'm-1', metadata: { team: 'a' }, user: { name: 'ada' }, tags: ['x'] });
    const document = (await dereference(structuredClone(openAiLike) as never, { resolve: { external: false, file: false } })) as unknown as Json;
    const operation = ((document['paths'] as Json)['/echo'] as Json)['post'] as Json;
    const spec = { parameters: operation['parameters'] as never, requestBody: operation['requestBody'] as never };
    // The query value as a number (the coercer does not read anyOf).
    const sent = {
      headers: { 'content-type': 'application/json' },
      body: request!.json,
      query: { limit: Number(Object.fromEntries(request!.query)['limit']) },
      params: {},
    };
    expect(new OpenAPIRequestValidator(spec).validateRequest(sent)).toBeUndefined();
    // The validator is live: the string the old importer let the model send for metadata is refused.
    const old = { headers: { 'content-type': 'application/json' }, body: { model: 'm-1', metadata: 'x1' }, query: {}, params: {} };
    expect(new OpenAPIRequestValidator(spec).validateRequest(old)).toBeDefined();
  });
});

describe('oneOf bodies become one branch, never an empty body', () => {
  const union = (keyword: 'oneOf' | 'anyOf', branches: unknown[]): Json =>
    doc({
      '/echo': { post: { operationId: 'send', requestBody: { required: true, content: { 'application/json': { schema: { [keyword]: branches } } } }, ...ok } },
    });

  it("the first object branch's fields, its required ones required; the report names the branch", async () => {
    const document = union('oneOf', [
      { type: 'object', required: ['email'], properties: { email: { type: 'string' }, note: { type: 'string' } } },
      { type: 'object', required: ['phone'], properties: { phone: { type: 'string' } } },
    ]);
    const { manifest, report } = await fromOpenApi(document);
    expect(manifest.tools[0]).toMatchObject({
      body: { email: '{{email}}', note: '{{note}}' },
      params: [
        { name: 'email', type: 'string', required: true },
        { name: 'note', type: 'string' },
      ],
    });
    expect(report.lossy).toEqual([
      { tool: 'send', message: 'the body is a oneOf of 2 schemas: branch 1 was imported (its required fields required); the other branches were left out' },
    ]);
  });

  it("a call without the branch's required field is refused before anything is sent", async () => {
    const document = union('anyOf', [
      { type: 'null' },
      { type: 'object', required: ['phone'], properties: { phone: { type: 'string' } } },
      { type: 'object', required: ['email'], properties: { email: { type: 'string' } } },
    ]);
    const { outcome, requests, report } = await callThroughClient(document, 'send', {});
    expect(outcome.ok).toBe(false);
    expect(isRcpError(outcome.ok ? undefined : outcome.error, 'RCP_INVALID_ARGUMENTS')).toBe(true);
    expect(requests).toEqual([]);
    expect(report.lossy.map((step) => step.message)).toEqual([
      'the body is nullable: a null body is never sent',
      'the body is an anyOf of 2 schemas: branch 1 was imported (its required fields required); the other branches were left out',
    ]);
  });

  it('shared properties stay; a nullable body is its one branch; a union with no branch RCP can express is a skip', async () => {
    const shared = doc({
      '/echo': {
        post: {
          operationId: 'shared',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['kind'],
                  properties: { kind: { type: 'string' } },
                  oneOf: [{ required: ['a'], properties: { a: { type: 'integer' } } }, { properties: { b: { type: 'integer' } } }],
                },
              },
            },
          },
          ...ok,
        },
      },
    });
    const [tool] = (await fromOpenApi(shared)).manifest.tools;
    expect(tool!.params).toEqual([
      { name: 'kind', type: 'string', required: true },
      { name: 'a', type: 'integer', required: true },
    ]);
    const nullable = await fromOpenApi(union('anyOf', [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'null' }]));
    expect(nullable.manifest.tools[0]!.body).toEqual({ a: '{{a}}' });
    const nothing = await fromOpenApi(union('oneOf', [{ description: 'anything' }, { not: {} }]));
    expect(nothing.manifest.tools).toEqual([]);
    expect(nothing.report.operations[0]!.reason).toBe('a oneOf body with no branch RCP can express');
  });
});
