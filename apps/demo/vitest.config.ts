import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // The end-to-end tests run the built CLI (`dist/cli.js`); `pnpm test` builds it first.
    globalSetup: ['./vitest.global-setup.ts'],
  },
});
