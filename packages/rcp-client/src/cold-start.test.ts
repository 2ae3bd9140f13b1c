/**
 * Cold start (issue 26): importing the built rcp-client (ESM) loads no TypeBox (the schema values
 * live in `rcp-manifest/schema`, and rcp-manifest bundles the builders its deprecated main-entry
 * re-exports use), no Public Suffix List (tldts: loaded when a tool is on another origin that is
 * not trusted already) and no undici (loaded by the first request, see lazy-transport.test.ts).
 */
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { SPAWN_TIMEOUT, runNode } from 'rcp-test-utils';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

// A module hook (in Node's loader thread) that names every file an import loads, on stderr.
const RECORD_LOADS = `data:text/javascript,${encodeURIComponent(
  "import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(\"export async function load(url, context, next) { if (url.startsWith('file:')) process.stderr.write('LOAD ' + url + '\\\\n'); return next(url, context); }\"));",
)}`;

it('importing rcp-client loads neither TypeBox, nor tldts, nor undici', { timeout: SPAWN_TIMEOUT }, async () => {
  const run = await runNode(['--import', RECORD_LOADS, '--input-type=module', '-e', "await import('rcp-client');"], { cwd: packageDir });
  expect(run.code, run.stderr).toBe(0);
  const files = run.stderr
    .split('\n')
    .filter((line) => line.startsWith('LOAD '))
    .map((line) => line.slice(5));
  expect(files.some((file) => file.endsWith('/rcp-client/dist/index.js'))).toBe(true);
  expect(files.filter((file) => /@sinclair[+/]typebox|\/tldts|\/undici/.test(file))).toEqual([]);
});
