import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SPAWN_TIMEOUT, runNode } from 'rcp-test-utils';

const SUBPATHS = ['manifest', 'template', 'client', 'agent-core'] as const;
/** One function each subpath must expose. */
const PROBE = {
  manifest: 'parseManifest',
  template: 'compileRequest',
  client: 'createRcpClient',
  'agent-core': 'createRcpRegistry',
} as const;
const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe.each(SUBPATHS)('rcp-sdk/%s', (subpath) => {
  it('resolves for CommonJS: require() via createRequire loads the built .cjs', () => {
    const require = createRequire(import.meta.url);
    expect(require.resolve(`rcp-sdk/${subpath}`)).toBe(`${packageDir}dist/${subpath}.cjs`);
    const loaded = require(`rcp-sdk/${subpath}`) as Record<string, unknown>;
    expect(typeof loaded[PROBE[subpath]]).toBe('function');
    expect(typeof loaded.isRcpError).toBe('function');
  });

  it('resolves for ESM: a real Node import() loads the built .js', { timeout: SPAWN_TIMEOUT }, async () => {
    // Run in a plain Node process (not through Vite) so Node's own resolver is what is tested.
    const script = `
      const url = import.meta.resolve('rcp-sdk/${subpath}');
      const loaded = await import('rcp-sdk/${subpath}');
      console.log(JSON.stringify({ url, probe: typeof loaded['${PROBE[subpath]}'], guard: typeof loaded.isRcpError }));
    `;
    const { code, stdout } = await runNode(['--input-type=module', '-e', script], { cwd: packageDir });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      url: `file://${packageDir}dist/${subpath}.js`,
      probe: 'function',
      guard: 'function',
    });
  });

  it('resolves for ESM through the test runner too', async () => {
    const loaded = (await import(`rcp-sdk/${subpath}`)) as Record<string, unknown>;
    expect(typeof loaded[PROBE[subpath]]).toBe('function');
  });
});

describe('rcp-sdk root', () => {
  it('has no "." export: only the subpaths (and package.json) are public', () => {
    const require = createRequire(import.meta.url);
    expect(() => require.resolve('rcp-sdk')).toThrow();
    expect(require('rcp-sdk/package.json').name).toBe('rcp-sdk');
  });
});
