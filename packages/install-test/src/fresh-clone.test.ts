/**
 * A new user's first day, scripted: on a fresh `git clone` of this repository (its committed
 * HEAD) with Node and npm only — no pnpm on PATH, no pnpm in the environment — the README's
 * commands, in order:
 *
 *   npx -y pnpm@10.34.9 install      no "Failed to create bin" warning; the bins are linked
 *   npx -y pnpm@10.34.9 demo         progress on stderr while the first build runs, then the demo
 *   npx -y pnpm@10.34.9 tarballs     the install-from-source step: one tarball per package
 *
 * then a scratch app in the OS temp folder (outside the repository) that installs the tarballs
 * with npm and compiles, with strict tsc, a `defineManifest` with a JSON body — and a typo that
 * the compiler's error names.
 *
 * Then what "npm install" means for a user until the packages are on the registry, with the same
 * tarballs (packed once: packing all of them is the costly step): each installed with npm into a
 * fresh project outside the workspace, and ESM and CJS smoke scripts run against a local server —
 * through `rcp-sdk/client`, and through `rcp-client` installed with only the packages it depends on.
 * The tarballs are the committed HEAD's, as a user's clone would pack them.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandTarballs, readmeBuildLine, readmeTarballLine } from './readme-lines';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const PNPM = 'pnpm@10.34.9';
/** A cold build on a busy 2-core machine: minutes. */
const BUILD_TIMEOUT = 20 * 60_000;

const work = mkdtempSync(join(tmpdir(), 'rcp-fresh-clone-'));
const clone = join(work, 'rcp');
const app = join(work, 'scratch-app');
const smokeDir = fileURLToPath(new URL('../smoke', import.meta.url));

/**
 * A PATH of Node, npm and the system's tools without pnpm: a folder of links to every program on
 * the system PATH except pnpm, pnpx, corepack and yarn (the workspace's node_modules/.bin left out).
 */
function nodeAndNpmOnlyPath(): string {
  const bin = join(work, 'bin');
  mkdirSync(bin);
  const excluded = new Set(['pnpm', 'pnpx', 'corepack', 'yarn', 'yarnpkg']);
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '' || dir.startsWith(root) || dir.includes(`${sep}pnpm${sep}`) || dir.includes('node_modules') || !existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (excluded.has(name) || existsSync(join(bin, name))) continue;
      try {
        if (statSync(join(dir, name)).isFile()) symlinkSync(join(dir, name), join(bin, name));
      } catch {
        // a dangling link on the system PATH is not ours to fix
      }
    }
  }
  return bin;
}

/** The environment of a shell on that machine: no pnpm, npm or vitest variables from this run. */
function userEnvironment(path: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_|PNPM_|COREPACK_|VITEST|TURBO_|INIT_CWD$|NODE_ENV$|NODE_OPTIONS$|RCP_TEST)/.test(key)) continue;
    env[key] = value;
  }
  // The builds the clone runs are the ones this checkout's `pnpm test` has just made from the same
  // commit: turbo's local cache (content-hashed) lets the clone replay them instead of building
  // everything a second time — what keeps this test inside CI's time. A commit that differs builds.
  return { ...env, PATH: path, TURBO_CACHE_DIR: join(root, '.turbo', 'cache') };
}

let env: NodeJS.ProcessEnv;

