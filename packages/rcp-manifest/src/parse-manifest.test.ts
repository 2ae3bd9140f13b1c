import { cloneFixture, resolverSeedManifest, seedManifest } from 'rcp-test-utils';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MANIFEST_LIMITS,
  RcpManifestError,
  RcpManifestLimitError,
  RcpVersionError,
  isRcpError,
  parseManifest,
  safeParseManifest,
  type ManifestIssue,
  type ParseManifestOptions,
  type RcpError,
} from './index';

type Json = Record<string, unknown>;

function failure(input: unknown, options?: ParseManifestOptions): RcpError {
  const result = safeParseManifest(input, options);
  if (result.ok) throw new Error(`expected the manifest to be refused: ${JSON.stringify(input)?.slice(0, 200)}`);
  return result.error;
}

function issuesOf(input: unknown): readonly ManifestIssue[] {
  const error = failure(input);
  expect(error.code).toBe('RCP_INVALID_MANIFEST');
  expect(error).toBeInstanceOf(RcpManifestError);
  return (error as RcpManifestError).issues;
}

function pathsOf(input: unknown): string[] {
  return issuesOf(input).map((issue) => issue.path);
}

/** The message of the one issue at `path` (fails when there is none or several). */
function messageAt(input: unknown, path: string): string {
  const found = issuesOf(input).filter((issue) => issue.path === path);
  expect(found, `issues at ${path}`).toHaveLength(1);
  return (found[0] as ManifestIssue).message;
}

function warningsOf(input: unknown): readonly ManifestIssue[] {
  const result = safeParseManifest(input);
  if (!result.ok) throw result.error;
  return result.warnings;
}

const baseTool = {
  name: 'search',
  description: 'Search things.',
  method: 'GET',
  url: 'https://api.example.com/search',
};

/** A valid manifest whose first tool has `patch` applied (a key set to undefined is removed). */
function withTool(patch: Json, top: Json = {}): Json {
  const tool: Json = { ...baseTool, ...patch };
  for (const key of Object.keys(tool)) if (tool[key] === undefined) delete tool[key];
  return { rcpVersion: '0.1', tools: [tool], ...top };
}

describe('parseManifest: the seeds', () => {
  it('parses the manifest from the protocol seed, as a value and as text', () => {
    const manifest = parseManifest(seedManifest);
    expect(manifest).toEqual(seedManifest);
    expect(parseManifest(JSON.stringify(seedManifest))).toEqual(seedManifest);
    expect(safeParseManifest(seedManifest)).toMatchObject({ ok: true, warnings: [] });
  });

  it("parses the resolvers seed's manifest (header auth, relative url)", () => {
    expect(parseManifest(resolverSeedManifest)).toEqual(resolverSeedManifest);
  });

  it('accepts UTF-8 bytes, with or without a byte order mark', () => {
    const text = JSON.stringify(seedManifest);
    expect(parseManifest(new TextEncoder().encode(text))).toEqual(seedManifest);
    expect(parseManifest(new TextEncoder().encode(`\uFEFF${text}`))).toEqual(seedManifest);
    expect(parseManifest(`\uFEFF${text}`)).toEqual(seedManifest);
  });
});

describe('parseManifest: the returned manifest', () => {
  it('is a deep-frozen copy', () => {
    const input = cloneFixture(seedManifest) as unknown as Json;
    const manifest = parseManifest(input);
    expect(manifest).not.toBe(input);
    expect(Object.isFrozen(manifest)).toBe(true);
    expect(Object.isFrozen(manifest.tools)).toBe(true);
    expect(Object.isFrozen(manifest.tools[0])).toBe(true);
    expect(Object.isFrozen(manifest.tools[0]?.params?.[0])).toBe(true);
    expect(Object.isFrozen(manifest.tools[0]?.responseMappings)).toBe(true);
    expect(Object.isFrozen(manifest.auth)).toBe(true);
    (input['tools'] as Json[])[0]!['name'] = 'changed';
    expect(manifest.tools[0]?.name).toBe('get_learner_profile');
  });

  it('drops unknown fields and defaults nothing', () => {
    const manifest = parseManifest({
      rcpVersion: '0.1',
      extra: true,
      tools: [{ ...baseTool, 'x-vendor': 1, params: [], auth: { type: 'none', note: 'x' } }],
    });
    expect(manifest).toEqual({ rcpVersion: '0.1', tools: [{ ...baseTool, params: [], auth: { type: 'none' } }] });
    expect('auth' in manifest).toBe(false);
  });

  it('copies the body deeply, frozen, keeping a "__proto__" key as an own key', () => {
    const text = JSON.stringify(withTool({ method: 'POST', body: { a: [{ b: '{{x}}' }] }, params: [{ name: 'x' }] })).replace(
      '"a":',
      '"__proto__":{"p":1},"a":',
    );
    const body = parseManifest(text).tools[0]?.body as Json;
    expect(Object.keys(body)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(Object.isFrozen((body['a'] as Json[])[0])).toBe(true);
  });
});

describe('parseManifest: input that is not a manifest object', () => {
  it.each([
    ['text that is not JSON', '{"rcpVersion": "0.1", tools: []}'],
    ['an array', []],
    ['null', null],
    ['a number', 42],
    ['a JSON string', '"hello"'],
    ['a JSON array text', '[1, 2]'],
  ])('%s → RCP_INVALID_MANIFEST at ""', (_, input) => {
    expect(pathsOf(input)).toEqual(['']);
  });

  it('bytes that are not UTF-8 → RCP_INVALID_MANIFEST at ""', () => {
    expect(pathsOf(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))).toEqual(['']);
  });
});

