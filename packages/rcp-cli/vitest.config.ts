import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared';

export default defineConfig({
  test: {
    ...sharedTestOptions,
    include: ['src/**/*.test.ts'],
    // Generous per-test limit: CI runs every package at once on 2 cores; no test asserts a duration.
    testTimeout: 30_000,
    // Most tests run the built CLI in this process (src/fixtures/run-rcp.ts): the built packages
    // are loaded by Node as they are, not transformed again by Vite.
    server: { deps: { external: [/\/packages\/[^/]+\/dist\//] } },
  },
});
