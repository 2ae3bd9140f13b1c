import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRequest } from 'rcp-template';
import { compileResponseMappings } from '../compile-response-mappings';
import { parseManifest } from '../parse-manifest';
import { isPathCached } from './json-path';
import { validateManifest } from './validate-manifest';

type Json = Record<string, unknown>;

/** Both paths of the validator on the same manifest: issues and warnings must be identical. */
function bothPaths(manifest: Json, fromText = false): void {
  const fast = validateManifest(manifest, { fromText });
  const slow = validateManifest(manifest, { fastPath: false });
  expect(fast.issues).toEqual(slow.issues);
  expect(fast.warnings).toEqual(slow.warnings);
  expect(slow.tools.every((tool) => tool === undefined)).toBe(true);
}

const piece = fc.constantFrom(
  '{{a}}', '{{b}}', '{{c}}', '{{ a}}', '{{', '}}', '/', '?', '&', '=', '%2e', '.', 'x', 'é', ' ', '#', '{{1}}', '@',
);
const text = fc.array(piece, { maxLength: 5 }).map((pieces) => pieces.join(''));
const header = fc.constantFrom('X-A', 'x-a', 'Host', 'Authorization', 'X-Api-Key', 'Content-Type', 'bad name', '{{a}}');
const param = fc.record(
  {
    name: fc.constantFrom('a', 'b', 'c', 'd', '1x', '__proto__'),
    type: fc.constantFrom('string', 'number', 'integer', 'boolean', 'array', 'object', 'text'),
    description: fc.string({ maxLength: 4 }),
    required: fc.boolean(),
    extra: fc.constant(1),
  },
  { requiredKeys: ['name'] },
);
const auth = fc.oneof(
  fc.constant({ type: 'none' }),
  fc.record({ type: fc.constant('header'), name: header, scheme: fc.constantFrom('Bearer', 'bad scheme') }, { requiredKeys: ['type', 'name'] }),
  fc.constant({ type: 'header', name: 'X-Api-Key', unknown: true }),
  fc.constant({ type: 'basic' }),
);
const body = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.constant(null), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('k', 'l', '__proto__'), tie('value'), { maxKeys: 2 })),
})).value;
const tool = fc.record(
  {
    name: fc.constantFrom('t', 'u', 'v', 'bad name'),
    description: fc.constantFrom('Does things.', ' ', ''),
    method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'get'),
    url: fc.oneof(text.map((t) => `/v1/${t}`), text.map((t) => `https://api.example.com/${t}`), text),
    params: fc.array(param, { maxLength: 4 }),
    queryParams: fc.dictionary(fc.constantFrom('q', 'limit', ''), text, { maxKeys: 2 }),
    headers: fc.dictionary(header, text, { maxKeys: 2 }),
    body,
    auth,
    responseMappings: fc.dictionary(fc.constantFrom('x', 'y', '', '__proto__'), fc.constantFrom('@', '@data.x', '@a[*]', '@[?@.a]', '@data..', 'data', '@$'), { maxKeys: 2 }),
    comment: fc.string({ maxLength: 3 }),
  },
  { requiredKeys: ['name', 'description', 'method', 'url'] },
);

/** Tools that are valid most of the time (so the fast path is taken), with warnings. */
const goodPiece = fc.constantFrom('{{a}}', '{{b}}', 'x', 'items', '%2E', 'é', '-', '{{c}}');
const goodText = fc.array(goodPiece, { minLength: 1, maxLength: 3 }).map((pieces) => pieces.join(''));
const mostlyValidTool = fc
  .record(
    {
      name: fc.constantFrom('t', 'u', 'v'),
      description: fc.constant('Does things.'),
      method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
      path: fc.array(goodText, { minLength: 1, maxLength: 3 }),
      query: fc.option(goodText, { nil: undefined }),
      absolute: fc.boolean(),
      declared: fc.subarray(['a', 'b', 'c', 'd'], { minLength: 3 }),
      types: fc.array(fc.constantFrom('string', 'number', 'integer', 'boolean', 'array', 'object', undefined), { minLength: 4, maxLength: 4 }),
      queryParams: fc.dictionary(fc.constantFrom('q', 'limit', 'a b'), goodText, { maxKeys: 2 }),
      headers: fc.dictionary(fc.constantFrom('X-A', 'X-Customer', 'Accept'), goodText, { maxKeys: 2 }),
      body: fc.option(fc.dictionary(fc.constantFrom('k', 'l'), fc.oneof(goodText, fc.array(goodText, { maxLength: 2 }), fc.integer())), { nil: undefined }),
      auth: fc.option(fc.constantFrom({ type: 'none' }, { type: 'header', name: 'X-Api-Key' }, { type: 'header', name: 'X-A' }), { nil: undefined }),
      mappings: fc.option(fc.dictionary(fc.constantFrom('x', 'y'), fc.constantFrom('@', '@data.x', '@a[*]', '@[?@.a]', '@a[0].b')), { nil: undefined }),
      extra: fc.boolean(),
    },
  )
  .map((spec) => {
    const out: Json = {
      name: spec.name,
      description: spec.description,
      method: spec.method,
      url: `${spec.absolute ? 'https://api.example.com' : ''}/${spec.path.join('/')}${spec.query === undefined ? '' : `?m=${spec.query}`}`,
      params: spec.declared.map((name, index) => (spec.types[index] === undefined ? { name } : { name, type: spec.types[index] })),
    };
    if (spec.queryParams !== undefined && Object.keys(spec.queryParams).length > 0) out['queryParams'] = spec.queryParams;
    if (spec.headers !== undefined && Object.keys(spec.headers).length > 0) out['headers'] = spec.headers;
    if (spec.body !== undefined && spec.method !== 'GET') out['body'] = spec.body;
    if (spec.auth !== undefined) out['auth'] = spec.auth;
    if (spec.mappings !== undefined) out['responseMappings'] = spec.mappings;
    if (spec.extra === true) out['x-note'] = 'ignored';
    return out;
  });

