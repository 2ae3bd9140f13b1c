import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared';

export default defineConfig({
  // The property tests (fast-check, thousands of runs) take ~1 s alone and several when CI runs
  // every package at once on 2 cores; nothing here sleeps, and no test asserts a duration.
  test: { ...sharedTestOptions, include: ['src/**/*.test.ts'], testTimeout: 20_000 },
});
