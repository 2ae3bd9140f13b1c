import { defineConfig } from 'vitest/config';
import { clientProjects } from './packages/rcp-client/vitest.config';
import { sharedTestOptions } from './vitest.shared';

/**
 * The repository's one vitest run (`pnpm test:vitest`, turbo's `//#test:vitest` in `pnpm test`): every workspace's
 * tests as a project of one process, each with its own config. One vitest start instead of ~30 saved ~65 CPU-s of
 * the ~440 the tests took (each start costs ~2 CPU-s before a test runs, more with pnpm's). Not here: install-test
 * (it waits for the tarballs, its own turbo task) and the Python client (pytest).
 *
 * A package's own `pnpm test` (`vitest run` in its folder) runs its config alone, as before.
 */
export default defineConfig({
  test: {
    ...sharedTestOptions,
    // Two at once, as turbo ran two packages' runs at once on two cores; a project's files share a worker.
    maxWorkers: 2,
    projects: [
      'packages/!(rcp-client)/vitest.config.ts',
      // rcp-client's config holds two projects (its tests once per transport); a project config cannot nest them.
      ...clientProjects,
      'apps/*/vitest.config.ts',
      'bench/vitest.config.ts',
      'conformance/vitest.config.ts',
      'internal/vitest.config.ts',
      'test/!(install-test)/vitest.config.ts',
    ],
  },
});
