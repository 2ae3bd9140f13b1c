import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared';

export default defineConfig({
  test: {
    ...sharedTestOptions,
    include: ['src/**/*.test.ts'],
    // The end-to-end tests run the built CLI (`dist/cli.js`); `pnpm test` builds it first.
    globalSetup: ['./vitest.global-setup.ts'],
  },
});
