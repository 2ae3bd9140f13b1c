#!/usr/bin/env node
// The `rcp` bin. A committed file rather than dist/cli.js itself, so that `pnpm install` in a fresh
// clone can link it before anything is built (no "Failed to create bin" warning). It runs the built CLI.
import('../dist/cli.js').catch((error) => {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli.js')) {
    console.error('rcp: rcp-cli is not built yet: run `pnpm build` in the repository first');
    process.exit(1);
  }
  throw error;
});
