import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

// `cli` is the `rcp-mcp` bin (dist/cli.js, ESM, with its hashbang); `command-line` the vocabulary
// it shares with the `rcp` bin (`rcp-mcp/command-line`).
export default defineConfig(packageBuild({ entry: { index: 'src/index.ts', cli: 'src/cli.ts', 'command-line': 'src/command-line.ts' } }));
