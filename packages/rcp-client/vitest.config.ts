import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared';

const source = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/**
 * Every test that sends a request runs twice, once per platform transport, as the package's `#transport` import
 * resolves it: `node` (undici's dispatch(), with the connect-time address check) and `default`
 * (fetch, what browsers, edge runtimes, Deno and Bun get). Tests that import the package by its
 * name ('rcp-client', as users do) get the source, so they run on a clean clone before any build.
 * `RCP_TEST_TRANSPORT` tells the few tests of Node-only behaviour which run they are in.
 */
function project(name: 'undici' | 'fetch', transport: string, exclude: readonly string[] = []) {
  return {
    extends: true as const,
    root: source('.'),
    resolve: { alias: { 'rcp-client': source('./src/index.ts'), '#transport': source(transport) } },
    test: { name: `rcp-client (${name})`, include: ['src/**/*.test.ts'], exclude: [...exclude], env: { RCP_TEST_TRANSPORT: name } },
  };
}

/**
 * Tests that never reach a transport run once: pure functions (no server, no request), and tests
 * that spawn Node on the built package (the spawned process picks its transport by Node's own
 * export conditions, so the alias does not reach it).
 */
const TRANSPORT_FREE = [
  'src/http-error.test.ts',
  'src/terminal-text.test.ts',
  'src/parse-tool-arguments.test.ts',
  'src/readme.test.ts',
  'src/lazy-transport.test.ts',
  'src/internal/trust/address-class.test.ts',
  'src/internal/trust/network-boundary.test.ts',
  'src/internal/respond/base64.test.ts',
  'src/internal/send/deadline.test.ts',
  'src/internal/respond/decode-response.test.ts',
  'src/internal/respond/link-header.test.ts',
  'src/internal/discovery/param-names.test.ts',
  'src/internal/redaction/redact.test.ts',
  'src/internal/send/redirect-policy.test.ts',
  'src/internal/trust/trust.test.ts',
  'src/internal/send/www-authenticate.test.ts',
  // Node's own transport, imported by path: the same in both runs.
  'src/internal/send/transport.node.test.ts',
];

/** The two runs, as projects: this config's, and the repository's one vitest run (the root vitest.config.ts) takes them as they are. */
export const clientProjects = [
  project('undici', './src/internal/send/transport.node.ts'),
  project('fetch', './src/internal/send/transport.ts', TRANSPORT_FREE),
];

export default defineConfig({
  test: {
    // One module registry per worker, not per file (see vitest.shared.ts): re-importing the sources
    // for each of ~45 files × 2 transports was most of this suite's time (143 s → 22 s on 2 cores).
    ...sharedTestOptions,
    projects: clientProjects,
  },
});
