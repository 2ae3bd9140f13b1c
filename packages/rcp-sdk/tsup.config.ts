import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

export default defineConfig(
  packageBuild({ entry: { manifest: 'src/manifest.ts', template: 'src/template.ts', client: 'src/client.ts', 'agent-core': 'src/agent-core.ts' } }),
);