describe('parseManifest: the version gate runs first', () => {
  it.each([
    ['"0.9"', '0.9'],
    ['"0.1.0"', '0.1.0'],
    ['" 0.1"', ' 0.1'],
    ['the number 0.1', 0.1],
    ['null', null],
  ])('rcpVersion %s → RCP_UNSUPPORTED_VERSION', (_, version) => {
    const error = failure({ rcpVersion: version, tools: [] });
    expect(error.code).toBe('RCP_UNSUPPORTED_VERSION');
    expect(error).toBeInstanceOf(RcpVersionError);
    expect((error as RcpVersionError).received).toBe(version);
    expect((error as RcpVersionError).supported).toEqual(['0.1', '0.2', '0.3', '0.4']);
  });

  it('a missing rcpVersion → RCP_UNSUPPORTED_VERSION with received undefined', () => {
    const error = failure({ tools: [] });
    expect(isRcpError(error, 'RCP_UNSUPPORTED_VERSION')).toBe(true);
    expect((error as RcpVersionError).received).toBeUndefined();
    expect(error.message).toMatch(/no rcpVersion/);
  });

  it('an inherited rcpVersion does not count', () => {
    const input = Object.create({ rcpVersion: '0.1' }) as Json;
    input['tools'] = [];
    expect(failure(input).code).toBe('RCP_UNSUPPORTED_VERSION');
  });

  it('examines nothing else: an unsupported version with broken tools reports only the version', () => {
    const error = failure({ rcpVersion: '0.9', tools: [{ name: 'bad name', method: 'FETCH' }], auth: 7 });
    expect(error.code).toBe('RCP_UNSUPPORTED_VERSION');
  });

  it('the version of the seed text, changed to 0.9, is refused', () => {
    const text = JSON.stringify(seedManifest).replace('"0.1"', '"0.9"');
    expect(failure(text).code).toBe('RCP_UNSUPPORTED_VERSION');
  });
});

describe('parseManifest: all problems are reported at once', () => {
  it('a manifest with three different problems reports all three with their pointers', () => {
    const manifest = {
      rcpVersion: '0.1',
      tools: [
        { ...baseTool, method: 'FETCH' },
        { ...baseTool, name: 'other', url: '/items/{{id}}' },
        { ...baseTool, name: 'third', headers: { Host: 'evil.example' } },
      ],
    };
    expect(pathsOf(manifest)).toEqual(['/tools/0/method', '/tools/1/url', '/tools/2/headers/Host']);
    const error = failure(manifest);
    expect(error.message).toContain('3 problems');
    expect(error.message).toContain('/tools/0/method');
  });

  it('issues are frozen, in document order, and the message lists only the first five', () => {
    const tools = Array.from({ length: 12 }, (_, index) => ({ ...baseTool, name: `t${index}`, method: 'nope' }));
    const error = failure({ rcpVersion: '0.1', tools }) as RcpManifestError;
    expect(error.issues.map((issue) => issue.path)).toEqual(tools.map((_, index) => `/tools/${index}/method`));
    expect(Object.isFrozen(error.issues)).toBe(true);
    expect(error.message).toContain('(and 7 more)');
    expect(error.toJSON()).toMatchObject({ code: 'RCP_INVALID_MANIFEST', issues: error.issues });
  });
});

describe('rule: top-level structure', () => {
  it('tools is required and must be an array of objects', () => {
    expect(messageAt({ rcpVersion: '0.1' }, '/tools')).toBe('is required');
    expect(messageAt({ rcpVersion: '0.1', tools: {} }, '/tools')).toBe('must be an array');
    expect(messageAt({ rcpVersion: '0.1', tools: [5] }, '/tools/0')).toBe('must be an object');
  });

  it('an empty tool list is valid', () => {
    expect(parseManifest({ rcpVersion: '0.1', tools: [] }).tools).toEqual([]);
  });

  it('every required tool field is reported when missing', () => {
    expect(pathsOf({ rcpVersion: '0.1', tools: [{}] })).toEqual(['/tools/0/description', '/tools/0/method', '/tools/0/name', '/tools/0/url']);
  });
});

