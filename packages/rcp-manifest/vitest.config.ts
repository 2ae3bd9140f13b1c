import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared';

export default defineConfig({
  // The property tests (fast-check, thousands of runs each) are pure CPU: ~1-2 s alone, 25-28 s on a fresh clone's
  // CI with three other workloads on the 2 cores (two of them timed out at 20 s there). Nothing here sleeps, no test
  // asserts a duration, and a hang is still caught: 60 s is the limit for this package.
  test: { ...sharedTestOptions, include: ['src/**/*.test.ts'], testTimeout: 60_000 },
});
