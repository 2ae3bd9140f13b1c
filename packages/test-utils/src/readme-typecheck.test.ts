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
  it('is empty for a block that compiles, and names the README line of an error', { timeout: SPAWN_TIMEOUT }, () => {
    expect(readmeTypeErrors(dir, 'snippet:good')).toEqual([]);
    expect(readmeTypeErrors(dir, 'snippet:good', 'snippet:bad')).toEqual([
      "README.md:12:7 Type 'string' is not assignable to type 'number'.",
    ]);
    expect(readmeTypeErrors(dir, 'snippet:js')).toEqual(['README.md:16 the block after "<!-- snippet:js" is tagged "js", not "ts"']);
  });
});

describe('runReadmeSnippet', () => {
  it('runs a ts block with its types erased', { timeout: SPAWN_TIMEOUT }, async () => {
    expect(await runReadmeSnippet(dir, 'snippet:good')).toBe('42\n');
  });
});
