import { defineConfig } from 'tsup';

// The bench is a private Node program: ESM only, no .d.ts, dependencies stay external so the
// contenders run exactly as installed.
export default defineConfig({
  entry: {
    run: 'src/run.ts',
    profile: 'src/profile.ts',
    'call-client': 'src/call-overhead/call-client.ts',
    'upstream-server': 'src/call-overhead/upstream-server.ts',
    'mcp-server': 'src/call-overhead/mcp-server.ts',
    'mcp-gateway-server': 'src/call-overhead/mcp-gateway-server.ts',
    'minimal-mcp-server': 'src/cold-start/minimal-mcp-server.ts',
    'heap-child': 'src/cold-start/heap-child.ts',
    'profile-search': 'src/search/profile-search.ts',
    'profile-gateway': 'src/call-overhead/profile-gateway.ts',
  },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  clean: true,
  sourcemap: true,
  splitting: true,
  dts: false,
  treeshake: true,
  // rcp-test-utils' README type check loads the TypeScript compiler (CommonJS, dynamic requires):
  // bundled into ESM it fails at import, and the bench never uses it.
  external: ['typescript'],
});
