import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

// oauth4webapi is ESM only: the ESM build imports it (a dependency), the CJS build carries it
// inlined, so `require('rcp-oauth')` works on every Node 20, not only where require(esm) does.
export default defineConfig([
  { ...packageBuild(), format: ['esm'] },
  { ...packageBuild({ bundle: ['oauth4webapi'] }), format: ['cjs'], clean: false },
]);
