import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared';

export default defineConfig({
  test: {
    ...sharedTestOptions,
    include: ['src/**/*.test.ts'],
    // Generous per-test limit: CI runs every package at once on 2 cores; no test asserts a duration.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The Agents SDK exports traces to api.openai.com unless told not to: nothing leaves this machine.
    env: { OPENAI_AGENTS_DISABLE_TRACING: '1' },
  },
});