describe('rule: tool names', () => {
  it('a duplicate name is reported at the LATER occurrence', () => {
    const manifest = {
      rcpVersion: '0.1',
      tools: [baseTool, { ...baseTool, name: 'other' }, { ...baseTool }],
    };
    expect(pathsOf(manifest)).toEqual(['/tools/2/name']);
    expect(messageAt(manifest, '/tools/2/name')).toBe('duplicate tool name "search" (already used at /tools/0)');
  });

  it.each(['', 'has space', 'dot.name', 'ü', 'x'.repeat(65), 'a/b'])('name %j does not match ^[A-Za-z0-9_-]{1,64}$', (name) => {
    expect(pathsOf(withTool({ name }))).toEqual(['/tools/0/name']);
  });

  it('accepts 64 characters of A-Z a-z 0-9 _ -', () => {
    expect(() => parseManifest(withTool({ name: `Ab_-9${'x'.repeat(59)}` }))).not.toThrow();
  });

  it('a non-string name', () => {
    expect(messageAt(withTool({ name: 7 }), '/tools/0/name')).toBe('must be a string');
  });
});

describe('rule: description', () => {
  it.each(['', '   ', '\n\t'])('description %j is empty after trimming', (description) => {
    expect(messageAt(withTool({ description }), '/tools/0/description')).toBe('must not be empty or blank');
  });

  it('missing description', () => {
    expect(messageAt(withTool({ description: undefined }), '/tools/0/description')).toBe('is required');
  });
});

describe('rule: method', () => {
  it.each(['get', 'Post', 'HEAD', 'OPTIONS', 'CONNECT', ''])('method %j is refused', (method) => {
    expect(messageAt(withTool({ method }), '/tools/0/method')).toBe('must be one of "GET", "POST", "PUT", "PATCH", "DELETE"');
  });

  it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])('method %s is accepted', (method) => {
    expect(() => parseManifest(withTool({ method }))).not.toThrow();
  });
});

describe('rule: url', () => {
  it.each([
    ['a path without a leading slash', 'api/search'],
    ['a protocol-relative url', '//evil.example/x'],
    ['an ftp url', 'ftp://files.example.com/x'],
    ['a mailto url', 'mailto:someone@example.com'],
    ['a fragment', 'https://api.example.com/x#part'],
    ['a fragment in a relative url', '/x#part'],
    ['a token in the host', 'https://{{host}}/x'],
    ['a token in the port', 'https://api.example.com:{{port}}/x'],
    ['a token in the userinfo', 'https://{{user}}@api.example.com/x'],
    ['a token as the scheme', '{{scheme}}://api.example.com/x'],
    ['a whole-url token', '{{url}}'],
    ['userinfo', 'https://user:secret@api.example.com/x'],
    ['no host', 'https:///x'],
    ['a backslash', 'https://api.example.com\\@evil.example/x'],
    ['a space', '/a b'],
    ['a bad token', '/items/{{ id }}'],
    ['an unterminated token', '/items/{{id'],
    ['an empty string', ''],
  ])('%s is refused at /tools/0/url', (_, url) => {
    const params = [{ name: 'host' }, { name: 'port' }, { name: 'user' }, { name: 'scheme' }, { name: 'url' }, { name: 'id' }];
    expect(pathsOf(withTool({ url, params }))).toEqual(['/tools/0/url']);
  });

  it('a token before the path names the token and its offset', () => {
    const message = messageAt(withTool({ url: 'https://{{host}}/x', params: [{ name: 'host' }] }), '/tools/0/url');
    expect(message).toContain('offset 8');
    expect(message).toContain('host');
  });

  it.each([
    'https://api.example.com',
    'http://127.0.0.1:8080/x',
    'HTTPS://API.EXAMPLE.COM/x',
    'https://api.example.com?fixed=1',
    'https://api.example.com/a/{{id}}/b?x={{q}}&y=1',
    '/relative/{{id}}',
    '/',
  ])('accepts %s', (url) => {
    expect(() => parseManifest(withTool({ url, params: [{ name: 'id' }, { name: 'q' }] }))).not.toThrow();
  });

  it('a non-string url', () => {
    expect(messageAt(withTool({ url: ['https://x'] }), '/tools/0/url')).toBe('must be a string');
  });
});

