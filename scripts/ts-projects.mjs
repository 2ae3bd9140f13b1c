#!/usr/bin/env node
// The TypeScript project graph of the one TypeScript pass (scripts/typecheck.mjs), written from the workspace's
// package.json files:
//
//   node scripts/ts-projects.mjs           write every config the graph needs
//   node scripts/ts-projects.mjs --check   exit 1, naming the files, when one is not as written
//
// Each published package has `tsconfig.lib.json`: its `src` without the tests, composite, declarations only, into
// `.types/` (rolled up into `dist/` afterwards), referencing the packages it depends on. Every project has
// `tsconfig.test.json`: what its `tsconfig.json` covers beyond the published source (tests, fixtures, examples, config
// files; all of it for an app or a private package), checked, nothing emitted but its build info (an unchanged project
// is not checked again), referencing every published package.
// Both extend `tsconfig.build.json`, whose `paths` send each public specifier to its source entry: in `tsc --build`
// an import of a referenced project's source reads the declarations that project emitted, so each library is checked
// once. Each `tsconfig.json` stays what editors and the README checks use (imports through node_modules to `dist`).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publishedEntries, root } from './package-entries.mjs';

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** The private package of shared rules that the published packages bundle. */
const INTERNAL = 'rcp-internal';

/** Every project folder with a package.json and a tsconfig.json, relative to the root. */
function projectDirs() {
  const under = (folder) =>
    readdirSync(join(root, folder))
      .sort()
      .map((name) => join(folder, name));
  return [...under('packages'), 'internal', ...under('test'), 'conformance', ...under('apps'), 'bench'].filter(
    (dir) => existsSync(join(root, dir, 'package.json')) && existsSync(join(root, dir, 'tsconfig.json')),
  );
}

/** The path from folder `from` to `to`, as a tsconfig writes it. */
const pathFrom = (from, to) => relative(from, to).split('\\').join('/') || '.';

/** A library's compiler options for its source: declarations only, into `.types/`. */
const LIB_OPTIONS = {
  composite: true,
  noEmit: false,
  emitDeclarationOnly: true,
  rootDir: 'src',
  outDir: '.types',
  tsBuildInfoFile: '.types/lib.tsbuildinfo',
};

/** A library's files in `src` that are not its published source: tests, type tests, fixtures, test helpers. */
const TEST_FILES = ['src/**/*.test.ts', 'src/**/*.test-d.ts', 'src/**/fixtures', 'src/internal/testing.ts', 'src/**/test-tools.ts'];

/**
 * Libraries whose tests are checked against their own source in the tests' program, not against the declarations
 * their lib project emitted (the source is checked twice). rcp-openai-agents: whether `AgentsTool` (context `unknown`)
 * is assignable to an Agent's `Tool<{ userId: string }>` depends on the order the checker compares the SDK's
 * recursive FunctionTool types in; read from the emitted declarations, its type test fails, from the source it passes
 * (as with the per-package builds before). Its source is the adapter's, not this script's, to change.
 */
const TESTED_AGAINST_SOURCE = new Set(['rcp-openai-agents']);

/**
 * The configs to write, each as `[file, json]`.
 *
 * @example
 * ```js
 * for (const [file, json] of await projectConfigs()) console.log(file, json.references?.length ?? 0);
 * ```
 *
 * @returns {Promise<[string, object][]>}
 */
