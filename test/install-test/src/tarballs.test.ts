/**
 * What "npm install" means for a user until the packages are on the registry: the tarballs, packed
 * once as a release packs them (test/workspace-checks' `tarballs` task, the README's
 * `pnpm tarballs`; check:package checks the same files), all installed with npm into ONE scratch
 * project in the OS temp folder, outside the workspace. Then, from that project: ESM and CJS smoke
 * scripts against a local server, through `rcp-sdk/client` and through `rcp-client`; every package
 * without a required peer loaded from ESM and CommonJS; a strict `tsc` of a `defineManifest` with a
 * JSON body, and of a typo the compiler's error names; and the three programs a new user writes first, taken from the
 * READMEs as printed — rcp-server's smallest server, its OAuth-protected server (rcp-oauth/testing's local
 * authorization server, jose in `verify`) and an agent loop against rcp-model-fake with the real OpenAI SDK —
 * compiled by the same strict `tsc` run, with no cast, then run. That one project holds every package, so
 * "works with only what it declares" is checked in each package's built files: every module it
 * imports is a Node built-in, itself, or a dependency or peer it declares.
 *
 * What a fresh clone's user sees (install with no bin warning, a bin before the build, the first
 * `pnpm demo`) is checked on CI's own output, by `.ci/run`, which is that fresh clone.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { builtinModules } from 'node:module';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { NOTES_TOKEN, readmeBlock, startNotesApi, toolRequestLines } from 'rcp-test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const tarballsDir = join(root, 'test', 'workspace-checks', 'tarballs');
const smokeDir = fileURLToPath(new URL('../smoke', import.meta.url));

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** Every published package of the workspace, by name. */
const published = new Map<string, Manifest>(
  readdirSync(join(root, 'packages'))
    .map((dir) => join(root, 'packages', dir, 'package.json'))
    .filter((file) => {
      try {
        return statSync(file).isFile();
      } catch {
        return false;
      }
    })
    .map((file) => JSON.parse(readFileSync(file, 'utf8')) as Manifest)
    .filter((manifest) => manifest.private !== true)
    .map((manifest) => [manifest.name, manifest]),
);
const names = [...published.keys()].sort();

const app = mkdtempSync(join(tmpdir(), 'rcp-tarballs-'));

/** The exact version the pnpm catalog pins for a third-party package (pnpm-workspace.yaml, `catalog:`). */
function catalogVersion(name: string): string {
  const workspace = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const quoted = name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const match = new RegExp(`^\\s+"?${quoted}"?:\\s*(\\S+)\\s*$`, 'm').exec(workspace);
  if (match === null) throw new Error(`${name} is not in the pnpm catalog`);
  return match[1]!;
}

/**
 * What the README programs need beside the tarballs, at the catalog's versions: the OpenAI SDK (the agent loop),
 * oidc-provider (rcp-oauth/testing's optional peer) and jose (the API's token check), and Node's types for strict tsc.
 */
const thirdParty = ['openai', 'oidc-provider', 'jose', '@types/node'].map((name) => `${name}@${catalogVersion(name)}`);

/** The README programs the scratch app is made of: file name, README, and the marker of the block. */
const readmePrograms = [
  { file: 'server.ts', readme: 'packages/rcp-server/README.md', marker: 'example:smallest-server' },
  { file: 'oauth.ts', readme: 'packages/rcp-server/README.md', marker: 'snippet:oauth-end-to-end' },
  { file: 'agent.ts', readme: 'packages/rcp-model-fake/README.md', marker: 'snippet:agent-loop' },
] as const;
const readmeSource = (readme: string, marker: string) => readmeBlock(join(root, readme), marker);

