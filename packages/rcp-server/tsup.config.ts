import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

// One entry per subpath: the web-standard core and one small adapter per framework.
export default defineConfig(
  packageBuild({
    entry: { index: 'src/index.ts', node: 'src/node.ts', express: 'src/express.ts', hono: 'src/hono.ts' },
  }),
);