describe('validateManifest: the fast path and the rule-by-rule path agree', () => {
  it('on mostly valid generated tools (the fast path is taken)', () => {
    let fast = 0;
    fc.assert(
      fc.property(fc.array(mostlyValidTool, { minLength: 1, maxLength: 4 }), (tools) => {
        const manifest: Json = { rcpVersion: '0.1', auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' }, tools };
        bothPaths(manifest);
        fast += validateManifest(manifest).tools.filter((copy) => copy !== undefined).length;
      }),
      { numRuns: 500 },
    );
    expect(fast).toBeGreaterThan(500);
  });

  it('on generated tools, valid and invalid, with warnings', () => {
    fc.assert(
      fc.property(fc.array(tool, { maxLength: 4 }), fc.option(auth, { nil: undefined }), (tools, serverAuth) => {
        const manifest: Json = { rcpVersion: '0.1', tools };
        if (serverAuth !== undefined) manifest['auth'] = serverAuth;
        bothPaths(manifest);
        bothPaths(JSON.parse(JSON.stringify(manifest)) as Json, true);
      }),
      { numRuns: 500 },
    );
  });

  it('on values that are not JSON (objects passed in directly)', () => {
    for (const value of [undefined, Number.NaN, () => 1, new Date(0), [1, , 3]]) {
      bothPaths({
        rcpVersion: '0.1',
        tools: [{ name: 't', description: 'd', method: 'POST', url: '/x', body: { a: value, b: '{{a}}' }, params: [{ name: 'a' }] }],
      });
    }
  });

  it('takes the fast path for valid tools and returns their frozen copies', () => {
    const result = validateManifest({
      rcpVersion: '0.1',
      tools: [
        { name: 't', description: 'd', method: 'GET', url: '/x/{{a}}', params: [{ name: 'a' }, { name: 'unused' }], extra: 1 },
        { name: 'bad', description: 'd', method: 'GET', url: '/x/{{missing}}' },
      ],
    });
    expect(result.tools[0]).toBeDefined();
    expect(Object.isFrozen(result.tools[0])).toBe(true);
    expect(result.tools[1]).toBeUndefined();
    expect(result.warnings.map((warning) => warning.path)).toEqual(['/tools/0/extra', '/tools/0/params/1']);
    expect(result.issues.map((issue) => issue.path)).toEqual(['/tools/1/url']);
  });
});

describe('parseManifest: work done while validating is reused', () => {
  it('a tool is itself a request template that compiles like its fields', () => {
    const manifest = parseManifest(
      JSON.stringify({
        rcpVersion: '0.1',
        tools: [
          {
            name: 't',
            description: 'd',
            method: 'POST',
            url: '/v1/{{id}}?mode=x',
            params: [{ name: 'id' }, { name: 'q' }, { name: 'h' }, { name: 'n' }],
            queryParams: { q: '{{q}}' },
            headers: { 'X-H': '{{h}}' },
            body: { n: '{{n}}', fixed: [1, 'two'] },
          },
        ],
      }),
    );
    const tool = manifest.tools[0]!;
    const fields = { method: tool.method, url: tool.url, queryParams: { ...tool.queryParams }, headers: { ...tool.headers }, body: tool.body };
    const values = { id: 'a b', q: 'x&y', h: 'v', n: 3 };
    for (const baseUrl of [undefined, 'https://api.example.com/rcp.json', 'http://127.0.0.1:8080/m']) {
      const options = baseUrl === undefined ? undefined : { baseUrl };
      const reused = compileRequest(tool as never, options);
      const fresh = compileRequest(fields, options);
      expect(reused.tokens).toEqual(fresh.tokens);
      expect(reused.pathTokens).toEqual(fresh.pathTokens);
      expect(reused.origin).toBe(fresh.origin);
      expect(reused.render(values)).toEqual(fresh.render(values));
    }
  });

  it('compileResponseMappings on a parsed tool uses the paths parsed during validation', () => {
    // More distinct paths than the shared path cache holds: the first ones are evicted.
    const tools = Array.from({ length: 1100 }, (_, index) => ({
      name: `t${index}`,
      description: 'd',
      method: 'GET',
      url: '/',
      responseMappings: { value: `@reuse.probe${index}`, list: `@reuse.list${index}[*]` },
    }));
    const manifest = parseManifest({ rcpVersion: '0.1', tools });
    const first = manifest.tools[0]!.responseMappings!;
    expect(isPathCached('@reuse.probe0')).toBe(false);
    const mappings = compileResponseMappings(first);
    expect(isPathCached('@reuse.probe0')).toBe(false); // not parsed again
    expect(mappings.fields).toEqual(['value', 'list']);
    expect(mappings.apply({ reuse: { probe0: 1, list0: [1, 2] } })).toEqual({ value: 1, list: [1, 2] });
    expect(compileResponseMappings(first)).toBe(mappings);
  });

  it('an equal but separate mappings object is compiled on its own', () => {
    const manifest = parseManifest({
      rcpVersion: '0.1',
      tools: [{ name: 't', description: 'd', method: 'GET', url: '/', responseMappings: { a: '@x' } }],
    });
    const copy = { ...manifest.tools[0]!.responseMappings };
    expect(compileResponseMappings(copy)).not.toBe(compileResponseMappings(manifest.tools[0]!.responseMappings!));
    expect(compileResponseMappings(copy).apply({ x: 1 })).toEqual({ a: 1 });
  });
});
