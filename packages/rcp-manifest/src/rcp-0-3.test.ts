import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RcpManifestError, safeParseManifest, toolEffects, type RcpHttpMethod, type ManifestIssue } from './index';

type Json = Record<string, unknown>;

const tool = (extra: Json = {}): Json => ({ name: 't', description: 'A tool.', method: 'GET', url: '/x', ...extra });
const manifest = (version: string, tools: Json[], auth?: Json): Json => ({ rcpVersion: version, ...(auth && { auth }), tools });
const bearer = (oauth: unknown): Json => ({ type: 'header', name: 'Authorization', scheme: 'Bearer', oauth });

function issuesOf(input: Json): readonly ManifestIssue[] {
  const result = safeParseManifest(input);
  if (result.ok) throw new Error('expected the manifest to be refused');
  expect(result.error).toBeInstanceOf(RcpManifestError);
  return (result.error as RcpManifestError).issues;
}

function parsed(input: Json) {
  const result = safeParseManifest(input);
  if (!result.ok) throw result.error;
  return result;
}

describe('RCP 0.3: the version', () => {
  it('accepts rcpVersion "0.3" with everything 0.2 allows', () => {
    const result = parsed(
      manifest('0.3', [tool({ method: 'POST', bodyEncoding: 'form', params: [{ name: 'a', type: 'string' }], body: { a: '{{a}}' } })], {
        type: 'query',
        name: 'key',
      }),
    );
    expect(result.manifest.rcpVersion).toBe('0.3');
    expect(result.warnings).toEqual([]);
  });
});

describe('RCP 0.3: effects (SPEC §18.1)', () => {
  it('are kept (known fields only, frozen) and allowed in every version, since they change nothing sent', () => {
    for (const version of ['0.1', '0.2', '0.3']) {
      const result = parsed(manifest(version, [tool({ method: 'POST', effects: { destructive: true, idempotent: true, openWorld: false, risky: 1 } })]));
      expect(result.manifest.tools[0]!.effects).toEqual({ destructive: true, idempotent: true, openWorld: false });
      expect(Object.isFrozen(result.manifest.tools[0]!.effects)).toBe(true);
      expect(result.warnings).toEqual([{ path: '/tools/0/effects/risky', message: 'unknown field "risky" is ignored' }]);
    }
  });

  it('must be an object of booleans', () => {
    expect(issuesOf(manifest('0.3', [tool({ effects: true })]))).toEqual([{ path: '/tools/0/effects', message: 'must be an object' }]);
    expect(issuesOf(manifest('0.3', [tool({ effects: { readOnly: 'yes' } })]))).toEqual([
      { path: '/tools/0/effects/readOnly', message: 'must be true or false' },
    ]);
  });

  it.each(['PUT', 'PATCH', 'DELETE'])('refuses a read-only %s', (method) => {
    expect(issuesOf(manifest('0.3', [tool({ method, effects: { readOnly: true } })]))).toEqual([
      { path: '/tools/0/effects/readOnly', message: `a ${method} call is not read-only` },
    ]);
  });

  it('refuses a read-only claim that contradicts itself', () => {
    expect(issuesOf(manifest('0.3', [tool({ effects: { readOnly: true, destructive: true, idempotent: false } })]))).toEqual([
      { path: '/tools/0/effects/destructive', message: 'a read-only call cannot be destructive' },
      { path: '/tools/0/effects/idempotent', message: 'a read-only call is idempotent' },
    ]);
  });

  it('accepts a read-only POST (a search by POST) as a claim', () => {
    expect(parsed(manifest('0.3', [tool({ method: 'POST', effects: { readOnly: true } })])).manifest.tools[0]!.effects).toEqual({ readOnly: true });
  });
});

