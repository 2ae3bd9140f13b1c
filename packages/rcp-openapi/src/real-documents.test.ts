import { readFileSync, readdirSync } from 'node:fs';
import OpenAPIRequestCoercer from 'openapi-request-coercer';
import OpenAPIRequestValidator from 'openapi-request-validator';
import { dereference } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { serveManifest, startTestServer, type TestServer } from 'rcp-test-utils';
import { fromOpenApi, formatSummary } from './index';
import { argsFor } from './test-tools';

/**
 * Real public documents (the OpenAPI project's own examples, Apache-2.0, test-data/README.md):
 * every imported tool's request, as prepare() builds it from sample arguments, is checked against
 * its operation by openapi-request-validator (with openapi-request-coercer for the string forms
 * of query, path and header values) — code that is not ours.
 */
const dataDir = new URL('../test-data/', import.meta.url);
const documents = readdirSync(dataDir)
  .filter((file) => /\.(ya?ml|json)$/.test(file))
  .sort();

type Json = Record<string, unknown>;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/**
 * A query value is text; the coercer types it by the param's `type`, but leaves a param whose
 * schema is an `anyOf` / `oneOf` (Stripe's `created`: an object of bounds or an integer) as a
 * string, which no integer branch accepts. Typed here as OpenAPI reads such a value: a numeric
 * string is a number when a branch is an integer or a number.
 */
function coerceUnionScalars(parameters: readonly Json[], query: Json): void {
  for (const parameter of parameters) {
    const schema = parameter['schema'] as Json | undefined;
    const branches = (schema?.['anyOf'] ?? schema?.['oneOf']) as Json[] | undefined;
    const value = query[String(parameter['name'])];
    if (parameter['in'] !== 'query' || branches === undefined || typeof value !== 'string') continue;
    if (/^-?\d+(\.\d+)?$/.test(value) && branches.some((branch) => branch['type'] === 'integer' || branch['type'] === 'number')) {
      query[String(parameter['name'])] = Number(value);
    }
  }
}

/** The operation's path params read from a request path, by the path template (the validator checks their values). */
function pathParamsOf(template: string, base: string, path: string): Json | undefined {
  const names: string[] = [];
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_match, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const match = new RegExp(`^${base.replace(/[.*+?^$()|[\]\\]/g, '\\$&')}${pattern}$`).exec(path);
  if (match === null) return undefined;
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)]));
}

/** The path of the first server's URL, its variables at their defaults (what the document says the base is). */
function serverPath(server: Json | undefined): string {
  if (server === undefined) return '';
  let url = String(server['url']);
  for (const [name, variable] of Object.entries((server['variables'] as Json | undefined) ?? {})) {
    url = url.replaceAll(`{${name}}`, String((variable as Json)['default']));
  }
  return new URL(url, 'http://relative.invalid').pathname.replace(/\/$/, '');
}

/**
 * Each document is parsed, dereferenced, imported, and every operation prepared and validated: a
 * second of work alone, far more on a loaded 2-core CI (one run timed out at the 5 s default).
 * Nothing here asserts a duration.
 */
const WHOLE_DOCUMENT = 120_000;

