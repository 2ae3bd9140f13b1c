#!/usr/bin/env node
// The `rcp-mcp` bin, for MCP host configurations. A committed file rather than dist/mcp-cli.js itself, so that
// `pnpm install` in a fresh clone can link it before anything is built (no "Failed to create bin" warning).
import('../dist/mcp-cli.js').catch((error) => {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/mcp-cli.js')) {
    console.error('rcp-mcp: rcp-cli is not built yet: run `pnpm build` in the repository first');
    process.exit(1);
  }
  throw error;
});
