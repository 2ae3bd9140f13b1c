import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ManifestIssue, RcpManifestError, safeParseManifest } from './index';

type Json = Record<string, unknown>;

const write = (extra: Json = {}): Json => ({ name: 'pay', description: 'Pays.', method: 'POST', url: '/payments', ...extra });
const manifest = (version: string, tools: Json[], auth?: Json): Json => ({ rcpVersion: version, ...(auth && { auth }), tools });
const bearer: Json = { type: 'header', name: 'Authorization', scheme: 'Bearer' };

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

describe('RCP 0.4: the version', () => {
  it('accepts rcpVersion "0.4" with everything 0.3 allows', () => {
    const result = parsed(
      manifest(
        '0.4',
        [
          write({
            bodyEncoding: 'form',
            params: [{ name: 'a', type: 'string' }],
            body: { a: '{{a}}' },
            responseMediaTypes: ['application/pdf'],
            effects: { destructive: true },
          }),
        ],
        { type: 'query', name: 'key' },
      ),
    );
    expect(result.manifest.rcpVersion).toBe('0.4');
    expect(result.warnings).toEqual([]);
  });
});

describe('RCP 0.4: idempotency (SPEC §20.1)', () => {
  it('is kept as written (known fields only, frozen) on a 0.4 manifest', () => {
    const result = parsed(manifest('0.4', [write({ idempotency: { header: 'Idempotency-Key', expiresAfterSeconds: 86400, scope: 'x' } })], bearer));
    expect(result.manifest.tools[0]!.idempotency).toEqual({ header: 'Idempotency-Key', expiresAfterSeconds: 86400 });
    expect(Object.isFrozen(result.manifest.tools[0]!.idempotency)).toBe(true);
    expect(result.warnings).toEqual([{ path: '/tools/0/idempotency/scope', message: 'unknown field "scope" is ignored' }]);
  });

  it.each(['PUT', 'PATCH', 'DELETE'])('is allowed on %s, and names any header that is a token (an API’s own, "X-Request-Id")', (method) => {
    expect(parsed(manifest('0.4', [write({ method, idempotency: { header: 'X-Request-Id' } })])).warnings).toEqual([]);
  });

  it.each(['0.1', '0.2', '0.3'])('needs rcpVersion "0.4": a %s client would send no key', (version) => {
    expect(issuesOf(manifest(version, [write({ idempotency: { header: 'Idempotency-Key' } })]))).toEqual([
      { path: '/tools/0/idempotency', message: `idempotency needs rcpVersion "0.4" (this manifest says "${version}", whose clients would send no key)` },
    ]);
  });

  it('is refused on a GET, which reads', () => {
    expect(issuesOf(manifest('0.4', [write({ method: 'GET', idempotency: { header: 'Idempotency-Key' } })]))).toEqual([
      { path: '/tools/0/idempotency', message: 'a GET request reads: it takes no idempotency key' },
    ]);
  });

  it.each([
    ['not an object', true, '/tools/0/idempotency', 'must be an object'],
    ['no header', {}, '/tools/0/idempotency/header', 'is required'],
    ['a header that is not a token', { header: 'Idempotency Key' }, '/tools/0/idempotency/header', undefined],
    ['a zero lifetime', { header: 'Idempotency-Key', expiresAfterSeconds: 0 }, '/tools/0/idempotency/expiresAfterSeconds', 'must be an integer ≥ 1'],
    ['a fractional lifetime', { header: 'Idempotency-Key', expiresAfterSeconds: 1.5 }, '/tools/0/idempotency/expiresAfterSeconds', 'must be an integer ≥ 1'],
    ['a lifetime as text', { header: 'Idempotency-Key', expiresAfterSeconds: '60' }, '/tools/0/idempotency/expiresAfterSeconds', 'must be an integer ≥ 1'],
  ])('refuses %s', (_what, idempotency, pointer, message) => {
    const issues = issuesOf(manifest('0.4', [write({ idempotency })]));
    expect(issues.map((issue) => issue.path)).toEqual([pointer]);
    if (message !== undefined) expect(issues[0]!.message).toBe(message);
  });

  it.each([
    [
      'a header the HTTP client controls',
      { header: 'Content-Length' },
      {},
      '"Content-Length" cannot carry an idempotency key (the HTTP client controls that header)',
    ],
    ['the server’s auth header (any case)', { header: 'authorization' }, {}, '"authorization" is the auth header: it carries the credential'],
    [
      'the tool’s own auth header',
      { header: 'X-Api-Key' },
      { auth: { type: 'header', name: 'x-api-key' } },
      '"X-Api-Key" is the auth header: it carries the credential',
    ],
    [
      'a header the tool’s template writes (the model could choose the key)',
      { header: 'Idempotency-Key' },
      { params: [{ name: 'key' }], headers: { 'idempotency-key': '{{key}}' } },
      '"Idempotency-Key" is one of the tool\'s headers: the client sets the key itself, never from a template',
    ],
  ])('refuses %s', (_what, idempotency, extra, message) => {
    expect(issuesOf(manifest('0.4', [write({ ...extra, idempotency })], bearer))).toEqual([{ path: '/tools/0/idempotency/header', message }]);
  });
});

