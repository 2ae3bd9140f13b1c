/**
 * Every README's install and host-configuration lines work today, while nothing is published:
 * no `npm install rcp-…` from the registry (E404), the tarballs built with the root `tarballs`
 * script through `npx -y pnpm@<the repository's pnpm>`, and each `npm install` of tarballs names
 * every rcp package the one it installs depends on. The MCP host configurations run the gateway
 * by its path in the clone. (tarballs.test.ts installs the tarballs; .ci/run, on a fresh clone, runs the Quick start.)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expandTarballs, readmeBuildLine, readmeTarballLine } from './readme-lines';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { packageManager: string; scripts: Record<string, string> };

interface Manifest {
  name: string;
  private?: boolean;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}
const packages = new Map<string, { dir: string; manifest: Manifest }>();
for (const dir of readdirSync(join(root, 'packages'))) {
  const file = join(root, 'packages', dir, 'package.json');
  if (!existsSync(file)) continue;
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  if (manifest.private !== true) packages.set(manifest.name, { dir: join(root, 'packages', dir), manifest });
}

/** The rcp packages `name` needs installed beside it: its own dependencies and peers, transitively. */
function siblingsOf(name: string, seen = new Set<string>()): Set<string> {
  const { manifest } = packages.get(name)!;
  // An optional peer (rcp-search behind an adapter's `./search` subpath) is installed only by those who use it.
  const optional = (dependency: string) => manifest.peerDependenciesMeta?.[dependency]?.optional === true;
  for (const dependency of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) {
    if (packages.has(dependency) && !seen.has(dependency) && !optional(dependency)) {
      seen.add(dependency);
      siblingsOf(dependency, seen);
    }
  }
  return seen;
}

const readme = (name: string) => readFileSync(join(packages.get(name)!.dir, 'README.md'), 'utf8');

it('the README build line is `npx -y <the repository pnpm> install && … tarballs`, and the script exists', () => {
  expect(readmeBuildLine(readFileSync(join(root, 'README.md'), 'utf8'))).toBe(
    `npx -y ${rootPackage.packageManager} install && npx -y ${rootPackage.packageManager} tarballs`,
  );
  expect(rootPackage.scripts['tarballs']).toBe('node scripts/pack.mjs');
});

describe.each([...packages.keys()].sort())('%s README', (name) => {
  it('installs from the tarballs, never from the registry, with every rcp package it needs', () => {
    const text = readme(name);
    expect(text).not.toMatch(/^npm install rcp-/m);
    // How to build the tarballs is the root README's (checked above): a README either links there (the package
    // README skeleton, test/workspace-checks/readme-skeleton.test.mjs) or, until it is converted, repeats the line.
    const build = readmeBuildLine(text);
    if (build === undefined) expect(text).toContain('](../../README.md#install)');
    else expect(build).toBe(`npx -y ${rootPackage.packageManager} install && npx -y ${rootPackage.packageManager} tarballs`);
    const line = readmeTarballLine(text);
    const installed = expandTarballs(line, '/path/to/rcp').map((file) => file.replace(/^\/path\/to\/rcp\/tarballs\/(.+)-0\.1\.0\.tgz$/, '$1'));
    // All it needs (more is fine: rcp-oauth's line adds the client it is used with), and only packages that exist.
    expect(installed).toEqual(expect.arrayContaining([name, ...siblingsOf(name)]));
    for (const tarball of installed) expect(packages.has(tarball), tarball).toBe(true);
  });
});

it('the rcp-mcp host configurations run the gateway by its path in the clone: the bin rcp-cli declares', () => {
  const text = readme('rcp-mcp');
  const configs = [...text.matchAll(/```json\n([\s\S]*?)```/g)]
    .map((match) => JSON.parse(match[1]!) as { mcpServers?: Record<string, { command: string; args: string[] }> })
    .filter((config) => config.mcpServers !== undefined);
  expect(configs.length).toBeGreaterThan(0);
  const { dir, manifest } = packages.get('rcp-cli')!;
  for (const config of configs) {
    for (const server of Object.values(config.mcpServers!)) {
      expect(server.command).toBe('node');
      expect(server.args[0]).toBe(`/path/to/rcp/packages/rcp-cli/${manifest.bin!['rcp-mcp']!.replace(/^\.\//, '')}`);
      expect(existsSync(join(dir, manifest.bin!['rcp-mcp']!))).toBe(true);
    }
  }
});

it('bins are committed files (linked by pnpm install before any build), not build output', () => {
  for (const { dir, manifest } of packages.values()) {
    for (const target of Object.values(manifest.bin ?? {})) {
      expect(target, manifest.name).not.toMatch(/(^|\/)dist\//);
      expect(existsSync(join(dir, target)), `${manifest.name}: ${target}`).toBe(true);
    }
  }
});
