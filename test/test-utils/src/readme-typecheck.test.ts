import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readmeTypeErrors } from './readme-typecheck';
import { runReadmeSnippet } from './readme-snippet';
import { SPAWN_TIMEOUT } from './spawn-node';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'readme-ts-'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, module: 'ESNext', target: 'ES2022', moduleResolution: 'Bundler', types: [] } }),
  );
  writeFileSync(
    join(dir, 'README.md'),
    [
      '# x',
      '',
      '<!-- snippet:good -->',
      '```ts',
      'const n: number = 2;',
      'console.log(n * 21);',
      '```',
      '',
      '<!-- snippet:bad -->',
      '```ts',
      'const ok = 1;',
      "const n: number = 'two';",
      '```',
      '',
      '<!-- snippet:js -->',
      '```js',
      'console.log(1);',
      '```',
      '',
    ].join('\n'),
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('readmeTypeErrors', () => {
  it('names the README line of each error; a block that compiles adds none', { timeout: SPAWN_TIMEOUT }, () => {
    // One call, one program: loading TypeScript's libraries is the slow part on a loaded machine.
    expect(readmeTypeErrors(dir, 'snippet:good', 'snippet:bad', 'snippet:js')).toEqual([
      'README.md:16 the block after "<!-- snippet:js" is tagged "js", not "ts"',
      "README.md:12:7 Type 'string' is not assignable to type 'number'.",
    ]);
  });
});

describe('runReadmeSnippet', () => {
  it('runs a ts block with its types erased', { timeout: SPAWN_TIMEOUT }, async () => {
    expect(await runReadmeSnippet(dir, 'snippet:good')).toBe('42\n');
  });
});

describe('the packages whose tests type-check their README', () => {
  // readmeTypeErrors compiles against the built `.d.ts`: turbo's `test` waits only for
  // `build:js`, so each such package's turbo.json makes its tests wait for `build:types` too.
  // (A checkout with a previous build has the `.d.ts` anyway; only a clean clone would show it.)
  const packagesDir = fileURLToPath(new URL('../../../packages', import.meta.url));
  const callers = readdirSync(packagesDir).filter((name) => {
    const src = join(packagesDir, name, 'src');
    if (name === 'test-utils' || !existsSync(src)) return false;
    return readdirSync(src, { recursive: true, encoding: 'utf8' }).some(
      (file) => file.endsWith('.test.ts') && readFileSync(join(src, file), 'utf8').includes('readmeTypeErrors('),
    );
  });

  it('are found (the premise)', () => {
    expect(callers.length).toBeGreaterThan(0);
  });

  it.each(callers)('%s: its tests wait for its build:types (turbo.json)', (name) => {
    const config = join(packagesDir, name, 'turbo.json');
    const tasks = existsSync(config) ? (JSON.parse(readFileSync(config, 'utf8')) as { tasks?: { test?: { dependsOn?: string[] } } }).tasks : undefined;
    expect(tasks?.test?.dependsOn ?? []).toContain('build:types');
  });
});
