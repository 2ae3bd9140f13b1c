#!/usr/bin/env node
// Builds a workspace package (and what it depends on), then runs one of its files with the
// caller's arguments. The build's own output is shown only when it fails, so `pnpm demo`,
// `pnpm rcp` and `pnpm bench` print their own output on stdout; while a build runs, stderr says
// so (see build-quietly.mjs): at once when the file is not built yet.
//   node scripts/run-built.mjs <turbo-filter> <file> [args...]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildQuietly } from './build-quietly.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [filter, file, ...args] = process.argv.slice(2);
if (!filter || !file) {
  console.error('usage: node scripts/run-built.mjs <turbo-filter> <file> [args...]');
  process.exit(2);
}

// Running a file needs its JavaScript and that of what it imports, not the declarations (the TypeScript pass).
await buildQuietly({
  root,
  task: 'build:js',
  filters: [`${filter}...`],
  label: `${filter} and the packages it needs`,
  firstRun: !existsSync(join(root, file)),
});
const run = spawnSync(process.execPath, [join(root, file), ...args], { cwd: process.cwd(), stdio: 'inherit' });
process.exit(run.status ?? 1);