describe.each(documents)('%s', (file) => {
  it('imports every operation it can, and each request prepare() builds passes an independent OpenAPI request validator', {
    timeout: WHOLE_DOCUMENT,
  }, async () => {
    const text = readFileSync(new URL(file, dataDir), 'utf8');
    const { manifest, report } = await fromOpenApi(text);
    console.log(`${file}: ${formatSummary(report)}`);
    expect(report.summary.operations).toBe(report.operations.length);
    // None of these documents has a binary answer or a cursor the naming rule knows: no RCP 0.3 field, no 0.3 version.
    expect(manifest.rcpVersion).not.toBe('0.3');
    expect(manifest.tools.filter((tool) => tool.responseMediaTypes !== undefined || tool.pagination !== undefined)).toEqual([]);

    const document = (await dereference(
      structuredClone(JSON.parse(JSON.stringify(file.endsWith('.json') ? JSON.parse(text) : (await import('yaml')).parse(text)))),
      { resolve: { external: false, file: false }, dereference: { circular: 'ignore' } },
    )) as unknown as Json;
    const swagger = document['swagger'] === '2.0';
    const origins = [...new Set(manifest.tools.map((tool) => (tool.url.startsWith('/') ? server.origin : new URL(tool.url).origin)))];
    const client = createRcpClient({ credentials: () => 'token-123', trustedOrigins: origins });
    const discovery = await client.discover(serveManifest(server, manifest));

    for (const operation of report.operations.filter((entry) => entry.status === 'imported')) {
      const tool = discovery.tool(operation.tool!);
      const prepared = await client.prepare(tool, argsFor(tool));
      const op = ((document['paths'] as Json)[operation.path] as Json)[operation.method.toLowerCase()] as Json;
      const pathItem = (document['paths'] as Json)[operation.path] as Json;
      expect(prepared.method, operation.tool).toBe(operation.method);

      const url = new URL(prepared.url);
      const basePath = swagger ? String(document['basePath'] ?? '') : serverPath((document['servers'] as Json[] | undefined)?.[0]);
      const params = pathParamsOf(operation.path, basePath, url.pathname);
      expect(params, `${operation.tool}: ${url.pathname} is not ${basePath}${operation.path}`).toBeDefined();

      // The query as a server framework reads it (Express's qs): `scope[type]=account` is `{ scope: { type } }`
      // (OpenAPI's deepObject, RCP 0.4's queryStyle), a repeated key an array.
      const query: Json = {};
      for (const [key, value] of url.searchParams) {
        const match = /^([^[\]]+)((?:\[[^[\]]*\])+)$/.exec(key);
        const parts = match === null ? [key] : [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((part) => part[1]!)];
        let node = query;
        for (const part of parts.slice(0, -1)) {
          if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
          node = node[part] as Json;
        }
        const last = parts[parts.length - 1]!;
        const existing = node[last];
        node[last] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
      }
      const headers = Object.fromEntries(Object.entries(prepared.headers).map(([key, value]) => [key.toLowerCase(), value]));
      const parameters = [...((pathItem['parameters'] as Json[] | undefined) ?? []), ...((op['parameters'] as Json[] | undefined) ?? [])];
      const requestBody = op['requestBody'] as never;
      const contentType = headers['content-type'] ?? '';
      let body: unknown = prepared.body;
      if (typeof prepared.body === 'string') body = Object.fromEntries(new URLSearchParams(prepared.body));
      const request = { method: prepared.method, path: url.pathname, headers, params, query, body };
      new OpenAPIRequestCoercer({ parameters: parameters as never, ...(requestBody !== undefined && { requestBody }) }).coerce(request);
      coerceUnionScalars(parameters, query);
      const errors = new OpenAPIRequestValidator({ parameters: parameters as never, ...(requestBody !== undefined && { requestBody }) }).validateRequest(
        request,
      );
      expect(errors, `${operation.tool} (${contentType}): ${JSON.stringify(errors)}`).toBeUndefined();
      if (requestBody !== undefined && prepared.body !== undefined) {
        const types = Object.keys(((requestBody as Json)['content'] as Json) ?? {});
        expect(
          types.some((type) => contentType.startsWith(type.split(';')[0]!)),
          `${operation.tool}: ${contentType}`,
        ).toBe(true);
      }
    }
  });
});

describe('the independent validator is live', () => {
  it('refuses a request the operation does not accept (a missing required body field, a wrong query type)', { timeout: WHOLE_DOCUMENT }, async () => {
    const { parse } = await import('yaml');
    const document = (await dereference(parse(readFileSync(new URL('v3.0-petstore.yaml', dataDir), 'utf8')), {
      resolve: { external: false, file: false },
    })) as unknown as Json;
    const paths = document['paths'] as Json;
    const create = (paths['/pets'] as Json)['post'] as Json;
    const list = (paths['/pets'] as Json)['get'] as Json;
    const bodyErrors = new OpenAPIRequestValidator({ parameters: [], requestBody: create['requestBody'] as never }).validateRequest({
      headers: { 'content-type': 'application/json' },
      body: { id: 1 },
      params: {},
      query: {},
    });
    expect(bodyErrors).toBeDefined();
    const request = { headers: {}, params: {}, query: { limit: 'many' } };
    new OpenAPIRequestCoercer({ parameters: list['parameters'] as never }).coerce(request);
    expect(new OpenAPIRequestValidator({ parameters: list['parameters'] as never }).validateRequest(request)).toBeDefined();
  });
});
