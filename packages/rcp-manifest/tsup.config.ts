import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

// `json-schema` is an internal entry (not in the exports map): scripts/write-schema.mjs reads it
// after the build to write rcp-manifest.schema.json.
export default defineConfig(
  packageBuild({ entry: { index: 'src/index.ts', 'json-schema': 'src/internal/manifest-json-schema.ts' } }),
);
