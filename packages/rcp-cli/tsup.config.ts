import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

// `cli` is the `rcp` bin and `mcp-cli` the `rcp-mcp` bin (dist/*.js, ESM, with their hashbangs). Split, so that the
// commands (and the client, OAuth, the gateway and the inspector they import) are chunks the runners import only
// when a command runs: `rcp --version` and `rcp --help` answer without loading them.
export default defineConfig({ ...packageBuild({ entry: { index: 'src/index.ts', cli: 'src/cli.ts', 'mcp-cli': 'src/mcp-cli.ts' } }), splitting: true });
