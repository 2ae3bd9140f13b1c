import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SPAWN_TIMEOUT, runNode } from 'rcp-test-utils';
import * as main from './index';
import * as schema from './schema';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

// A module hook (in Node's loader thread) that names every file the import loads, on stderr.
const RECORD_LOADS = `data:text/javascript,${encodeURIComponent(
  "import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(\"export async function load(url, context, next) { if (url.startsWith('file:')) process.stderr.write('LOAD ' + url + '\\\\n'); return next(url, context); }\"));",
)}`;

/** The files a fresh `node` loads for `import(specifier)` from `cwd` (the built dist). */
async function filesLoaded(specifier: string, cwd: string): Promise<string[]> {
  const run = await runNode(['--import', RECORD_LOADS, '--input-type=module', '-e', `await import(${JSON.stringify(specifier)});`], { cwd });
  expect(run.code, run.stderr).toBe(0);
  return run.stderr
    .split('\n')
    .filter((line) => line.startsWith('LOAD '))
    .map((line) => line.slice(5));
}

describe('cold start (issue 26)', () => {
  it('the deprecated main-entry schema exports are the objects of rcp-manifest/schema', () => {
    for (const name of Object.keys(schema) as (keyof typeof schema)[]) {
      // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the test compares every export of both namespaces
      if (name in main) expect(main[name as keyof typeof main]).toBe(schema[name]);
    }
    // A schema added since the deprecation has its one home only.
    expect('RcpIdempotencySchema' in main).toBe(false);
    expect('RcpGroupSchema' in main).toBe(false);
    expect('RcpStreamSchema' in main).toBe(false);
    expect('RcpOperationSchema' in main).toBe(false);
    expect(Object.keys(schema).sort()).toEqual([
      'RcpAuthSchema',
      'RcpEffectsSchema',
      'RcpGroupSchema',
      'RcpIdempotencySchema',
      'RcpManifestSchema',
      'RcpOAuthHintSchema',
      'RcpOperationSchema',
      'RcpPaginationSchema',
      'RcpParamSchema',
      'RcpStreamSchema',
      'RcpToolSchema',
      'RcpValueSchema',
    ]);
  });

  it('importing the built rcp-manifest loads no TypeBox module file (its builders are bundled)', { timeout: SPAWN_TIMEOUT }, async () => {
    const files = await filesLoaded('rcp-manifest', packageDir);
    expect(files.some((file) => file.endsWith('/rcp-manifest/dist/index.js'))).toBe(true);
    expect(files.filter((file) => file.includes('@sinclair/typebox'))).toEqual([]);
  });

  it('the built rcp-manifest/schema gives schemas the installed TypeBox checks, the same objects as the main entry', { timeout: SPAWN_TIMEOUT }, async () => {
    const script = [
      "const [main, schema] = await Promise.all([import('rcp-manifest'), import('rcp-manifest/schema')]);",
      "const { Value } = await import('@sinclair/typebox/value');",
      "console.log(main.RcpManifestSchema === schema.RcpManifestSchema, Value.Check(schema.RcpParamSchema, { name: 'q', type: 'string' }), Value.Check(schema.RcpParamSchema, { name: 'q', type: 'text' }));",
    ].join('\n');
    const run = await runNode(['--input-type=module', '-e', script], { cwd: packageDir });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('true true false');
  });

  it('importing the built rcp-manifest loads no JSONPath library file, nor does a manifest without a filter', { timeout: SPAWN_TIMEOUT }, async () => {
    const script = [
      "const { parseManifest, compileResponseMappings } = await import('rcp-manifest');",
      "const manifest = parseManifest({ rcpVersion: '0.1', tools: [{ name: 'list', description: 'Lists.', method: 'GET', url: 'https://api.example.com/x', responseMappings: { ids: \"@items[*]['id']\", last: '@items[-1:]', all: '@..name', first: '@items[0].id' } }] });",
      "console.log(JSON.stringify(compileResponseMappings(manifest.tools[0].responseMappings).apply({ items: [{ id: 1, name: 'a' }, { id: 2 }] })));",
      "const { createRequire } = await import('node:module');",
      "console.log(Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes('jsonpath-rfc9535')).length);",
    ].join('\n');
    const run = await runNode(['--import', RECORD_LOADS, '--input-type=module', '-e', script], { cwd: packageDir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual(['{"ids":[1,2],"last":[{"id":2}],"all":["a"],"first":1}', '0']);
    const loads = run.stderr.split('\n').filter((line) => line.startsWith('LOAD '));
    expect(loads.some((line) => line.endsWith('/rcp-manifest/dist/index.js'))).toBe(true);
    expect(loads.filter((line) => line.includes('jsonpath-rfc9535'))).toEqual([]);
  });

  const filterManifest =
    "{ rcpVersion: '0.1', tools: [{ name: 'big', description: 'Big ones.', method: 'GET', url: 'https://api.example.com/x', responseMappings: { big: '@items[?@.x > 1].x' } }] }";

  it('a manifest with a filter loads the library when it is parsed: synchronously on Node', { timeout: SPAWN_TIMEOUT }, async () => {
    const script = [
      "const { parseManifest, compileResponseMappings } = await import('rcp-manifest');",
      `const manifest = parseManifest(${filterManifest});`,
      'console.log(JSON.stringify(compileResponseMappings(manifest.tools[0].responseMappings).apply({ items: [{ x: 1 }, { x: 2 }, { x: 3 }] })));',
    ].join('\n');
    const run = await runNode(['--input-type=module', '-e', script], { cwd: packageDir });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('{"big":[2,3]}');
  });

  it('where nothing can be required synchronously, the filter engine is an option (prepareManifest returns it); without it the path is refused, naming it, whatever ran before (issue 40: no module state)', {
    timeout: SPAWN_TIMEOUT,
  }, async () => {
    const script = [
      'delete process.getBuiltinModule;', // as in a browser or an edge runtime
      "const { safeParseManifest, prepareManifest, compileResponseMappings } = await import('rcp-manifest');",
      `const input = ${filterManifest};`,
      'const refusal = (result) => result.ok || JSON.stringify(result.error.issues.map((issue) => [issue.path, /pass the filterEngine option/.test(issue.message)]));',
      'const before = safeParseManifest(input);',
      'console.log(before.ok, refusal(before));',
      // An unrelated call that loads the engine for itself changes nothing for the next call.
      "const other = await prepareManifest({ rcpVersion: '0.1', tools: [{ responseMappings: { a: '@a[?@.b]' } }] });",
      'console.log(typeof other.filterEngine?.query, safeParseManifest(input).ok);',
      'const options = await prepareManifest(JSON.stringify(input));',
      'const after = safeParseManifest(input, options);',
      'console.log(after.ok, JSON.stringify(compileResponseMappings(after.manifest.tools[0].responseMappings, options).apply({ items: [{ x: 1 }, { x: 2 }] })));',
      "console.log(JSON.stringify(await prepareManifest({ rcpVersion: '0.1', tools: [] })));",
    ].join('\n');
    const run = await runNode(['--input-type=module', '-e', script], { cwd: packageDir });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n')).toEqual(['false [["/tools/0/responseMappings/big",true]]', 'function false', 'true {"big":[2]}', '{}']);
  });

  it('a filterEngine option that is not an engine is RCP_INVALID_OPTIONS', () => {
    expect(() => main.parseManifest({ rcpVersion: '0.1', tools: [] }, { filterEngine: {} as never })).toThrow(
      expect.objectContaining({ code: 'RCP_INVALID_OPTIONS', message: expect.stringContaining('filterEngine') }),
    );
  });
});
