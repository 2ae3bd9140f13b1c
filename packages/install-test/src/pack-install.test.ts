/**
 * What "npm install" means for a user until the packages are on the registry: pack every
 * published package, install the tarballs with npm into a fresh project outside the workspace,
 * and run ESM and CJS smoke scripts against a local server — through `rcp-sdk/client`, and
 * through `rcp-client` installed with only the packages it depends on.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const smokeDir = fileURLToPath(new URL('../smoke', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'rcp-install-'));
const tarballs = join(work, 'tarballs');

/** The tarball of each package, by name. */
let packed: Map<string, string>;

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A fresh npm project outside the workspace with these tarballs installed, and the smoke scripts. */
function project(name: string, packages: readonly string[]): string {
  const dir = join(work, name);
  cpSync(smokeDir, dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true }));
  const files = packages.map((pkg) => {
    const file = packed.get(pkg);
    if (file === undefined) throw new Error(`no tarball for ${pkg}`);
    return file;
  });
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...files], dir);
  return dir;
}

function smoke(dir: string, script: string, specifier: string): Record<string, unknown> {
  return JSON.parse(run(process.execPath, [script, specifier], dir)) as Record<string, unknown>;
}

/** rcp-sdk and every package it depends on (the adapters are installed one by one, with their SDK). */
const CORE = ['rcp-errors', 'rcp-template', 'rcp-manifest', 'rcp-client', 'rcp-agent-core-bridge', 'rcp-sdk'];

const expected = {
  result: { ok: true, data: { id: 'n-1', title: 'Groceries' } },
  received: ['GET /rcp/manifest -', 'GET /users/u-1/notes/n-1 Bearer tok'],
};

beforeAll(() => {
  run(process.execPath, [join(root, 'scripts/pack.mjs'), tarballs], root);
  packed = new Map(readdirSync(tarballs).map((file) => [file.replace(/-\d+\.\d+\.\d+.*\.tgz$/, ''), join(tarballs, file)]));
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('packed tarballs installed with npm outside the workspace', () => {
  it('packs every published package, with no workspace: or catalog: version left', () => {
    expect([...packed.keys()].sort()).toEqual([
      'rcp-agent-core-bridge',
      'rcp-ai-sdk',
      'rcp-anthropic',
      'rcp-cli',
      'rcp-client',
      'rcp-errors',
      'rcp-gemini',
      'rcp-langchain',
      'rcp-manifest',
      'rcp-mcp',
      'rcp-oauth',
      'rcp-openai',
      'rcp-openai-agents',
      'rcp-openapi',
      'rcp-sdk',
      'rcp-search',
      'rcp-server',
      'rcp-template',
    ]);
    for (const file of packed.values()) {
      const manifest = run('tar', ['-xzOf', file, 'package/package.json'], work);
      expect(manifest, file).not.toMatch(/"(workspace|catalog):/);
    }
  });

  it('rcp-sdk with its siblings: rcp-sdk/client works from ESM and CommonJS', () => {
    const dir = project('with-sdk', CORE);
    expect(smoke(dir, 'smoke.mjs', 'rcp-sdk/client')).toMatchObject({ format: 'esm', ...expected });
    expect(smoke(dir, 'smoke.cjs', 'rcp-sdk/client')).toMatchObject({ format: 'cjs', spoof: 'refused', ...expected });
  });

  it('an adapter without an SDK peer (rcp-openai) installs beside rcp-client and loads from ESM and CommonJS', () => {
    const dir = project('with-openai-adapter', ['rcp-errors', 'rcp-template', 'rcp-manifest', 'rcp-client', 'rcp-openai']);
    const esm = run(process.execPath, ['--input-type=module', '-e', "import('rcp-openai').then((m) => console.log(typeof m.createOpenAITools))"], dir);
    const cjs = run(process.execPath, ['-e', "console.log(typeof require('rcp-openai').createOpenAITools)"], dir);
    expect([esm.trim(), cjs.trim()]).toEqual(['function', 'function']);
  });

  it('rcp-openapi installs with rcp-manifest and loads from ESM and CommonJS', () => {
    const dir = project('with-openapi', ['rcp-errors', 'rcp-template', 'rcp-manifest', 'rcp-openapi']);
    const esm = run(process.execPath, ['--input-type=module', '-e', "import('rcp-openapi').then((m) => console.log(typeof m.fromOpenApi))"], dir);
    const cjs = run(process.execPath, ['-e', "console.log(typeof require('rcp-openapi').fromOpenApi)"], dir);
    expect([esm.trim(), cjs.trim()]).toEqual(['function', 'function']);
  });

  it('rcp-client alone (with only what it depends on) works from ESM and CommonJS', () => {
    const dir = project('client-only', ['rcp-errors', 'rcp-template', 'rcp-manifest', 'rcp-client']);
    expect(readdirSync(join(dir, 'node_modules')).filter((name) => name.startsWith('rcp-'))).toEqual([
      'rcp-client',
      'rcp-errors',
      'rcp-manifest',
      'rcp-template',
    ]);
    expect(smoke(dir, 'smoke.mjs', 'rcp-client')).toMatchObject({ format: 'esm', ...expected });
    expect(smoke(dir, 'smoke.cjs', 'rcp-client')).toMatchObject({ format: 'cjs', spoof: 'refused', ...expected });
  });
});
