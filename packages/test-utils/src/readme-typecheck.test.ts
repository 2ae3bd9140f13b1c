import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readmeTypeErrors } from './readme-typecheck';
import { runReadmeSnippet } from './readme-snippet';
import { SPAWN_TIMEOUT } from './spawn-node';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'readme-ts-'));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'ESNext', target: 'ES2022', moduleResolution: 'Bundler', types: [] } }));
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
