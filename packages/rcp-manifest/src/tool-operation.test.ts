import { describe, expect, it } from 'vitest';
import { type ManifestIssue, RcpManifestError, safeParseManifest } from './index';

type Json = Record<string, unknown>;

const tool = (extra: Json = {}): Json => ({
  name: 'render',
  description: 'Renders a video.',
  method: 'POST',
  url: 'https://api.example.com/renders',
  ...extra,
});
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

describe('RCP 0.4: long-running operations (SPEC §20.8)', () => {
  it('keeps a 0.4 tool’s operation as written: known fields only, frozen', () => {
    const operation = {
      statusUrl: 'header:Location',
      state: '@status',
      done: ['succeeded'],
      failed: ['failed', 'cancelled'],
      result: '@output',
      pollSeconds: 5,
    };
    const result = parsed(manifest('0.4', [tool({ operation: { ...operation, other: 1 } })]));
    expect(result.manifest.tools[0]!.operation).toEqual(operation);
    expect(Object.isFrozen(result.manifest.tools[0]!.operation)).toBe(true);
    expect(Object.isFrozen(result.manifest.tools[0]!.operation!.done)).toBe(true);
    expect(result.warnings).toEqual([{ path: '/tools/0/operation/other', message: 'unknown field "other" is ignored' }]);
  });

  it('needs only the status URL: a header or a path into the 202 answer', () => {
    for (const statusUrl of ['header:Location', 'header:Operation-Location', '@links.status', '@job["status_url"]']) {
      expect(parsed(manifest('0.4', [tool({ operation: { statusUrl } })])).warnings).toEqual([]);
    }
  });

  it.each(['0.1', '0.2', '0.3'])('is ignored in a %s manifest, with a warning, and dropped', (version) => {
    const result = parsed(manifest(version, [tool({ operation: { statusUrl: 'nonsense' } })]));
    expect(result.manifest.tools[0]!.operation).toBeUndefined();
    expect(result.warnings).toEqual([
      {
        path: '/tools/0/operation',
        message: `"operation" needs rcpVersion "0.4": ignored (this manifest says "${version}", whose clients return a 202's body as the result)`,
      },
    ]);
  });

  it('refuses each bad field at its pointer', () => {
    expect(issuesOf(manifest('0.4', [tool({ operation: 'poll' })]))).toEqual([{ path: '/tools/0/operation', message: 'must be an object' }]);
    expect(issuesOf(manifest('0.4', [tool({ operation: {} })]))).toEqual([{ path: '/tools/0/operation/statusUrl', message: 'is required' }]);
    const bad = issuesOf(
      manifest('0.4', [tool({ operation: { statusUrl: 'header:Bad Name', state: 'status', done: [], failed: [1], result: 'output', pollSeconds: 3601 } })]),
    );
    expect(bad.map((issue) => issue.path).sort()).toEqual([
      '/tools/0/operation/done',
      '/tools/0/operation/failed/0',
      '/tools/0/operation/pollSeconds',
      '/tools/0/operation/result',
      '/tools/0/operation/state',
      '/tools/0/operation/statusUrl',
    ]);
    expect(issuesOf(manifest('0.4', [tool({ operation: { statusUrl: 'Location' } })]))[0]!.message).toBe(
      'must be "header:<Name>" (an HTTP header name) or an "@" path into the 202 answer',
    );
    expect(issuesOf(manifest('0.4', [tool({ operation: { statusUrl: '@x', pollSeconds: -1 } })]))).toEqual([
      { path: '/tools/0/operation/pollSeconds', message: 'must be a number from 0 to 3600' },
    ]);
  });

  it('refuses a path that is not singular, done without state, a state without done, and a stream or pages beside it', () => {
    expect(issuesOf(manifest('0.4', [tool({ operation: { statusUrl: '@jobs[*].url' } })]))).toEqual([
      { path: '/tools/0/operation/statusUrl', message: 'must be a singular path (names and indexes only, such as "@job.status"): it takes one value' },
    ]);
    expect(issuesOf(manifest('0.4', [tool({ operation: { statusUrl: '@url', state: '@status' } })]))).toEqual([
      { path: '/tools/0/operation/done', message: 'is required with "state": the states that mean done' },
    ]);
    expect(issuesOf(manifest('0.4', [tool({ operation: { statusUrl: '@url', done: ['ok'], failed: ['no'] } })])).map((issue) => issue.path)).toEqual([
      '/tools/0/operation/done',
      '/tools/0/operation/failed',
    ]);
    const both = manifest('0.4', [tool({ operation: { statusUrl: '@url' }, stream: { format: 'sse', collect: 'concat' } })]);
    expect(issuesOf(both)).toEqual([{ path: '/tools/0/operation', message: 'cannot be declared with "stream": a tool answers one way' }]);
  });
});
