import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Tests that import the package by its name ('rcp-client', as users do) get the source, so they
  // run on a clean clone before any build.
  resolve: {
    alias: {
      'rcp-client': fileURLToPath(new URL('./src/index.ts', import.meta.url)),
      // Node runs the tests: the `node` condition of the package's `#connect-guard` import.
      '#connect-guard': fileURLToPath(new URL('./src/internal/connect-guard.node.ts', import.meta.url)),
    },
  },
  // Generous per-test limit: CI runs every package at once on 2 cores; no test asserts a duration.
  test: { include: ['src/**/*.test.ts'], testTimeout: 30_000 },
});
