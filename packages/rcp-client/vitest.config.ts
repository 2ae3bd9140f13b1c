import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/**
 * Every test runs twice, once per platform transport, as the package's `#transport` import
 * resolves it: `node` (undici's request(), with the connect-time address check) and `default`
 * (fetch, what browsers, edge runtimes, Deno and Bun get). Tests that import the package by its
 * name ('rcp-client', as users do) get the source, so they run on a clean clone before any build.
 * `RCP_TEST_TRANSPORT` tells the few tests of Node-only behaviour which run they are in.
 */
function project(name: 'undici' | 'fetch', transport: string) {
  return {
    extends: true as const,
    resolve: { alias: { 'rcp-client': source('./src/index.ts'), '#transport': source(transport) } },
    test: { name, include: ['src/**/*.test.ts'], env: { RCP_TEST_TRANSPORT: name } },
  };
}

export default defineConfig({
  test: {
    projects: [project('undici', './src/internal/transport.node.ts'), project('fetch', './src/internal/transport.ts')],
  },
});
