import { defineConfig } from 'tsup';

/**
 * The demo is a Node CLI, not a library: one ESM entry, no type declarations. Workspace
 * packages (`rcp-sdk`) stay external, so the demo runs against the SDK's built `dist/`.
 */
export default defineConfig({
  entry: { cli: 'src/cli.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  banner: { js: '#!/usr/bin/env node' },
  clean: true,
  dts: false,
  sourcemap: false,
  // Chunks let cli.js load the SDK-using modules lazily (--help works before the SDK is built).
  splitting: true,
});
