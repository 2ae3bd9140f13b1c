import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared';

export default defineConfig({
  test: {
    ...sharedTestOptions,
    include: ['src/**/*.test.ts'],
    // Most tests run the built CLI in this process (src/fixtures/run-rcp.ts): the built packages
    // are loaded by Node as they are, not transformed again by Vite.
    server: { deps: { external: [/\/packages\/[^/]+\/dist\//] } },
  },
});
