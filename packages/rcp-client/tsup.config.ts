import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

// `#connect-guard` stays an import: the package's `imports` map picks the Node guard (undici)
// under the `node` condition and the no-op elsewhere, so browser bundles never carry undici.
export default defineConfig({
  ...packageBuild({
    entry: {
      index: 'src/index.ts',
      'connect-guard': 'src/internal/connect-guard.ts',
      'connect-guard.node': 'src/internal/connect-guard.node.ts',
    },
  }),
  external: ['#connect-guard'],
});
