import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared';

export default defineConfig({
  // Generous limits: CI runs every package at once on 2 cores, and one suite imports a 500-operation
  // OpenAPI document in its beforeAll (over 10 s on a loaded machine). No test asserts a duration.
  test: { ...sharedTestOptions, include: ['src/**/*.test.ts'] },
});
