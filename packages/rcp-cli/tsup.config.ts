import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

// `cli` is the `rcp` bin (dist/cli.js, ESM, with its hashbang).
export default defineConfig(packageBuild({ entry: { index: 'src/index.ts', cli: 'src/cli.ts' } }));
