import { describe, expect, it } from 'vitest';
import { type ManifestIssue, RcpManifestError, safeParseManifest } from './index';

type Json = Record<string, unknown>;

const tool = (extra: Json = {}): Json => ({ name: 'chat', description: 'Streams an answer.', method: 'POST', url: 'https://api.example.com/chat', ...extra });
const manifest = (version: string, tools: Json[]): Json => ({ rcpVersion: version, tools });

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

describe('RCP 0.4: streamed answers (SPEC §20.6)', () => {
  it('keeps a 0.4 tool’s stream as written: known fields only, frozen', () => {
    const result = parsed(manifest('0.4', [tool({ stream: { format: 'sse', collect: 'concat', field: '@delta.text', maxEvents: 10, other: 1 } })]));
    expect(result.manifest.tools[0]!.stream).toEqual({ format: 'sse', collect: 'concat', field: '@delta.text', maxEvents: 10 });
    expect(Object.isFrozen(result.manifest.tools[0]!.stream)).toBe(true);
    expect(result.warnings).toEqual([{ path: '/tools/0/stream/other', message: 'unknown field "other" is ignored' }]);
  });

  it('accepts each format and collection, field and maxEvents optional', () => {
    for (const format of ['sse', 'ndjson']) {
      for (const collect of ['concat', 'last', 'array']) {
        expect(parsed(manifest('0.4', [tool({ stream: { format, collect } })])).warnings).toEqual([]);
      }
    }
  });

  it.each(['0.1', '0.2', '0.3'])('is ignored in a %s manifest, with a warning, and dropped', (version) => {
    const result = parsed(manifest(version, [tool({ stream: { format: 'nonsense' } })]));
    expect(result.manifest.tools[0]!.stream).toBeUndefined();
    expect(result.warnings).toEqual([
      {
        path: '/tools/0/stream',
        message: `"stream" needs rcpVersion "0.4": ignored (this manifest says "${version}", whose clients read the answer as text)`,
      },
    ]);
  });

  it('refuses each bad field at its pointer', () => {
    expect(issuesOf(manifest('0.4', [tool({ stream: 'sse' })]))).toEqual([{ path: '/tools/0/stream', message: 'must be an object' }]);
    const issues = issuesOf(manifest('0.4', [tool({ stream: { format: 'jsonl', collect: 'join', field: 'delta', maxEvents: 0 } })]));
    expect(issues.map((issue) => issue.path)).toEqual([
      '/tools/0/stream/collect',
      '/tools/0/stream/field',
      '/tools/0/stream/format',
      '/tools/0/stream/maxEvents',
    ]);
    expect(issuesOf(manifest('0.4', [tool({ stream: {} })])).map((issue) => issue.path)).toEqual(['/tools/0/stream/collect', '/tools/0/stream/format']);
    expect(issuesOf(manifest('0.4', [tool({ stream: { format: 'sse', collect: 'last', maxEvents: 1.5 } })]))).toEqual([
      { path: '/tools/0/stream/maxEvents', message: 'must be an integer ≥ 1' },
    ]);
  });

  it('refuses a field that is not a singular path, or not a path at all', () => {
    expect(issuesOf(manifest('0.4', [tool({ stream: { format: 'sse', collect: 'array', field: '@items[*]' } })]))).toEqual([
      {
        path: '/tools/0/stream/field',
        message: 'must be a singular path (names and indexes only, such as "@delta.text"): it takes one value from each event',
      },
    ]);
    expect(issuesOf(manifest('0.4', [tool({ stream: { format: 'sse', collect: 'array', field: '@a[' } })]))[0]!.path).toBe('/tools/0/stream/field');
  });

  it('refuses responseMappings on a concat (text), and allows them on last and array (JSON)', () => {
    expect(issuesOf(manifest('0.4', [tool({ stream: { format: 'sse', collect: 'concat' }, responseMappings: { text: '@' } })]))).toEqual([
      {
        path: '/tools/0/stream/collect',
        message: 'is "concat", whose result is text: responseMappings read JSON (use "array" or "last", or drop the mappings)',
      },
    ]);
    expect(parsed(manifest('0.4', [tool({ stream: { format: 'ndjson', collect: 'last' }, responseMappings: { total: '@total' } })])).warnings).toEqual([]);
  });
});