/** Runs a command the way a person types it, capturing stdout and stderr apart. */
function run(command: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

const npx = (args: string[], cwd = clone) => run('npx', ['-y', PNPM, ...args], cwd);

beforeAll(() => {
  env = userEnvironment(nodeAndNpmOnlyPath());
  execFileSync('git', ['clone', '--quiet', root, clone], { stdio: 'ignore' });
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('a fresh clone with Node and npm only, as the README says', () => {
  it('has no pnpm on its PATH (the premise)', async () => {
    expect((await run('npm', ['--version'], work)).code).toBe(0);
    await expect(run('pnpm', ['--version'], work)).rejects.toThrow(/ENOENT/);
  });

  it(`npx -y ${PNPM} install: no "Failed to create bin" warning, and the bins are linked`, { timeout: BUILD_TIMEOUT }, async () => {
    const { code, stdout, stderr } = await npx(['install']);
    expect(code, stderr).toBe(0);
    expect(stdout + stderr).not.toMatch(/Failed to create bin|ENOENT/);
    expect(existsSync(join(clone, 'packages/install-test/node_modules/.bin/rcp'))).toBe(true);
    expect(existsSync(join(clone, 'packages/install-test/node_modules/.bin/rcp-mcp'))).toBe(true);
  });

  it('a linked bin run before any build says what to do, in one line', async () => {
    const { code, stderr } = await run(join(clone, 'packages/install-test/node_modules/.bin/rcp'), ['--help'], clone);
    expect([code, stderr.trim()]).toEqual([1, 'rcp: rcp-cli is not built yet: run `pnpm build` in the repository first']);
  });

  it(`npx -y ${PNPM} demo: says on stderr that the first build runs, then prints the demo on stdout`, { timeout: BUILD_TIMEOUT }, async () => {
    const { code, stdout, stderr } = await npx(['demo']);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/^Building rcp-demo and the packages it needs \(first run only: about a minute/m);
    expect(stderr).toMatch(/^Built in \d+ s\.$/m);
    expect(stdout).toContain('RCP demo — an AI agent calls a learning platform');
    expect(stdout).toMatch(/✓ 4 calls made, 7 attacks stopped, 0 unexpected requests/);
    // Built now: a second run does not claim a first build (pnpm's own "> rcp-monorepo@ demo" lines are on stdout).
    const again = await npx(['demo', '--json']);
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain('first run');
    expect(JSON.parse(again.stdout.slice(again.stdout.indexOf('{')))).toMatchObject({ ok: true });
  });

  it(`the README's install-from-source line (npx -y ${PNPM} … tarballs) writes one tarball per published package`, { timeout: BUILD_TIMEOUT }, async () => {
    const line = readmeBuildLine(readFileSync(join(clone, 'README.md'), 'utf8'));
    expect(line).toBe(`npx -y ${PNPM} install && npx -y ${PNPM} tarballs`);
    const { code, stdout, stderr } = await npx(['tarballs']);
    expect(code, stderr).toBe(0);
    const tarballs = stdout.split('\n').filter((line) => line.endsWith('.tgz'));
    expect(tarballs).toHaveLength(18);
    for (const file of tarballs) expect(file.startsWith(join(clone, 'tarballs') + sep) && existsSync(file), file).toBe(true);
    // The bins run the build now, by the path an MCP host's configuration gives.
    const mcp = await run('node', [join(clone, 'packages/rcp-cli/bin/rcp-mcp.js'), '--help'], work);
    expect([mcp.code, mcp.stdout]).toEqual([0, expect.stringContaining('Usage: rcp-mcp <url|file>')]);
  });

  it('a scratch app outside the repository installs the tarballs and compiles a defineManifest with a JSON body (strict tsc)', {
    timeout: BUILD_TIMEOUT,
  }, async () => {
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'scratch-app', version: '1.0.0', private: true, type: 'module' }));
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', outDir: 'out', skipLibCheck: false },
        files: ['manifest.ts'],
      }),
    );
    writeFileSync(
      join(app, 'manifest.ts'),
      `import { defineManifest } from 'rcp-manifest';

export const manifest = defineManifest({
  rcpVersion: '0.1',
  auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
  tools: [
    {
      name: 'create_note',
      description: 'Creates a note.',
      method: 'POST',
      url: '/notes',
      params: [
        { name: 'title', type: 'string', required: true },
        { name: 'tags', type: 'array', items: { type: 'string' }, default: ['inbox'] },
        { name: 'meta', type: 'object', properties: { color: { type: 'string' } }, default: { color: 'blue' } },
      ],
      body: { title: '{{title}}', tags: '{{tags}}', meta: '{{meta}}', source: { app: 'scratch', flags: [true, null] } },
    },
  ],
});
const app: 'scratch' = manifest.tools[0].body.source.app;
console.log(JSON.stringify({ app, body: manifest.tools[0].body }));
`,
    );
    // Exactly what rcp-manifest's README says to install.
    const files = expandTarballs(readmeTarballLine(readFileSync(join(clone, 'packages/rcp-manifest/README.md'), 'utf8')), clone);
    expect(files).toHaveLength(3);
    const install = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...files], app);
    expect(install.code, install.stderr).toBe(0);
    const tsc = [join(clone, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'];
    const compiled = await run('node', tsc, app);
    expect([compiled.code, compiled.stdout]).toEqual([0, '']);
    const ran = await run('node', ['out/manifest.js'], app);
    expect(JSON.parse(ran.stdout)).toEqual({
      app: 'scratch',
      body: { title: '{{title}}', tags: '{{tags}}', meta: '{{meta}}', source: { app: 'scratch', flags: [true, null] } },
    });

    // A typo is a compile error that names the key.
    writeFileSync(
      join(app, 'typo.ts'),
      `import { defineManifest } from 'rcp-manifest';
defineManifest({ rcpVersion: '0.1', tools: [{ name: 'get_note', description: 'Gets a note.', method: 'GET', url: '/notes/{{noteId}}', params: [{ name: 'noteId', requried: true }] }] });
`,
    );
    const typo = await run('node', [...tsc.slice(0, 1), '--strict', '--noEmit', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', 'typo.ts'], app);
    expect(typo.code).not.toBe(0);
    expect(typo.stdout).toContain('UnknownManifestKey<"requried">');
  });
});

