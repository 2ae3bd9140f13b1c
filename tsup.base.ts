import type { Options } from 'tsup';

/**
 * Shared tsup settings for every published package: ESM + CJS + .d.ts, one entry per
 * public subpath. ESM-only dependencies listed in `bundle` are inlined into the output
 * (the CJS build cannot `require()` them).
 */
export function packageBuild(options: { entry?: Record<string, string>; bundle?: (string | RegExp)[] } = {}): Options {
  return {
    entry: options.entry ?? { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'es2022',
    platform: 'neutral',
    // esbuild's own tree shaking (it bundles), not tsup's second pass through Rollup: that pass cost three quarters
    // of each build's CPU (rcp-client: 3.8 CPU-s → 1.0) to drop a few unused constants and merge duplicate imports
    // (rcp-client's index.js: 3% larger). A user's bundler tree-shakes what it takes from these files anyway.
    treeshake: false,
    splitting: false,
    // rcp-internal (the shared rules) is never published: every package that imports it carries its own copy.
    noExternal: ['rcp-internal', ...(options.bundle ?? [])],
    outExtension: ({ format }) => ({ js: format === 'cjs' ? '.cjs' : '.js' }),
  };
}
