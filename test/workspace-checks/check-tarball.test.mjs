// checkTarball against packages built here as tarballs: one that passes, one publint refuses,
// one attw refuses, one whose README links to a page it does not ship — so the workspace's package
// check cannot pass by checking nothing.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkTarball } from './check-tarball.mjs';

const work = mkdtempSync(join(tmpdir(), 'check-tarball-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A tarball of `files` under `package/`, as npm and pnpm pack them. */
function tarballOf(name, files) {
  const dir = join(work, name);
  mkdirSync(join(dir, 'package'), { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, 'package', file), typeof text === 'string' ? text : JSON.stringify(text));
  execFileSync('tar', ['-czf', join(dir, 'out.tgz'), '-C', dir, 'package']);
  return new Uint8Array(readFileSync(join(dir, 'out.tgz')));
}

const dual = {
  name: 'fixture',
  version: '1.0.0',
  type: 'module',
  main: './index.cjs',
  types: './index.d.cts',
  exports: { '.': { import: { types: './index.d.ts', default: './index.js' }, require: { types: './index.d.cts', default: './index.cjs' } } },
};
const sources = {
  'index.js': 'export const answer = 42;\n',
  'index.cjs': 'exports.answer = 42;\n',
  'index.d.ts': 'export declare const answer: number;\n',
  'index.d.cts': 'export declare const answer: number;\n',
};

describe('checkTarball', () => {
  it('passes a dual package whose types match each format', async () => {
    expect(await checkTarball(tarballOf('good', { 'package.json': dual, ...sources }))).toEqual([]);
  });

  it('reports what publint --strict reports: an export that points at no file', async () => {
    const { ['index.cjs']: _missing, ...rest } = sources;
    const problems = await checkTarball(tarballOf('publint', { 'package.json': dual, ...rest }));
    expect(problems.some((line) => line.startsWith('publint error:') && line.includes('index.cjs'))).toBe(true);
  });

  it('reports what attw (node16) reports: ESM types for the require condition', async () => {
    const masquerading = { ...dual, types: './index.d.ts', exports: { '.': { types: './index.d.ts', import: './index.js', require: './index.cjs' } } };
    const problems = await checkTarball(tarballOf('attw', { 'package.json': masquerading, ...sources }));
    expect(problems.filter((line) => line.startsWith('attw '))).toEqual([expect.stringMatching(/^attw FalseESM \(.*index\.d\.ts/)]);
  });

  it('reports a README link into the package that the tarball does not hold (a docs page left out of "files")', async () => {
    const readme = '# fixture\n\nSee [the behaviour](docs/behaviour.md), [install](#install), [the repo](../../README.md), [npm](https://npmjs.com).\n';
    const problems = await checkTarball(tarballOf('links', { 'package.json': dual, ...sources, 'README.md': readme }));
    expect(problems).toEqual(['README.md links to docs/behaviour.md, which is not in the package (add it to "files")']);
    mkdirSync(join(work, 'links-ok', 'package', 'docs'), { recursive: true });
    writeFileSync(join(work, 'links-ok', 'package', 'docs', 'behaviour.md'), '# behaviour\n');
    expect(await checkTarball(tarballOf('links-ok', { 'package.json': dual, ...sources, 'README.md': readme }))).toEqual([]);
  });
});