/** The tarball of each package, by name. */
let packed: Map<string, string>;

function runSync(command: string, args: string[], cwd: string): string {
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
  runSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...files], dir);
  return dir;
}

function smoke(dir: string, script: string, specifier: string): Record<string, unknown> {
  return JSON.parse(runSync(process.execPath, [script, specifier], dir)) as Record<string, unknown>;
}

/** rcp-sdk and every package it depends on (the adapters are installed one by one, with their SDK). */
const CORE = ['rcp-errors', 'rcp-template', 'rcp-manifest', 'rcp-client', 'rcp-agent-core-bridge', 'rcp-sdk'];

const expected = {
  result: { ok: true, data: { id: 'n-1', title: 'Groceries' } },
  received: ['GET /rcp/manifest -', 'GET /users/u-1/notes/n-1 Bearer tok'],
};

describe('packed tarballs installed with npm outside the workspace', { timeout: BUILD_TIMEOUT }, () => {
  it('packs every published package, with no workspace: or catalog: version left', () => {
    const tarballs = join(clone, 'tarballs');
    packed = new Map(readdirSync(tarballs).map((file) => [file.replace(/-\d+\.\d+\.\d+.*\.tgz$/, ''), join(tarballs, file)]));
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
      'rcp-redis',
      'rcp-sdk',
      'rcp-search',
      'rcp-server',
      'rcp-template',
    ]);
    for (const file of packed.values()) {
      const manifest = runSync('tar', ['-xzOf', file, 'package/package.json'], work);
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
    const esm = runSync(process.execPath, ['--input-type=module', '-e', "import('rcp-openai').then((m) => console.log(typeof m.createOpenAITools))"], dir);
    const cjs = runSync(process.execPath, ['-e', "console.log(typeof require('rcp-openai').createOpenAITools)"], dir);
    expect([esm.trim(), cjs.trim()]).toEqual(['function', 'function']);
  });

  it('rcp-openapi installs with rcp-manifest and loads from ESM and CommonJS', () => {
    const dir = project('with-openapi', ['rcp-errors', 'rcp-template', 'rcp-manifest', 'rcp-openapi']);
    const esm = runSync(process.execPath, ['--input-type=module', '-e', "import('rcp-openapi').then((m) => console.log(typeof m.fromOpenApi))"], dir);
    const cjs = runSync(process.execPath, ['-e', "console.log(typeof require('rcp-openapi').fromOpenApi)"], dir);
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
