import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared';

export default defineConfig({
  test: {
    ...sharedTestOptions,
    include: ['src/**/*.test.ts'],
    // The command lines run in this process (src/fixtures/run-rcp.ts), where host names ending in `.rcp-test`
    // resolve to 127.0.0.1 (a public-looking manifest host that is loopback, the rebinding cases), as the spawned
    // processes' preload did: no packet leaves this machine.
    setupFiles: [fileURLToPath(new URL('../../test/test-utils/fake-dns.mjs', import.meta.url))],
    // Most tests run the built CLI in this process: the built packages are loaded by Node as they are, not
    // transformed again by Vite.
    server: { deps: { external: [/\/packages\/[^/]+\/dist\//] } },
  },
});