describe('rule: every token is declared in params (error at the template)', () => {
  it('in the url path', () => {
    expect(messageAt(withTool({ url: '/users/{{userId}}' }), '/tools/0/url')).toBe('uses {{userId}}, which is not declared in params');
  });

  it("in the url's own query", () => {
    expect(pathsOf(withTool({ url: '/search?q={{query}}' }))).toEqual(['/tools/0/url']);
  });

  it('in a queryParams value', () => {
    expect(pathsOf(withTool({ queryParams: { q: '{{query}}', fixed: 'yes' } }))).toEqual(['/tools/0/queryParams/q']);
  });

  it('in a queryParams value whose key needs pointer escaping', () => {
    expect(pathsOf(withTool({ queryParams: { 'a/b~c': '{{x}}' } }))).toEqual(['/tools/0/queryParams/a~1b~0c']);
  });

  it('in a header value', () => {
    expect(pathsOf(withTool({ headers: { 'X-Tenant': 'tenant-{{tenant}}' } }))).toEqual(['/tools/0/headers/X-Tenant']);
  });

  it('in the body, at the exact string', () => {
    const manifest = withTool({
      method: 'POST',
      params: [{ name: 'a' }],
      body: { items: ['{{a}}', '{{b}}'], nested: { text: 'hi {{c}}' } },
    });
    expect(pathsOf(manifest)).toEqual(['/tools/0/body/items/1', '/tools/0/body/nested/text']);
  });

  it('in a body that is exactly one token', () => {
    expect(pathsOf(withTool({ method: 'POST', body: '{{payload}}' }))).toEqual(['/tools/0/body']);
  });

  it('reports each undeclared token', () => {
    expect(issuesOf(withTool({ url: '/{{a}}/{{b}}' })).map((issue) => issue.message)).toEqual([
      'uses {{a}}, which is not declared in params',
      'uses {{b}}, which is not declared in params',
    ]);
  });

  it('a token syntax error in a queryParams value, header value or body string', () => {
    expect(pathsOf(withTool({ queryParams: { q: '{{+q}}' } }))).toEqual(['/tools/0/queryParams/q']);
    expect(pathsOf(withTool({ headers: { 'X-A': '{{a' } }))).toEqual(['/tools/0/headers/X-A']);
    expect(pathsOf(withTool({ method: 'PUT', body: { a: ['ok', '{{x|y}}'] } }))).toEqual(['/tools/0/body/a/1']);
  });

  it('body keys are literal: a key that looks like a token is not a token', () => {
    expect(() => parseManifest(withTool({ method: 'POST', body: { '{{notAToken}}': 1 } }))).not.toThrow();
  });

  it('accepts tokens declared in params everywhere', () => {
    const manifest = withTool({
      method: 'POST',
      url: '/users/{{userId}}?v={{version}}',
      queryParams: { q: '{{query}}' },
      headers: { 'X-Tenant': '{{tenant}}' },
      body: { limit: '{{limit}}' },
      params: ['userId', 'version', 'query', 'tenant', 'limit'].map((name) => ({ name })),
    });
    expect(warningsOf(manifest)).toEqual([]);
  });
});

describe('rule: params', () => {
  it.each(['__proto__', 'constructor', 'prototype'])('param name %s is reserved', (name) => {
    const message = messageAt(withTool({ params: [{ name }] }), '/tools/0/params/0/name');
    expect(message).toContain('reserved');
  });

  it.each(['', '1abc', 'a-b', 'a b', '{{a}}', 'ü'])('param name %j breaks the token grammar', (name) => {
    expect(pathsOf(withTool({ params: [{ name }] }))).toEqual(['/tools/0/params/0/name']);
  });

  it('a duplicate param name is reported at the later declaration', () => {
    const manifest = withTool({ url: '/{{q}}', params: [{ name: 'q' }, { name: 'other' }, { name: 'q' }] });
    expect(messageAt(manifest, '/tools/0/params/2/name')).toBe('duplicate param name "q" (already declared at /tools/0/params/0)');
  });

  it.each([
    ['type', { name: 'q', type: 'str' }, '/tools/0/params/0/type'],
    ['type', { name: 'q', type: 'String' }, '/tools/0/params/0/type'],
    ['required', { name: 'q', required: 'yes' }, '/tools/0/params/0/required'],
    ['description', { name: 'q', description: 5 }, '/tools/0/params/0/description'],
    ['name', { type: 'string' }, '/tools/0/params/0/name'],
  ])('a bad %s', (_, param, path) => {
    expect(pathsOf(withTool({ url: '/{{q}}', params: [param] }))).toContain(path);
  });

  it('params must be an array of objects', () => {
    expect(pathsOf(withTool({ params: { name: 'q' } }))).toEqual(['/tools/0/params']);
    expect(pathsOf(withTool({ params: ['q'] }))).toEqual(['/tools/0/params/0']);
  });

  it.each(['string', 'number', 'integer', 'boolean', 'array', 'object'])('type %s is accepted', (type) => {
    expect(() => parseManifest(withTool({ url: '/{{q}}', params: [{ name: 'q', type }] }))).not.toThrow();
  });
});

