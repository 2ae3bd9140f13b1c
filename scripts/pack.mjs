#!/usr/bin/env node
// Packs every published RCP package into one folder (default: ./tarballs), as `pnpm pack` does
// for a release: `workspace:*` and `catalog:` versions are replaced by real ones, only `dist` is
// included. Run `pnpm build` first. Prints the tarball paths, one a line.
//
//   node scripts/pack.mjs [destination]
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const destination = resolve(process.argv[2] ?? join(root, 'tarballs'));
mkdirSync(destination, { recursive: true });

const packagesDir = join(root, 'packages');
const published = readdirSync(packagesDir).filter((name) => {
  try {
    return JSON.parse(readFileSync(join(packagesDir, name, 'package.json'), 'utf8')).private !== true;
  } catch {
    return false;
  }
});
// Under `pnpm run`/`npx pnpm`, the pnpm that runs us (pnpm may not be on PATH); else `pnpm`.
const execPath = process.env.npm_execpath ?? '';
const [command, ...prefix] = /pnpm/.test(execPath) && /\.c?js$/.test(execPath) ? [process.execPath, execPath] : ['pnpm'];
for (const name of published.sort()) {
  const output = execFileSync(command, [...prefix, 'pack', '--pack-destination', destination], {
    cwd: join(packagesDir, name),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const tarball = output.trim().split('\n').filter((line) => line.endsWith('.tgz')).pop();
  console.log(tarball?.startsWith('/') ? tarball : join(destination, tarball ?? `${name}.tgz`));
}
