import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SPAWN_TIMEOUT, runNode } from 'rcp-test-utils';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

// Issue 40 item 8: in a runtime without a synchronous `require` (Workers, Deno, a bundle), a
// server whose response mapping has a filter selector is created with the engine given, and is
// refused the same way without it — whatever an unrelated call loaded before (on the old code,
// an earlier `prepareManifest` made the same call pass: module state).
describe('createRcpServer in a runtime without synchronous require', () => {
  it('takes the filter engine as an option; without it refuses, naming the option, before and after an unrelated prepareManifest', {
    timeout: SPAWN_TIMEOUT,
  }, async () => {
    const script = [
      'delete process.getBuiltinModule;', // as in an edge runtime
      "const { createRcpServer, defineTool } = await import('rcp-server');",
      "const { loadFilterEngine, prepareManifest } = await import('rcp-manifest');",
      'const tools = [defineTool({ name: "big_ones", description: "Big ones.", method: "GET", path: "/items", responseMappings: { big: "@items[?@.x > 1].x" }, handler: () => ({ items: [{ x: 1 }, { x: 2 }] }) })];',
      'const attempt = (options) => { try { createRcpServer({ tools, ...options }); return "created"; } catch (error) { return error.code + " " + /filterEngine option/.test(error.message); } };',
      'console.log(attempt({}));',
      "await prepareManifest({ rcpVersion: '0.1', tools: [{ responseMappings: { a: '@a[?@.b]' } }] });",
      'console.log(attempt({}));',
      'const server = createRcpServer({ tools, filterEngine: await loadFilterEngine() });',
      "const manifest = await (await server.fetch(new Request('http://127.0.0.1/rcp/manifest'))).json();",
      "const answer = await (await server.fetch(new Request('http://127.0.0.1/items'))).json();",
      'console.log(manifest.tools[0].responseMappings.big, JSON.stringify(answer));',
    ].join('\n');
    const run = await runNode(['--input-type=module', '-e', script], { cwd: packageDir });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n')).toEqual(['RCP_INVALID_MANIFEST true', 'RCP_INVALID_MANIFEST true', '@items[?@.x > 1].x {"items":[{"x":1},{"x":2}]}']);
  });
});
