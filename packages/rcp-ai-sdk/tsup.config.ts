import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

// Two entries: the tool set, and `rcp-ai-sdk/search` (tool search: loads rcp-search, an optional peer).
export default defineConfig(packageBuild({ entry: { index: 'src/index.ts', search: 'src/search.ts' } }));