describe('rule: header names', () => {
  it.each(['X Bad', 'X:Bad', 'Ümlaut', '(x)'])('%j is not an RFC 9110 token', (name) => {
    expect(pathsOf(withTool({ headers: { [name]: 'v' } }))).toEqual([`/tools/0/headers/${name}`]);
  });

  it('an empty header name', () => {
    expect(messageAt(withTool({ headers: { '': 'v' } }), '/tools/0/headers/')).toBe('a header name cannot be empty');
  });

  it('a templated header name', () => {
    const manifest = withTool({ headers: { 'X-{{name}}': 'v' }, params: [{ name: 'name' }] });
    expect(messageAt(manifest, '/tools/0/headers/X-{{name}}')).toContain('never templated');
  });

  it.each(['Host', 'content-length', 'Transfer-Encoding', 'CONNECTION', 'Cookie', 'Keep-Alive', 'Upgrade', 'Expect', 'TE', 'Trailer', 'Proxy-Connection'])(
    '%s is forbidden (case-insensitive)',
    (name) => {
      expect(messageAt(withTool({ headers: { [name]: 'x' } }), `/tools/0/headers/${name}`)).toContain('cannot be set');
    },
  );

  it('the same name twice in different case is reported at the later one', () => {
    expect(pathsOf(withTool({ headers: { Accept: 'a', accept: 'b' } }))).toEqual(['/tools/0/headers/accept']);
  });

  it('a header that the effective auth sets is refused (server auth inherited, or tool auth)', () => {
    const auth = { type: 'header', name: 'Authorization', scheme: 'Bearer' };
    expect(pathsOf(withTool({ headers: { authorization: 'x' } }, { auth }))).toEqual(['/tools/0/headers/authorization']);
    expect(pathsOf(withTool({ headers: { 'X-Key': 'x' }, auth: { type: 'header', name: 'x-key' } }))).toEqual(['/tools/0/headers/X-Key']);
    // A tool that overrides the server auth with none may set that header itself.
    expect(() => parseManifest(withTool({ headers: { Authorization: 'x' }, auth: { type: 'none' } }, { auth }))).not.toThrow();
  });

  it('a header value must be a string', () => {
    expect(messageAt(withTool({ headers: { 'X-A': 1 } }), '/tools/0/headers/X-A')).toBe('must be a string');
  });

  it('a header value with a line break or a non-Latin-1 character is refused', () => {
    expect(pathsOf(withTool({ headers: { 'X-A': 'a\r\nInjected: 1' } }))).toEqual(['/tools/0/headers/X-A']);
    expect(pathsOf(withTool({ headers: { 'X-A': '☺' } }))).toEqual(['/tools/0/headers/X-A']);
  });

  it('Content-Type and ordinary headers are allowed', () => {
    expect(() =>
      parseManifest(withTool({ method: 'POST', body: {}, headers: { 'Content-Type': 'application/json', Accept: 'application/json' } })),
    ).not.toThrow();
  });
});

describe('rule: queryParams', () => {
  it('must be an object of strings', () => {
    expect(pathsOf(withTool({ queryParams: ['q'] }))).toEqual(['/tools/0/queryParams']);
    expect(messageAt(withTool({ queryParams: { q: 1 } }), '/tools/0/queryParams/q')).toBe('must be a string');
    expect(pathsOf(withTool({ queryParams: { 'line\nbreak': false } }))).toEqual(['/tools/0/queryParams/line\nbreak']);
  });
});

describe('rule: body', () => {
  it('a GET tool cannot have a body', () => {
    expect(messageAt(withTool({ body: { a: 1 } }), '/tools/0/body')).toContain('GET request cannot have a body');
  });

  it('any JSON is a body, including null, for other methods', () => {
    for (const body of [null, 0, 'text', [], { a: [1, { b: null }] }]) {
      expect(parseManifest(withTool({ method: 'POST', body })).tools[0]?.body).toEqual(body);
    }
  });

  it('values that are not JSON are refused at their pointer', () => {
    const manifest = withTool({ method: 'POST', body: { a: [1, Number.NaN], f: () => 1, d: new Date(0), i: Infinity } });
    expect(pathsOf(manifest)).toEqual(['/tools/0/body/a/1', '/tools/0/body/d', '/tools/0/body/f', '/tools/0/body/i']);
  });
});

