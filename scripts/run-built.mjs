#!/usr/bin/env node
// Builds a workspace package (and what it depends on) quietly, then runs one of its files with
// the caller's arguments. Build output is shown only when the build fails, so `pnpm demo` and
// `pnpm bench` print their own output and nothing else.
//   node scripts/run-built.mjs <turbo-filter> <file> [args...]
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [filter, file, ...args] = process.argv.slice(2);
if (!filter || !file) {
  console.error('usage: node scripts/run-built.mjs <turbo-filter> <file> [args...]');
  process.exit(2);
}

const turbo = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'turbo.cmd' : 'turbo');
const build = spawnSync(turbo, ['run', 'build', `--filter=${filter}...`, '--output-logs=errors-only'], {
  cwd: root,
  encoding: 'utf8',
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' },
});
if (build.status !== 0) {
  process.stderr.write(build.stdout ?? '');
  process.stderr.write(build.stderr ?? '');
  if (build.error) console.error(String(build.error));
  console.error(`The build of ${filter} failed (see above).`);
  process.exit(build.status ?? 1);
}

const run = spawnSync(process.execPath, [join(root, file), ...args], { cwd: process.cwd(), stdio: 'inherit' });
process.exit(run.status ?? 1);
