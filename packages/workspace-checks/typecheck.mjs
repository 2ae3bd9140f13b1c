#!/usr/bin/env node
// `pnpm typecheck` (turbo's `typecheck` task, in packages/workspace-checks): TypeScript over every
// workspace project — each package's, app's and the bench's tsconfig.json, source and tests —
// in ONE `tsc --build` process. One process parses the standard library, @types/node and each
// package's built `.d.ts` once instead of once per project (about a quarter of the CPU of a `tsc`
// per package); `--force` checks every project every time (no stale "up to date").
//
// It runs after every published package's `build:types` (their `.d.ts` are what the projects
// import): packages/workspace-checks lists each of them as a dependency, which this script checks.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

const dirs = [
  ...readdirSync(join(root, 'packages')).map((name) => join('packages', name)),
  ...readdirSync(join(root, 'apps')).map((name) => join('apps', name)),
  'bench',
].filter((dir) => existsSync(join(root, dir, 'package.json')));

const own = readJson(join(root, 'packages', 'workspace-checks', 'package.json'));
const missing = dirs
  .map((dir) => readJson(join(root, dir, 'package.json')))
  .filter((pkg) => pkg.private !== true && own.devDependencies?.[pkg.name] === undefined)
  .map((pkg) => pkg.name);
if (missing.length > 0) {
  console.error(`packages/workspace-checks/package.json must list ${missing.join(', ')} in devDependencies (workspace:*), so turbo builds their .d.ts first.`);
  process.exit(1);
}

const projects = dirs.filter((dir) => existsSync(join(root, dir, 'tsconfig.json'))).map((dir) => join(dir, 'tsconfig.json'));
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const result = spawnSync(process.execPath, [tsc, '--build', '--force', ...projects], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
