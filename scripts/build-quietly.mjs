// Builds workspace packages with turbo, quietly but not silently: the build's own output is shown
// only when it fails, and while it runs a line on stderr says so — at once on a first run (the
// caller says when that is), after a moment otherwise (so an up-to-date build stays silent) —
// then one every 15 s, then how long it took. Used by run-built.mjs (`pnpm demo`, `pnpm rcp`,
// `pnpm bench`) and pack.mjs (`pnpm tarballs`).
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** Quiet for this long when nothing needs building: an up-to-date build takes about a second. */
const QUIET_MS = 2500;
const HEARTBEAT_MS = 15_000;

/**
 * Runs `turbo run <task>` for `filters` (turbo filter strings) in `root`: `build` (JavaScript and declarations, what a
 * tarball needs) or `build:js` (what running a built file needs). Resolves when the build succeeded; on a failure,
 * prints the build's output and exits with its status.
 *
 * @param {{ root: string, filters: string[], label: string, firstRun: boolean, task?: 'build' | 'build:js' }} options
 */
export async function buildQuietly({ root, filters, label, firstRun, task = 'build' }) {
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1000);
  let announced = false;
  const say = (line) => {
    announced = true;
    process.stderr.write(`${line}\n`);
  };
  const first = setTimeout(
    () =>
      say(
        firstRun
          ? `Building ${label} (first run only: about a minute, longer on a small or busy machine)…`
          : `Building ${label} (only what changed since the last build)…`,
      ),
    firstRun ? 0 : QUIET_MS,
  );
  const heartbeat = setInterval(() => announced && say(`  … still building (${seconds()} s)`), HEARTBEAT_MS);

  const turbo = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'turbo.cmd' : 'turbo');
  const args = ['run', task, ...filters.map((filter) => `--filter=${filter}`), '--output-logs=errors-only'];
  const build = spawn(turbo, args, {
    cwd: root,
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = [];
  build.stdout.on('data', (chunk) => output.push(chunk));
  build.stderr.on('data', (chunk) => output.push(chunk));
  const status = await new Promise((resolve) => {
    build.on('error', (error) => {
      output.push(Buffer.from(`${String(error)}\n`));
      resolve(1);
    });
    build.on('close', (code) => resolve(code ?? 1));
  });
  clearTimeout(first);
  clearInterval(heartbeat);
  if (status !== 0) {
    process.stderr.write(Buffer.concat(output));
    console.error(`The build of ${label} failed (see above).`);
    process.exit(status);
  }
  if (announced) say(`Built in ${seconds()} s.`);
}
