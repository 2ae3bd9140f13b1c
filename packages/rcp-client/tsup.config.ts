import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

// `#transport` stays an import: the package's `imports` map picks undici's request() (with the
// connect-time address check) under the `node` condition and fetch elsewhere, so browser bundles never carry undici.
export default defineConfig({
  ...packageBuild({
    entry: {
      index: 'src/index.ts',
      transport: 'src/internal/send/transport.ts',
      'transport.node': 'src/internal/send/transport.node.ts',
    },
  }),
  external: ['#transport'],
});