describe('toolEffects: the method gives the defaults, a claim only adds caution', () => {
  const table: [RcpHttpMethod, Json | undefined, Json][] = [
    ['GET', undefined, { readOnly: true, destructive: false, idempotent: true, openWorld: true }],
    ['POST', undefined, { readOnly: false, destructive: false, idempotent: false, openWorld: true }],
    ['PUT', undefined, { readOnly: false, destructive: false, idempotent: true, openWorld: true }],
    ['PATCH', undefined, { readOnly: false, destructive: false, idempotent: false, openWorld: true }],
    ['DELETE', undefined, { readOnly: false, destructive: true, idempotent: true, openWorld: true }],
    // claims that add caution are taken
    ['GET', { destructive: true }, { readOnly: false, destructive: true, idempotent: true, openWorld: true }],
    ['GET', { readOnly: false }, { readOnly: false, destructive: false, idempotent: true, openWorld: true }],
    ['PUT', { idempotent: false }, { readOnly: false, destructive: false, idempotent: false, openWorld: true }],
    ['POST', { destructive: true }, { readOnly: false, destructive: true, idempotent: false, openWorld: true }],
    // claims that would trust more are not
    ['POST', { readOnly: true }, { readOnly: false, destructive: false, idempotent: false, openWorld: true }],
    ['POST', { idempotent: true }, { readOnly: false, destructive: false, idempotent: false, openWorld: true }],
    ['DELETE', { destructive: false }, { readOnly: false, destructive: true, idempotent: true, openWorld: true }],
    // openWorld has no method default
    ['GET', { openWorld: false }, { readOnly: true, destructive: false, idempotent: true, openWorld: false }],
  ];
  it.each(table)('%s with %j', (method, effects, expected) => {
    expect(toolEffects({ method, ...(effects && { effects }) })).toEqual(expected);
  });

  it('is frozen', () => {
    expect(Object.isFrozen(toolEffects({ method: 'GET' }))).toBe(true);
  });
});

describe('RCP 0.3: the OAuth hint (SPEC §18.2)', () => {
  const hint = {
    scopes: ['notes.read', 'notes:write'],
    issuer: 'https://login.example.com/tenant-1',
    grantTypes: ['authorization_code', 'client_credentials'],
  };

  it('is kept on header auth, at the server and on a tool, in every version', () => {
    for (const version of ['0.1', '0.2', '0.3']) {
      const result = parsed(manifest(version, [tool({ auth: bearer({ scopes: ['admin'] }) })], bearer({ ...hint, tokenUrl: 'https://x.test/t' })));
      expect(result.manifest.auth).toEqual({ type: 'header', name: 'Authorization', scheme: 'Bearer', oauth: hint });
      expect(result.manifest.tools[0]!.auth).toEqual({ type: 'header', name: 'Authorization', scheme: 'Bearer', oauth: { scopes: ['admin'] } });
      expect(result.warnings).toEqual([{ path: '/auth/oauth/tokenUrl', message: 'unknown field "tokenUrl" is ignored' }]);
    }
  });

  it('is an unknown field on query or no auth', () => {
    const result = parsed(manifest('0.3', [tool()], { type: 'query', name: 'key', oauth: hint }));
    expect(result.manifest.auth).toEqual({ type: 'query', name: 'key' });
    expect(result.warnings.map((warning) => warning.path)).toEqual(['/auth/oauth']);
  });

  it('scopes are RFC 6749 scope tokens; grant types are not blank', () => {
    expect(issuesOf(manifest('0.3', [tool()], bearer({ scopes: ['a b', 'ok', 'q"'], grantTypes: [' '] }))).map((issue) => issue.path)).toEqual([
      '/auth/oauth/grantTypes/0',
      '/auth/oauth/scopes/0',
      '/auth/oauth/scopes/2',
    ]);
    expect(issuesOf(manifest('0.3', [tool()], bearer({ scopes: 'notes.read' })))).toEqual([{ path: '/auth/oauth/scopes', message: 'must be an array' }]);
    expect(issuesOf(manifest('0.3', [tool()], bearer('yes')))).toEqual([{ path: '/auth/oauth', message: 'must be an object' }]);
  });

  it.each([
    ['not a URL', 'login.example.com', 'must be an absolute https URL (an RFC 8414 issuer identifier)'],
    ['plain http', 'http://login.example.com', 'must be an https URL (http only on a loopback host)'],
    ['another scheme', 'javascript:alert(1)', 'must be an https URL (http only on a loopback host)'],
    ['credentials', 'https://user:pw@login.example.com', 'must not contain credentials'],
    ['a query', 'https://login.example.com/?tenant=1', 'must not have a query or a fragment (RFC 8414)'],
    ['a fragment', 'https://login.example.com/#x', 'must not have a query or a fragment (RFC 8414)'],
    ['an empty query', 'https://login.example.com/?', 'must not have a query or a fragment (RFC 8414)'],
  ])('refuses an issuer with %s', (_what, issuer, message) => {
    expect(issuesOf(manifest('0.3', [tool()], bearer({ issuer })))).toEqual([{ path: '/auth/oauth/issuer', message }]);
  });

  it('allows an http issuer on a loopback host (a test authorization server)', () => {
    for (const issuer of ['http://127.0.0.1:9000', 'http://localhost:9000/realm', 'http://[::1]:9000']) {
      expect(parsed(manifest('0.3', [tool()], bearer({ issuer }))).warnings).toEqual([]);
    }
  });

  it('warns when the token would not be sent as "Authorization: Bearer"', () => {
    const result = parsed(manifest('0.3', [tool()], { type: 'header', name: 'X-Token', oauth: { scopes: ['a'] } }));
    expect(result.warnings).toEqual([
      { path: '/auth/oauth', message: 'an OAuth 2 access token is sent as "Authorization: Bearer <token>" (RFC 6750); this auth sends it otherwise' },
    ]);
    expect(parsed(manifest('0.3', [tool()], { type: 'header', name: 'authorization', scheme: 'bearer', oauth: {} })).warnings).toEqual([]);
  });
});

