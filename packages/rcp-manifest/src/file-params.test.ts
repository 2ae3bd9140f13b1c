/**
 * RCP 0.4 file params (SPEC §20.7): the manifest rules (0.4 only, where a file may go, its fields)
 * and the one reference rule the client and a server apply.
 */
import { describe, expect, it } from 'vitest';
import { compileArgumentCheck, safeParseManifest, toolParams, type RcpManifestError } from 'rcp-manifest';
import { FILE_REFERENCE_MAX_LENGTH, fileReferenceProblem } from './file-params';

type Json = Record<string, unknown>;

const upload = (extra: Json = {}): Json => ({
  name: 'upload',
  description: 'Uploads a file.',
  method: 'POST',
  url: '/files',
  params: [{ name: 'file', type: 'file', required: true, mediaTypes: ['image/*', 'application/pdf'], maxBytes: 1024 }, { name: 'purpose' }],
  bodyEncoding: 'multipart',
  body: { purpose: '{{purpose}}', file: '{{file}}' },
  ...extra,
});

function pointers(version: string, tool: Json): string[] {
  const result = safeParseManifest({ rcpVersion: version, auth: { type: 'none' }, tools: [tool] });
  return result.ok ? [] : (result.error as RcpManifestError).issues.map((issue) => issue.path);
}

describe('a file param in the manifest', () => {
  it('is accepted in a 0.4 multipart body as the whole value of a field, with its limits', () => {
    const result = safeParseManifest({ rcpVersion: '0.4', auth: { type: 'none' }, tools: [upload()] });
    expect(result.ok && result.warnings).toEqual([]);
    expect(result.ok && toolParams(result.manifest.tools[0]!)[0]).toEqual({ name: 'file', type: 'file', required: true, description: '' });
  });

  it('and a multipart body are refused in an older manifest (an older client would send the reference as JSON text)', () => {
    for (const version of ['0.1', '0.2', '0.3']) {
      expect(pointers(version, upload()), version).toEqual(['/tools/0/bodyEncoding', '/tools/0/params/0/type']);
    }
  });

  it('is refused anywhere but a top-level field of a multipart body, at that position', () => {
    expect(pointers('0.4', upload({ url: '/files/{{file}}' }))).toEqual(['/tools/0/url']);
    expect(pointers('0.4', upload({ queryParams: { f: '{{file}}' } }))).toEqual(['/tools/0/queryParams/f']);
    expect(pointers('0.4', upload({ headers: { 'X-File': '{{file}}' } }))).toEqual(['/tools/0/headers/X-File']);
    expect(pointers('0.4', upload({ bodyEncoding: 'json' }))).toEqual(['/tools/0/body/file']);
    expect(pointers('0.4', upload({ bodyEncoding: 'form' }))).toEqual(['/tools/0/body/file']);
    expect(pointers('0.4', upload({ body: { meta: { f: '{{file}}' }, list: ['{{file}}'], name: 'a-{{file}}' } }))).toEqual([
      '/tools/0/body/list/0',
      '/tools/0/body/meta/f',
      '/tools/0/body/name',
    ]);
  });

  it('rules of the multipart body: an object, field names without quotes or controls, no Content-Type of its own, a body present', () => {
    expect(pointers('0.4', upload({ body: ['{{file}}'] }))).toEqual(['/tools/0/body']);
    expect(pointers('0.4', upload({ body: { 'a"b': '{{purpose}}', 'c\nd': '{{file}}' } }))).toEqual(['/tools/0/body/a"b', '/tools/0/body/c\nd']);
    expect(pointers('0.4', upload({ headers: { 'content-type': 'multipart/form-data' } }))).toEqual(['/tools/0/headers/content-type']);
    expect(pointers('0.4', upload({ body: undefined }))).toEqual(['/tools/0/bodyEncoding']);
  });

  it('fields: mediaTypes and maxBytes on a file param only, well formed; no enum or default on one', () => {
    const params = (file: Json, other: Json = { name: 'purpose' }) => upload({ params: [{ name: 'file', type: 'file', ...file }, other] });
    expect(pointers('0.4', params({ mediaTypes: ['image/png; q=1'] }))).toEqual(['/tools/0/params/0/mediaTypes/0']);
    expect(pointers('0.4', params({ mediaTypes: [] }))).toEqual(['/tools/0/params/0/mediaTypes']);
    expect(pointers('0.4', params({ maxBytes: 0 }))).toEqual(['/tools/0/params/0/maxBytes']);
    expect(pointers('0.4', params({ enum: ['a'], default: 'a' }))).toEqual(['/tools/0/params/0/default', '/tools/0/params/0/enum']);
    expect(pointers('0.4', params({ minLength: 1 }))).toEqual(['/tools/0/params/0/minLength']);
    expect(pointers('0.4', params({}, { name: 'purpose', mediaTypes: ['image/png'], maxBytes: 3 }))).toEqual([
      '/tools/0/params/1/maxBytes',
      '/tools/0/params/1/mediaTypes',
    ]);
  });

  it('a file in an array item or an object property is not a type', () => {
    expect(pointers('0.4', upload({ params: [{ name: 'file', type: 'array', items: { type: 'file' } }] }))).toContain('/tools/0/params/0/items/type');
  });
});

describe('fileReferenceProblem', () => {
  it.each([
    'file-abc123',
    'att_1',
    'https://files.example/a/b.png',
    'mcp://server/resource/1',
    'urn:uuid:8e03978e-40d5-43e8-bc93-6894a57f9324',
    'a.png',
    'x'.repeat(FILE_REFERENCE_MAX_LENGTH),
  ])('accepts %j', (reference) => {
    expect(fileReferenceProblem(reference)).toBeUndefined();
  });

  it.each([
    ['', 'empty'],
    ['x'.repeat(FILE_REFERENCE_MAX_LENGTH + 1), 'at most 2048'],
    ['a\u0000b', 'control'],
    ['a\u0085b', 'control'],
    ['data:text/plain,hi', 'data: URI'],
    ['DATA:text/plain,hi', 'data: URI'],
    ['file:///etc/passwd', 'file: URI'],
    ['/etc/passwd', 'path'],
    ['./a.png', 'path'],
    ['../a.png', 'path'],
    ['docs/a.png', 'path'],
    ['docs\\a.png', 'path'],
    ['\\\\server\\share\\a.png', 'path'],
    ['C:\\a.png', 'path'],
    ['c:/a.png', 'path'],
    ['C:a.png', 'path'],
    ['~/a.png', 'path'],
    ['~alice', 'path'],
    ['.', 'path'],
    ['..', 'path'],
  ])('refuses %j (%s), naming the rule and never the reference', (reference, rule) => {
    const problem = fileReferenceProblem(reference);
    expect(problem).toContain(rule);
    if (reference.length > 3) expect(problem).not.toContain(reference);
  });

  it('is the argument check of a file param: a string that passes it', () => {
    const check = compileArgumentCheck([{ name: 'file', type: 'file', required: true }]);
    expect(check({ file: 'file-1' })).toEqual({ ok: true, values: { file: 'file-1' } });
    expect(check({ file: '/etc/passwd' })).toEqual({ ok: false, issues: [{ path: '/file', message: 'must be an attachment reference, not a path' }] });
    expect(check({ file: 7 })).toEqual({ ok: false, issues: [{ path: '/file', message: 'must be an attachment reference (a string) (got integer)' }] });
  });
});