describe('rule: responseMappings', () => {
  it('an empty key', () => {
    expect(messageAt(withTool({ responseMappings: { '': '@data' } }), '/tools/0/responseMappings/')).toBe('a mapping name cannot be empty');
  });

  it('a "__proto__" key', () => {
    const text = JSON.stringify(withTool({ responseMappings: { x: '@data' } })).replace('"x":', '"__proto__":');
    expect(messageAt(text, '/tools/0/responseMappings/__proto__')).toBe('"__proto__" cannot be a mapping name');
  });

  it.each(['data.name', '$.data.name', '', 'name'])('value %j does not start with "@"', (value) => {
    expect(messageAt(withTool({ responseMappings: { x: value } }), '/tools/0/responseMappings/x')).toBe('must start with "@" (for example "@data.name")');
  });

  it.each(['@[', '@data..', '@data[?]', '@$.x', '@data[01]', '@ ', '@[?length(@.a)]', '@[9007199254740992]'])('value %j is not an RFC 9535 query', (value) => {
    expect(messageAt(withTool({ responseMappings: { x: value } }), '/tools/0/responseMappings/x')).toMatch(/RFC 9535/);
  });

  it('a non-string value', () => {
    expect(messageAt(withTool({ responseMappings: { x: 1 } }), '/tools/0/responseMappings/x')).toBe('must be a string');
  });

  it.each(['@', '@data.name', '@.data', '@[0]', '@data[*].id', '@..id', '@data[?@.price < 10]', "@['a b']"])('accepts %j', (value) => {
    expect(() => parseManifest(withTool({ responseMappings: { x: value } }))).not.toThrow();
  });
});

describe('rule: auth', () => {
  it.each([
    ['an unknown type', { type: 'basic' }, '/auth/type'],
    ['a missing type', {}, '/auth/type'],
    ['header auth without a name', { type: 'header' }, '/auth/name'],
    ['a header name that is not a token', { type: 'header', name: 'Bad Name' }, '/auth/name'],
    ['a forbidden header name', { type: 'header', name: 'cookie' }, '/auth/name'],
    ['a scheme that is not a token', { type: 'header', name: 'Authorization', scheme: 'Bearer token' }, '/auth/scheme'],
    ['a non-string scheme', { type: 'header', name: 'Authorization', scheme: 1 }, '/auth/scheme'],
    ['a string', 'none', '/auth'],
    ['an array', [{ type: 'none' }], '/auth'],
  ])('server auth: %s', (_, auth, path) => {
    expect(pathsOf(withTool({}, { auth }))).toEqual([path]);
  });

  it.each([
    ['an unknown type', { type: 'oauth2' }, '/tools/0/auth/type'],
    ['header auth without a name', { type: 'header', scheme: 'Bearer' }, '/tools/0/auth/name'],
    ['a forbidden header name', { type: 'header', name: 'Host' }, '/tools/0/auth/name'],
  ])('tool auth: %s', (_, auth, path) => {
    expect(pathsOf(withTool({ auth }))).toEqual([path]);
  });

  it('accepts none and header auth with or without a scheme, on the server and on a tool', () => {
    for (const auth of [{ type: 'none' }, { type: 'header', name: 'X-Api-Key' }, { type: 'header', name: 'Authorization', scheme: 'Bearer' }]) {
      expect(() => parseManifest(withTool({ auth }, { auth }))).not.toThrow();
    }
  });
});

