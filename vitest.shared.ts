import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestUserConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Where a vitest run started in `dir` writes its JSON report: `.test-reports/<dir, its slashes as dashes>.json` at
 * the root, read by `scripts/test-times.mjs` (the slowest tests, at the end of `.ci/run`).
 */
export function testReportFile(dir: string = process.cwd()): string {
  const name = relative(root, dir).replaceAll(/[\\/]/g, '-') || 'root';
  return join(root, '.test-reports', `${name}.json`);
}

/**
 * What every package's vitest config shares.
 *
 * `isolate: false`: the test files of a package run in one worker that imports each module once,
 * instead of a fresh module graph per file. On CI's two cores that saves about a third of the
 * test CPU (most of a test file's cost is importing the SDKs it drives). It is safe because the
 * house rule holds: no module-level state in our code, and a test that fakes timers restores them.
 *
 * `testTimeout` 30 s and `hookTimeout` 60 s: the limits are sized for a loaded two-core CI, where
 * a test that starts real servers and a client can wait seconds for a core (at vitest's 5 s
 * default, a conformance case timed out on a loaded fresh clone). No test asserts a time; a
 * package that starts processes or a browser raises them in its own config.
 *
 * The time is visible: `slowTestThreshold` marks a test slower than 1 s in vitest's output, and
 * each run also writes a JSON report (every test's duration) that `scripts/test-times.mjs` ranks.
 */
export const sharedTestOptions: TestUserConfig = {
  isolate: false,
  testTimeout: 30_000,
  hookTimeout: 60_000,
  slowTestThreshold: 1_000,
  // The built packages a test imports (`packages/*/dist`) are loaded by Node as they are, not transformed again by
  // Vite: they are plain JavaScript already, and re-transforming them was a sixth of the run's CPU.
  server: { deps: { external: [/\/packages\/[^/]+\/dist\//] } },
  reporters: ['default', ['json', { outputFile: testReportFile() }]],
};
