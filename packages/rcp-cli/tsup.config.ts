import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

// `cli` is the `rcp` bin (dist/cli.js, ESM, with its hashbang). Split, so that the commands (and
// the client, OAuth and the inspector they import) are a chunk `runCli` imports only when a
// command runs: `rcp --version` and `rcp --help` answer without loading them.
export default defineConfig({ ...packageBuild({ entry: { index: 'src/index.ts', cli: 'src/cli.ts' } }), splitting: true });