/** The casts of a TypeScript source, read from its syntax tree: `x as T` (but `as const`), `<T>x`, `any`, `@ts-` comments. */
function castsIn(source: string): string[] {
  const file = ts.createSourceFile('program.ts', source, ts.ScriptTarget.ES2022, true);
  const found: string[] = source.includes('@ts-') ? ['@ts- comment'] : [];
  const visit = (node: ts.Node): void => {
    const isConst = ts.isAsExpression(node) && ts.isTypeReferenceNode(node.type) && node.type.getText(file) === 'const';
    if ((ts.isAsExpression(node) && !isConst) || ts.isTypeAssertionExpression(node) || node.kind === ts.SyntaxKind.AnyKeyword) found.push(node.getText(file));
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Runs a command in the scratch project; resolves with its exit code and output (never rejects for an exit code). */
function run(command: string, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, [...args], { cwd: app, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

async function node(args: readonly string[]): Promise<string> {
  const { code, stdout, stderr } = await run(process.execPath, args);
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited ${code}: ${stderr}`);
  return stdout;
}

// One `npm install` of every tarball: npm reads each, resolves and fetches their third-party dependencies (from its
// cache when it has them, else the registry) and links them — tens of seconds on a cold 2-core machine, so the hook
// has the limit of a network install, not vitest's 10 s. Peers are left to the user, as npm 6 did
// (`--legacy-peer-deps`): the adapters' frameworks are not installed and those adapters are not loaded here.
beforeAll(async () => {
  cpSync(smokeDir, app, { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'scratch-app', version: '1.0.0', private: true, type: 'module' }));
  const files = names.map((name) => join(tarballsDir, `${name}-${published.get(name)!.version}.tgz`));
  const install = await run('npm', [
    'install',
    '--no-audit',
    '--no-fund',
    '--prefer-offline',
    '--legacy-peer-deps',
    '--loglevel=error',
    ...files,
    ...thirdParty,
  ]);
  if (install.code !== 0) throw new Error(`npm install of the tarballs exited ${install.code}: ${install.stderr}`);
}, 600_000);
afterAll(() => {
  rmSync(app, { recursive: true, force: true, maxRetries: 3 });
});

const installed = (name: string): Manifest => JSON.parse(readFileSync(join(app, 'node_modules', name, 'package.json'), 'utf8')) as Manifest;

it('installs one tarball of every published package, with no workspace: or catalog: version left', () => {
  expect(readdirSync(join(app, 'node_modules')).filter((name) => name.startsWith('rcp-'))).toEqual(names);
  for (const name of names) {
    const manifest = installed(name);
    expect(manifest.version, name).toBe(published.get(name)!.version);
    expect(JSON.stringify(manifest), name).not.toMatch(/"(workspace|catalog):/);
  }
});

/** Every file of a folder, recursively. */
function filesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesOf(join(dir, entry.name)) : [join(dir, entry.name)]));
}

/**
 * The package names a built file imports — `from '…';`, `import '…';`, `import('…')`, `require('…')` — relative paths
 * and `node:` and `#` imports left out (`require('u' + 'rl')`, esbuild's shim, is not a specifier).
 */
function importedPackages(source: string): Set<string> {
  const found = new Set<string>();
  for (const match of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']([@\w][\w.@/:-]*)["']\s*(?=[);,\n]|$)/g)) {
    const specifier = match[1]!;
    if (specifier.startsWith('node:') || specifier.startsWith('#')) continue;
    const parts = specifier.split('/');
    found.add(specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!);
  }
  return found;
}

describe.each(names)('%s, installed from its tarball', (name) => {
  it('imports only Node built-ins, itself and the dependencies and peers it declares', () => {
    const manifest = installed(name);
    const declared = new Set([name, ...builtinModules, ...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
    const dir = join(app, 'node_modules', name);
    const built = filesOf(join(dir, 'dist')).filter((file) => /\.(c|m)?js$/.test(file));
    expect(built.length, name).toBeGreaterThan(0);
    const undeclared = built.flatMap((file) =>
      [...importedPackages(readFileSync(file, 'utf8'))]
        .filter((imported) => !declared.has(imported))
        .map((imported) => `${file.slice(dir.length + 1)}: ${imported}`),
    );
    expect(undeclared).toEqual([]);
  });
});

it('the scan sees the imports of a built file: rcp-client imports undici, tldts and ipaddr.js', () => {
  const dir = join(app, 'node_modules', 'rcp-client', 'dist');
  const imported = new Set(filesOf(dir).flatMap((file) => [...importedPackages(readFileSync(file, 'utf8'))]));
  expect([...imported]).toEqual(expect.arrayContaining(['undici', 'tldts', 'ipaddr.js', 'rcp-manifest']));
});

const expected = {
  result: { ok: true, data: { id: 'n-1', title: 'Groceries' } },
  received: ['GET /rcp/manifest -', 'GET /users/u-1/notes/n-1 Bearer tok'],
};

it.each(['rcp-sdk/client', 'rcp-client'])('%s discovers and calls from ESM and from CommonJS', async (specifier) => {
  const [esm, cjs] = await Promise.all([node(['smoke.mjs', specifier]), node(['smoke.cjs', specifier])]);
  expect(JSON.parse(esm)).toMatchObject({ format: 'esm', ...expected });
  expect(JSON.parse(cjs)).toMatchObject({ format: 'cjs', spoof: 'refused', ...expected });
});

it('every package without a required peer loads from ESM and from CommonJS', async () => {
  const requiresPeer = (name: string) => {
    const { peerDependencies = {}, peerDependenciesMeta = {} } = installed(name);
    return Object.keys(peerDependencies).some((peer) => peerDependenciesMeta[peer]?.optional !== true && !names.includes(peer));
  };
  // Each package by its name, or by each subpath it exports when it has no `.` (rcp-sdk).
  const loadable = names
    .filter((name) => !requiresPeer(name))
    .flatMap((name) => {
      const exported = Object.keys((installed(name) as { exports?: Record<string, unknown> }).exports ?? { '.': null });
      return exported.includes('.') ? [name] : exported.filter((key) => key !== './package.json').map((key) => `${name}/${key.slice(2)}`);
    });
  // A package that needs its framework: the adapters for the AI SDK, LangChain and the Agents SDK, and rcp-redis.
  expect(names.filter(requiresPeer)).toEqual(['rcp-ai-sdk', 'rcp-langchain', 'rcp-openai-agents', 'rcp-redis']);
  const list = JSON.stringify(loadable);
  const [esm, cjs] = await Promise.all([
    node([
      '--input-type=module',
      '-e',
      `const out = {}; for (const name of ${list}) out[name] = Object.keys(await import(name)).length > 0; console.log(JSON.stringify(out));`,
    ]),
    node(['-e', `const out = {}; for (const name of ${list}) out[name] = Object.keys(require(name)).length > 0; console.log(JSON.stringify(out));`]),
  ]);
  const everyOne = Object.fromEntries(loadable.map((name) => [name, true]));
  expect([JSON.parse(esm), JSON.parse(cjs)]).toEqual([everyOne, everyOne]);
});

// One strict tsc program over the scratch project's installed declarations: the defineManifest files and the three
// README programs. About 8 s for the first two on a quiet two-core machine, past the shared 30 s limit at load 20
// (seen in a run beside three others); the README programs add the OpenAI SDK's and oidc-provider's types. No time
// is asserted; each test that waits for it has the spawn limit every process-starting test has.
let compiled: Promise<{ code: number; stdout: string; stderr: string }> | undefined;
function compileOnce(): Promise<{ code: number; stdout: string; stderr: string }> {
  compiled ??= (async () => {
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', outDir: 'out', skipLibCheck: false },
        files: ['manifest.ts', 'typo.ts', ...readmePrograms.map((program) => program.file)],
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
    writeFileSync(
      join(app, 'typo.ts'),
      `import { defineManifest } from 'rcp-manifest';
defineManifest({ rcpVersion: '0.1', tools: [{ name: 'get_note', description: 'Gets a note.', method: 'GET', url: '/notes/{{noteId}}', params: [{ name: 'noteId', requried: true }] }] });
`,
    );
    for (const program of readmePrograms) writeFileSync(join(app, program.file), readmeSource(program.readme, program.marker));
    // One compiler run over every file: the errors are the typo's alone, and the other files are emitted and run.
    return run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json']);
  })();
  return compiled;
}

it('compiles a defineManifest with a JSON body with strict tsc, and a typo is a compile error that names the key', { timeout: 120_000 }, async () => {
  const { code, stdout } = await compileOnce();
  const errors = stdout.split('\n').filter((line) => /error TS\d+/.test(line));
  expect(code).not.toBe(0);
  expect(errors.length).toBeGreaterThan(0);
  for (const error of errors) expect(error).toMatch(/^typo\.ts\(/);
  expect(stdout).toContain('UnknownManifestKey<"requried">');
  expect(JSON.parse(await node(['out/manifest.js']))).toEqual({
    app: 'scratch',
    body: { title: '{{title}}', tags: '{{tags}}', meta: '{{meta}}', source: { app: 'scratch', flags: [true, null] } },
  });
});

describe('the README programs, as printed, in the scratch app', () => {
  it('compile with strict tsc and no cast (no `as` but `as const`, no `<T>x`, no `any`, no @ts- comment)', { timeout: 120_000 }, async () => {
    const { stdout } = await compileOnce();
    for (const program of readmePrograms) {
      expect(stdout, program.file).not.toContain(`${program.file}(`);
      expect(castsIn(readFileSync(join(app, program.file), 'utf8')), program.file).toEqual([]);
    }
  });

  it("rcp-server's smallest server serves its manifest and checks the bound param", { timeout: 120_000 }, async () => {
    await compileOnce();
    const child = spawn(process.execPath, ['out/server.js'], { cwd: app, env: { ...process.env, PORT: '0', API_TOKEN: 'scratch-token' } });
    try {
      let printed = '';
      child.stdout.setEncoding('utf8');
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: string) => {
          printed += chunk;
          const match = /RCP manifest: (http:\/\/127\.0\.0\.1:\d+\/rcp\/manifest)/.exec(printed);
          if (match !== null) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`out/server.js exited ${code} before listening: ${printed}`)));
      });
      const origin = new URL(url).origin;
      const manifest = (await (await fetch(url)).json()) as { tools: { name: string }[] };
      expect(manifest.tools.map((tool) => tool.name)).toEqual(['list_notes']);
      const auth = { authorization: 'Bearer scratch-token' };
      const own = await fetch(`${origin}/users/u-1/notes?word=Groc`, { headers: auth });
      expect([own.status, await own.json()]).toEqual([200, { notes: [{ id: 'n-1', title: 'Groceries' }] }]);
      expect((await fetch(`${origin}/users/u-2/notes`, { headers: auth })).status).toBe(403);
      expect((await fetch(`${origin}/users/u-1/notes`)).status).toBe(401);
    } finally {
      child.kill();
      if (child.exitCode === null) await once(child, 'exit');
    }
  });

  it("rcp-server's OAuth-protected server runs end to end and prints what its README shows", { timeout: 120_000 }, async () => {
    await compileOnce();
    expect(await node(['out/oauth.js'])).toBe(readmeSource('packages/rcp-server/README.md', 'output:oauth-end-to-end'));
  });

  it("rcp-model-fake's agent loop runs with the real OpenAI SDK and prints what its README shows", { timeout: 120_000 }, async () => {
    await compileOnce();
    const { server: notes, manifestUrl } = await startNotesApi();
    try {
      const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, ['out/agent.js'], { cwd: app, env: { ...process.env, NOTES_TOKEN, NOTES_MANIFEST_URL: manifestUrl } }, (error, out, err) =>
          resolve({ code: error === null ? 0 : 1, stdout: out, stderr: err }),
        );
      });
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toBe(readmeSource('packages/rcp-model-fake/README.md', 'output:agent-loop'));
      expect(toolRequestLines(notes)).toEqual(['GET /users/u-1/notes/n-1']);
    } finally {
      await notes.close();
    }
  });
});