export async function projectConfigs() {
  const dirs = projectDirs();
  const manifests = new Map(dirs.map((dir) => [dir, readJson(join(root, dir, 'package.json'))]));
  // The libraries: every published package, and rcp-internal (private, bundled into the packages that import it,
  // so it is a devDependency of theirs; its declarations are emitted like a published package's).
  const isLibraryDir = (dir) => manifests.get(dir).private !== true || manifests.get(dir).name === INTERNAL;
  const published = dirs.filter(isLibraryDir);
  const lib = (from, dir) => ({ path: pathFrom(from, join(dir, 'tsconfig.lib.json')) });
  const configs = [];
  for (const dir of dirs) {
    const manifest = manifests.get(dir);
    const current = readJson(join(root, dir, 'tsconfig.json'));
    const { paths: _ownPaths, ...options } = current.compilerOptions ?? {};
    const extendsBuild = pathFrom(dir, 'tsconfig.build.json');
    const isLibrary = isLibraryDir(dir);
    if (isLibrary) {
      const depends = new Set(Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }));
      if (manifest.devDependencies?.[INTERNAL] !== undefined) depends.add(INTERNAL);
      configs.push([
        join(dir, 'tsconfig.lib.json'),
        {
          extends: extendsBuild,
          compilerOptions: { ...options, ...LIB_OPTIONS },
          include: ['src'],
          exclude: TEST_FILES,
          references: published.filter((other) => other !== dir && depends.has(manifests.get(other).name)).map((other) => lib(dir, other)),
        },
      ]);
    }
    const againstSource = TESTED_AGAINST_SOURCE.has(manifest.name);
    const include = isLibrary && !againstSource ? [...TEST_FILES, ...current.include.filter((entry) => entry !== 'src')] : current.include;
    configs.push([
      join(dir, 'tsconfig.test.json'),
      {
        extends: extendsBuild,
        compilerOptions: { ...options, incremental: true, tsBuildInfoFile: '.types/test.tsbuildinfo' },
        include,
        references: published.filter((other) => !(againstSource && other === dir)).map((other) => lib(dir, other)),
      },
    ]);
  }
  const paths = {};
  for (const { dir, entries, specifiers } of await publishedEntries()) {
    for (const [specifier, entry] of Object.entries(specifiers)) paths[specifier] = [`./${dir}/${entries[entry]}`];
  }
  const testUtils = readJson(join(root, 'test', 'test-utils', 'package.json'));
  for (const [subpath, target] of Object.entries(testUtils.exports)) {
    paths[`rcp-test-utils${subpath.slice(1)}`] = [`./test/test-utils/${target.replace(/^\.\//, '')}`];
  }
  paths[INTERNAL] = ['./internal/src/index.ts'];
  // rcp-client's platform transport, as its own tsconfig has it (the package's `imports` pick one at run time).
  paths['#transport'] = ['./packages/rcp-client/src/internal/send/transport.ts'];
  configs.push([
    'tsconfig.build.json',
    {
      $comment: 'The one TypeScript pass (scripts/typecheck.mjs): each public specifier to its source. Written by scripts/ts-projects.mjs.',
      extends: './tsconfig.base.json',
      compilerOptions: { paths },
    },
  ]);
  configs.push([
    'tsconfig.json',
    {
      $comment: 'Every TypeScript project of the workspace, for `tsc --build` (scripts/typecheck.mjs). Written by scripts/ts-projects.mjs.',
      files: [],
      references: dirs.flatMap((dir) => [...(isLibraryDir(dir) ? [{ path: `./${dir}/tsconfig.lib.json` }] : []), { path: `./${dir}/tsconfig.test.json` }]),
    },
  ]);
  configs.push([
    'tsconfig.libs.json',
    {
      $comment:
        "The libraries' projects only: what `tsc --build` needs for the declarations the packages ship (scripts/typecheck.mjs --declarations). Written by scripts/ts-projects.mjs.",
      files: [],
      references: published.map((dir) => ({ path: `./${dir}/tsconfig.lib.json` })),
    },
  ]);
  return configs;
}

const text = (json) => `${JSON.stringify(json, null, 2)}\n`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  const stale = [];
  for (const [file, json] of await projectConfigs()) {
    const path = join(root, file);
    const wanted = text(json);
    if (existsSync(path) && readFileSync(path, 'utf8') === wanted) continue;
    if (check) stale.push(file);
    else writeFileSync(path, wanted);
  }
  if (stale.length > 0) {
    console.error(`These TypeScript configs do not match the workspace's package.json files: ${stale.join(', ')}. Run: node scripts/ts-projects.mjs`);
    process.exit(1);
  }
}
