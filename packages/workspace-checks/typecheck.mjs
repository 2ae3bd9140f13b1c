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
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { publishedPackages, root, workspaceProjects } from './workspace.mjs';

publishedPackages();
const projects = workspaceProjects()
  .map(({ dir }) => join(dir, 'tsconfig.json'))
  .filter((file) => existsSync(join(root, file)));
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const result = spawnSync(process.execPath, [tsc, '--build', '--force', ...projects], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
