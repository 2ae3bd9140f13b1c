import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

// `json-schema` is an internal entry (not in the exports map): scripts/write-schema.mjs reads it
// after the build to write rcp-manifest.schema.json.
//
// Cold start (issue 26): the TypeBox builders the schemas use are bundled (tree-shaken) so that
// building them costs one small module, not TypeBox's ~200 files; `splitting` puts the schemas in
// one chunk that the main entry (deprecated re-exports) and `rcp-manifest/schema` share, so both
// hand out the same objects. TypeBox stays a dependency: the .d.ts files use its types, and the
// schemas carry its `Symbol.for` markers, so the user's own TypeBox reads them.
export default defineConfig({
  ...packageBuild({
    entry: { index: 'src/index.ts', schema: 'src/schema.ts', 'json-schema': 'src/internal/manifest-json-schema.ts' },
    bundle: ['@sinclair/typebox'],
  }),
  splitting: true,
  // The filter engine's synchronous load on Node (src/internal/filter-engine.ts) resolves from
  // `import.meta.url`, which the CJS build gets from tsup's shim.
  shims: true,
});
