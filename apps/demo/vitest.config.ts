import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    // The end-to-end tests run the built CLI (`dist/cli.js`); `pnpm test` builds it first.
    globalSetup: ['./vitest.global-setup.ts'],
  },
});