describe('the shipped JSON Schema covers 0.3', () => {
  it('accepts effects and the OAuth hint, refuses a wrong effect type', async () => {
    const shipped = JSON.parse(readFileSync(new URL('../rcp-manifest.schema.json', import.meta.url), 'utf8')) as object;
    const { default: Ajv } = (await import('ajv')) as unknown as { default: new (options: object) => { compile(schema: object): (data: unknown) => boolean } };
    const validate = new Ajv({ strict: false }).compile(shipped);
    expect(
      validate(
        manifest('0.3', [tool({ method: 'DELETE', effects: { destructive: true } })], bearer({ scopes: ['notes.read'], issuer: 'https://login.example.com' })),
      ),
    ).toBe(true);
    expect(validate(manifest('0.3', [tool({ effects: { readOnly: 'yes' } })]))).toBe(false);
    expect(validate(manifest('0.3', [tool()], bearer({ scopes: ['a b'] })))).toBe(false);
  });
});

describe('RCP 0.3: responseMediaTypes (SPEC §18.3)', () => {
  it('are kept as written (frozen) on a 0.3 manifest', () => {
    const result = parsed(manifest('0.3', [tool({ responseMediaTypes: ['image/png', 'application/vnd.ms-excel', 'audio/*'] })]));
    expect(result.manifest.tools[0]!.responseMediaTypes).toEqual(['image/png', 'application/vnd.ms-excel', 'audio/*']);
    expect(Object.isFrozen(result.manifest.tools[0]!.responseMediaTypes)).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it.each(['0.1', '0.2'])('need rcpVersion "0.3" (a %s client would decode the bytes as text)', (version) => {
    expect(issuesOf(manifest(version, [tool({ responseMediaTypes: ['image/png'] })]))).toEqual([
      {
        path: '/tools/0/responseMediaTypes',
        message: `responseMediaTypes needs rcpVersion "0.3" (this manifest says "${version}", whose clients would ignore it)`,
      },
    ]);
  });

  it('are media types or ranges of one type, without parameters; never */*, never empty', () => {
    const message = 'must be a media type or a range of one type ("image/png", "image/*"), without parameters';
    expect(issuesOf(manifest('0.3', [tool({ responseMediaTypes: ['*/*', 'image/png; q=1', 'png', 'image/', 7] })]))).toEqual([
      { path: '/tools/0/responseMediaTypes/0', message },
      { path: '/tools/0/responseMediaTypes/1', message },
      { path: '/tools/0/responseMediaTypes/2', message },
      { path: '/tools/0/responseMediaTypes/3', message },
      { path: '/tools/0/responseMediaTypes/4', message: 'must be a string' },
    ]);
    expect(issuesOf(manifest('0.3', [tool({ responseMediaTypes: [] })]))).toEqual([{ path: '/tools/0/responseMediaTypes', message: 'must not be empty' }]);
    expect(issuesOf(manifest('0.3', [tool({ responseMediaTypes: 'image/png' })]))).toEqual([
      { path: '/tools/0/responseMediaTypes', message: 'must be an array' },
    ]);
  });
});

describe('RCP 0.3: pagination (SPEC §18.4)', () => {
  const paged = (pagination: unknown, params: Json[] = [{ name: 'cursor' }], version = '0.3'): Json =>
    manifest(version, [tool({ params, queryParams: { cursor: '{{cursor}}' }, pagination })]);

  it('is kept (known fields only, frozen)', () => {
    const result = parsed(paged({ nextCursor: '@meta.next', param: 'cursor', hasMore: '@has_more', style: 'x' }));
    expect(result.manifest.tools[0]!.pagination).toEqual({ nextCursor: '@meta.next', param: 'cursor', hasMore: '@has_more' });
    expect(Object.isFrozen(result.manifest.tools[0]!.pagination)).toBe(true);
    expect(result.warnings).toEqual([{ path: '/tools/0/pagination/style', message: 'unknown field "style" is ignored' }]);
  });

  it.each(['0.1', '0.2'])('needs rcpVersion "0.3" (%s)', (version) => {
    expect(issuesOf(paged({ nextCursor: '@next', param: 'cursor' }, undefined, version))).toEqual([
      { path: '/tools/0/pagination', message: `pagination needs rcpVersion "0.3" (this manifest says "${version}", whose clients would ignore it)` },
    ]);
  });

  it('has a required cursor path and param, each of its form', () => {
    expect(issuesOf(paged({}))).toEqual([
      { path: '/tools/0/pagination/nextCursor', message: 'is required' },
      { path: '/tools/0/pagination/param', message: 'is required' },
    ]);
    expect(issuesOf(paged({ nextCursor: 'meta.next', param: '1x', hasMore: true }))).toEqual([
      { path: '/tools/0/pagination/hasMore', message: 'must be a string' },
      { path: '/tools/0/pagination/nextCursor', message: 'must start with "@" (for example "@data.name")' },
      { path: '/tools/0/pagination/param', message: 'must be the name of a declared param' },
    ]);
  });

  it('paths parse and are singular: one cursor, one flag', () => {
    const issues = issuesOf(paged({ nextCursor: '@items[*].id', param: 'cursor', hasMore: '@[' }));
    expect(issues.map((issue) => issue.path)).toEqual(['/tools/0/pagination/hasMore', '/tools/0/pagination/nextCursor']);
    expect(issues[1]!.message).toBe('must be a singular path (names and indexes only, such as "@meta.next"): it must select one value');
    // a negative index is singular (Stripe's "the last item's id")
    expect(parsed(paged({ nextCursor: '@data[-1].id', param: 'cursor', hasMore: '@has_more' })).manifest.tools[0]!.pagination).toBeDefined();
  });

  it('names a declared param of a scalar type', () => {
    expect(issuesOf(paged({ nextCursor: '@next', param: 'page' }))).toEqual([
      { path: '/tools/0/pagination/param', message: '"page" is not a declared param of this tool' },
    ]);
    expect(issuesOf(paged({ nextCursor: '@next', param: 'cursor' }, [{ name: 'cursor', type: 'array' }]))).toEqual([
      { path: '/tools/0/pagination/param', message: '"cursor" is array: a cursor is given as a string, an integer or a number' },
    ]);
    expect(parsed(paged({ nextCursor: '@next_page', param: 'cursor' }, [{ name: 'cursor', type: 'integer' }])).warnings).toEqual([]);
  });
});

describe('the shipped JSON Schema covers responseMediaTypes and pagination', () => {
  it('accepts them and refuses a wrong form', async () => {
    const shipped = JSON.parse(readFileSync(new URL('../rcp-manifest.schema.json', import.meta.url), 'utf8')) as object;
    const { default: Ajv } = (await import('ajv')) as unknown as { default: new (options: object) => { compile(schema: object): (data: unknown) => boolean } };
    const validate = new Ajv({ strict: false }).compile(shipped);
    const good = tool({
      params: [{ name: 'cursor' }],
      queryParams: { cursor: '{{cursor}}' },
      responseMediaTypes: ['image/*'],
      pagination: { nextCursor: '@next', param: 'cursor' },
    });
    expect(validate(manifest('0.3', [good]))).toBe(true);
    expect(validate(manifest('0.3', [tool({ responseMediaTypes: ['*/*'] })]))).toBe(false);
    expect(validate(manifest('0.3', [tool({ responseMediaTypes: [] })]))).toBe(false);
    expect(validate(manifest('0.3', [tool({ pagination: { param: 'cursor' } })]))).toBe(false);
  });
});
