import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared';

export default defineConfig({
  // Generous per-test limit: CI runs every package at once on 2 cores; no test asserts a duration.
  test: { ...sharedTestOptions, include: ['src/**/*.test.ts'], testTimeout: 30_000 },
});