describe('warnings', () => {
  it('are kept when the manifest is refused, so a misspelled field shows next to its error', () => {
    const result = safeParseManifest({
      rcpVersion: '0.1',
      tools: [{ name: 'get_note', description: 'Gets a note.', method: 'GET', url: '/notes/{{noteId}}', parms: [{ name: 'noteId' }] }],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('RCP_INVALID_MANIFEST');
    expect(result.warnings.map((warning) => warning.path)).toEqual(['/tools/0/parms']);
    expect(Object.isFrozen(result.warnings)).toBe(true);
  });

  it('are empty when the manifest is refused before its fields are read', () => {
    expect(safeParseManifest({ rcpVersion: '9.9', tools: [], extra: 1 })).toMatchObject({ ok: false, warnings: [] });
  });

  it('unknown fields anywhere are accepted and reported as warnings', () => {
    const manifest = withTool(
      { 'x-extra': 1, params: [{ name: 'q', example: 'x' }], url: '/{{q}}', auth: { type: 'none', realm: 'r' } },
      { servers: [], auth: { type: 'header', name: 'Authorization', vendor: 'x' } },
    );
    expect(warningsOf(manifest)).toEqual([
      { path: '/auth/vendor', message: 'unknown field "vendor" is ignored' },
      { path: '/servers', message: 'unknown field "servers" is ignored' },
      { path: '/tools/0/auth/realm', message: 'unknown field "realm" is ignored' },
      { path: '/tools/0/params/0/example', message: 'unknown field "example" is ignored' },
      { path: '/tools/0/x-extra', message: 'unknown field "x-extra" is ignored' },
    ]);
  });

  it('a top-level "$schema" (editor support) is ignored without a warning and dropped', () => {
    const manifest = withTool({}, { $schema: 'https://unpkg.com/rcp-manifest/rcp-manifest.schema.json' });
    expect(warningsOf(manifest)).toEqual([]);
    expect('$schema' in parseManifest(manifest)).toBe(false);
  });

  it('a declared param that no template uses is a warning, not an error', () => {
    const manifest = withTool({ url: '/{{used}}', params: [{ name: 'used' }, { name: 'unused' }] });
    expect(warningsOf(manifest)).toEqual([
      { path: '/tools/0/params/1', message: 'param "unused" is declared but not used in url, queryParams, headers or body' },
    ]);
  });

  it('warnings are not errors: parseManifest returns the manifest', () => {
    expect(parseManifest(withTool({ 'x-extra': 1 })).tools[0]).toEqual(baseTool);
  });
});

describe('limits', () => {
  it('has the documented defaults', () => {
    expect(DEFAULT_MANIFEST_LIMITS).toEqual({ maxBytes: 5 * 1024 * 1024, maxTools: 5000, maxDepth: 64 });
  });

  it('text over maxBytes (counted in UTF-8 bytes) → RCP_MANIFEST_LIMIT bytes', () => {
    const text = JSON.stringify(withTool({ description: 'é'.repeat(40) }));
    const bytes = new TextEncoder().encode(text).byteLength;
    expect(() => parseManifest(text, { maxBytes: bytes })).not.toThrow();
    const error = failure(text, { maxBytes: bytes - 1 });
    expect(error.code).toBe('RCP_MANIFEST_LIMIT');
    expect(error).toBeInstanceOf(RcpManifestLimitError);
    expect(error).toMatchObject({ limit: 'bytes', max: bytes - 1, actual: bytes });
  });

  it('bytes over maxBytes → RCP_MANIFEST_LIMIT bytes', () => {
    const bytes = new TextEncoder().encode(JSON.stringify(seedManifest));
    expect(failure(bytes, { maxBytes: 100 })).toMatchObject({ code: 'RCP_MANIFEST_LIMIT', limit: 'bytes', actual: bytes.byteLength });
  });

  it('the default byte limit is 5 MiB', () => {
    const padding = ' '.repeat(5 * 1024 * 1024);
    expect(failure(`${JSON.stringify(seedManifest)}${padding}`)).toMatchObject({ limit: 'bytes', max: 5 * 1024 * 1024 });
  });

  it('more tools than maxTools → RCP_MANIFEST_LIMIT tools (default 5000)', () => {
    const tools = Array.from({ length: 5001 }, (_, index) => ({ ...baseTool, name: `t${index}` }));
    expect(failure({ rcpVersion: '0.1', tools })).toMatchObject({ code: 'RCP_MANIFEST_LIMIT', limit: 'tools', max: 5000, actual: 5001 });
    expect(parseManifest({ rcpVersion: '0.1', tools: tools.slice(0, 5000) }).tools).toHaveLength(5000);
    expect(failure({ rcpVersion: '0.1', tools: tools.slice(0, 3) }, { maxTools: 2 })).toMatchObject({ limit: 'tools', max: 2 });
  });

  it('nesting deeper than maxDepth → RCP_MANIFEST_LIMIT depth (default 64), for values and for text', () => {
    let body: unknown = 'leaf';
    for (let i = 0; i < 61; i++) body = [body];
    const ok = withTool({ method: 'POST', body }); // manifest 1, tools 2, tool 3, body 4..64
    expect(() => parseManifest(ok)).not.toThrow();
    const deep = withTool({ method: 'POST', body: [body] });
    expect(failure(deep)).toMatchObject({ code: 'RCP_MANIFEST_LIMIT', limit: 'depth', max: 64 });
    expect(failure(JSON.stringify(deep))).toMatchObject({ code: 'RCP_MANIFEST_LIMIT', limit: 'depth' });
    expect(failure(ok, { maxDepth: 10 })).toMatchObject({ limit: 'depth', max: 10 });
  });

  it('brackets inside strings do not count as nesting', () => {
    const manifest = withTool({ description: '[[[[[[[[[[{{{{{{{{{{ \\" [[[[' });
    expect(() => parseManifest(JSON.stringify(manifest), { maxDepth: 4 })).not.toThrow();
  });

  it('a 100,000-deep array cannot exhaust the stack, as a value or as text', () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(failure({ rcpVersion: '0.1', tools: deep })).toMatchObject({ code: 'RCP_MANIFEST_LIMIT', limit: 'depth' });
    const text = `{"rcpVersion":"0.1","tools":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(failure(text)).toMatchObject({ code: 'RCP_MANIFEST_LIMIT', limit: 'depth' });
  });

  it('a cyclic value is stopped by the depth limit', () => {
    const tool: Json = { ...baseTool, method: 'POST' };
    tool['body'] = { self: tool };
    expect(failure({ rcpVersion: '0.1', tools: [tool] })).toMatchObject({ code: 'RCP_MANIFEST_LIMIT', limit: 'depth' });
  });

  it.each([{ maxBytes: 0 }, { maxTools: -1 }, { maxDepth: 1.5 }, { maxDepth: Number.POSITIVE_INFINITY }, { maxBytes: '100' as unknown as number }])(
    'invalid options %j → RCP_INVALID_OPTIONS',
    (options) => {
      expect(failure(seedManifest, options).code).toBe('RCP_INVALID_OPTIONS');
      expect(() => parseManifest(seedManifest, options)).toThrow(expect.objectContaining({ code: 'RCP_INVALID_OPTIONS' }));
    },
  );
});

describe('safeParseManifest', () => {
  it('never throws, even for hostile values', () => {
    const throwing = new Proxy(
      {},
      {
        get() {
          throw new Error('boom');
        },
        ownKeys() {
          throw new Error('boom');
        },
      },
    );
    const result = safeParseManifest(throwing);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(isRcpError(result.error, 'RCP_INVALID_MANIFEST')).toBe(true);
    expect(() => parseManifest(throwing)).toThrow(expect.objectContaining({ code: 'RCP_INVALID_MANIFEST' }));
  });

  it('returns frozen warnings with the manifest', () => {
    const result = safeParseManifest(withTool({ 'x-extra': 1 }));
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(Object.isFrozen(result.warnings)).toBe(true);
      expect(result.warnings).toEqual([{ path: '/tools/0/x-extra', message: 'unknown field "x-extra" is ignored' }]);
    }
  });
});

describe('hardening', () => {
  const tool = (extra: Record<string, unknown>) => ({ name: 'get_item', description: 'Gets.', method: 'GET', url: '/items', ...extra });
  const issuesOf = (input: unknown) => {
    const result = safeParseManifest(input);
    return result.ok ? [] : (result.error as RcpManifestError).issues;
  };

  it('Proxy-Authorization is refused as an auth header name and as a tool header, with a pointer', () => {
    expect(issuesOf({ rcpVersion: '0.1', auth: { type: 'header', name: 'Proxy-Authorization' }, tools: [] })).toEqual([
      { path: '/auth/name', message: expect.stringContaining('cannot carry a credential') },
    ]);
    expect(issuesOf({ rcpVersion: '0.1', tools: [tool({ auth: { type: 'header', name: 'proxy-authorization' } })] })[0]!.path).toBe('/tools/0/auth/name');
    expect(issuesOf({ rcpVersion: '0.1', tools: [tool({ headers: { 'Proxy-Authorization': '{{token}}' }, params: [{ name: 'token' }] })] })[0]!.path).toBe(
      '/tools/0/headers/Proxy-Authorization',
    );
  });

  it('tool names must be unique regardless of case: the later one is the error, at its pointer', () => {
    expect(issuesOf({ rcpVersion: '0.1', tools: [tool({ name: 'getUser' }), tool({ name: 'getuser' })] })).toEqual([
      { path: '/tools/1/name', message: 'tool name "getuser" differs only in case from the one at /tools/0 (names must be unique regardless of case)' },
    ]);
  });

  it('a match()/search() pattern that can backtrack exponentially is refused at load, at its pointer', () => {
    // Refused before anything runs: no response is ever matched against it.
    const issues = issuesOf({
      rcpVersion: '0.1',
      tools: [tool({ responseMappings: { hits: "@[?match(@.a, '(a+)+$')]", found: '@[?search(@.a, @.pattern)]' } })],
    });
    expect(issues).toEqual([
      { path: '/tools/0/responseMappings/found', message: expect.stringContaining('must be a string literal') },
      { path: '/tools/0/responseMappings/hits', message: expect.stringContaining('nested repetition') },
    ]);
    expect(issuesOf({ rcpVersion: '0.1', tools: [tool({ responseMappings: { ok: "@[?match(@.a, '[a-z]+')]" } })] })).toEqual([]);
  });
});