describe('RCP 0.4: a param filled by the client (§20.2)', () => {
  const read = (param: Json): Json => ({ name: 'get_user', description: 'Gets a user.', method: 'GET', url: '/users/{{userId}}', params: [param] });

  it('is kept, without a warning, in any version: it is informational', () => {
    for (const version of ['0.1', '0.3', '0.4']) {
      const result = parsed(manifest(version, [read({ name: 'userId', filledBy: 'client' })], bearer));
      expect(result.warnings).toEqual([]);
      expect(result.manifest.tools[0]!.params![0]).toEqual({ name: 'userId', filledBy: 'client' });
    }
  });

  it('says "client" or nothing: another value is refused at the field', () => {
    for (const filledBy of ['model', true, '']) {
      expect(issuesOf(manifest('0.4', [read({ name: 'userId', filledBy })], bearer))).toEqual([
        { path: '/tools/0/params/0/filledBy', message: 'must be one of "client"' },
      ]);
    }
  });
});

describe('the shipped JSON Schema covers 0.4', () => {
  it('accepts idempotency, refuses a lifetime below one second', async () => {
    const shipped = JSON.parse(readFileSync(new URL('../rcp-manifest.schema.json', import.meta.url), 'utf8')) as object;
    const { default: Ajv } = (await import('ajv')) as unknown as { default: new (options: object) => { compile(schema: object): (data: unknown) => boolean } };
    const validate = new Ajv({ strict: false }).compile(shipped);
    expect(validate(manifest('0.4', [write({ idempotency: { header: 'Idempotency-Key', expiresAfterSeconds: 60 } })]))).toBe(true);
    expect(validate(manifest('0.4', [write({ idempotency: { header: 'Idempotency-Key', expiresAfterSeconds: 0 } })]))).toBe(false);
    expect(validate(manifest('0.4', [write({ idempotency: {} })]))).toBe(false);
  });

  it('accepts filledBy: "client" on a param, nothing else', async () => {
    const shipped = JSON.parse(readFileSync(new URL('../rcp-manifest.schema.json', import.meta.url), 'utf8')) as object;
    const { default: Ajv } = (await import('ajv')) as unknown as { default: new (options: object) => { compile(schema: object): (data: unknown) => boolean } };
    const validate = new Ajv({ strict: false }).compile(shipped);
    expect(validate(manifest('0.4', [write({ params: [{ name: 'userId', filledBy: 'client' }] })]))).toBe(true);
    expect(validate(manifest('0.4', [write({ params: [{ name: 'userId', filledBy: 'model' }] })]))).toBe(false);
  });
});
