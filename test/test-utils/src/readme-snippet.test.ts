import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runReadmeSnippet } from './readme-snippet';
import { SPAWN_TIMEOUT } from './spawn-node';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'readme-ts-'));
  writeFileSync(join(dir, 'README.md'), ['# x', '', '<!-- snippet:good -->', '```ts', 'const n: number = 2;', 'console.log(n * 21);', '```', ''].join('\n'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('runReadmeSnippet', () => {
  it('runs a ts block with its types erased', { timeout: SPAWN_TIMEOUT }, async () => {
    expect(await runReadmeSnippet(dir, 'snippet:good')).toBe('42\n');
  });
});
