import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

const entry = { index: 'src/index.ts', testing: 'src/testing.ts' };

// oauth4webapi is ESM only: the ESM build imports it (a dependency), the CJS build carries it
// inlined, so `require('rcp-oauth')` works on every Node 20, not only where require(esm) does.
// `testing` loads oidc-provider (an optional peer) at run time and never bundles it.
export default defineConfig([
  { ...packageBuild({ entry }), format: ['esm'] },
  { ...packageBuild({ entry, bundle: ['oauth4webapi'] }), format: ['cjs'], clean: false },
]);
