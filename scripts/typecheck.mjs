#!/usr/bin/env node
// `pnpm typecheck`: the one TypeScript pass, in two parts that turbo runs as two tasks:
//
//   node scripts/typecheck.mjs                 both: every project checked, the declarations rolled up (`pnpm typecheck`)
//   node scripts/typecheck.mjs --declarations  the libraries' projects and their roll-up: `pnpm types`, turbo's
//                                              `//#types`, which `build:types`, the tarballs and the API reports wait for
//   node scripts/typecheck.mjs --tests         every project, nothing rolled up: turbo's `//#typecheck:tests` in
//                                              `pnpm test`, after `//#types` (the libraries are then up to date)
//
// The libraries are a third of the pass: splitting it lets the tarballs and install-test start while the tests and
// apps are checked, instead of after.
//
// 1. ONE `tsc --build` over every project (the root tsconfig.json lists them; scripts/ts-projects.mjs writes the
//    graph from the package.json files, and this checks it is current). Each published package's source is checked
//    once and its declarations emitted, per file, into its `.types/`; the projects that import it (its dependents,
//    its own tests, the apps, the bench) read those declarations, never its source again.
// 2. Each published package's `dist/<entry>.d.ts` and `.d.cts` rolled up from its `.types/` by rollup-plugin-dts, one
//    entry per tsup entry (what the package.json `exports` point at), shared declarations in a chunk, every other
//    package external: what `tsup --dts-only` made before, with a type-checking program of its own per package.
// Arguments go to tsc (`--force` checks every project again; `--verbose`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';
import { publishedEntries, root } from './package-entries.mjs';
import { projectConfigs } from './ts-projects.mjs';

const stale = [];
for (const [file, json] of await projectConfigs()) {
  let current;
  try {
    current = readFileSync(join(root, file), 'utf8');
  } catch {
    current = undefined;
  }
  if (current !== `${JSON.stringify(json, null, 2)}\n`) stale.push(file);
}
if (stale.length > 0) {
  console.error(`typecheck: these TypeScript configs do not match the package.json files: ${stale.join(', ')}. Run: node scripts/ts-projects.mjs`);
  process.exit(1);
}

const declarationsOnly = process.argv.includes('--declarations');
const rollUp = !process.argv.includes('--tests');
const tscArguments = process.argv.slice(2).filter((argument) => argument !== '--declarations' && argument !== '--tests');
// TypeScript 7 (the native compiler, `typescript-go` in the catalog): the same checks as 5.9 in about a third of the
// CPU (~45 CPU-s for the whole workspace instead of ~120). TypeScript 5.9 stays for rollup-plugin-dts below and for the
// strict compile of the tarballs in install-test, which is what users on 5.x see.
const tsc = join(root, 'node_modules', 'typescript-go', 'bin', 'tsc');
const project = declarationsOnly ? 'tsconfig.libs.json' : 'tsconfig.json';
const checked = spawnSync(process.execPath, [tsc, '--build', project, ...tscArguments], { cwd: root, stdio: 'inherit' });
if (!rollUp) process.exit(checked.status ?? 1);
// tsc emits a project's declarations even when it reports errors, and builds the projects after it (TypeScript 5.6+):
// the declarations are rolled up either way, so with `turbo --continue` one type error fails this task without
// keeping every other package's tests from running. The exit status is tsc's.

/** A relative import of a rolled-up file, for the CommonJS copy: `./chunk-x.js` → `./chunk-x.cjs`. */
const cjsImports = (code) => code.replace(/(from\s+|import\s*\(\s*|import\s+)(['"])(\.\.?\/[^'"]+)\.js\2/g, '$1$2$3.cjs$2');

/** Resolves `rcp-internal` to the declarations the TypeScript pass emitted for it. */
const internalDeclarations = {
  name: 'rcp-internal-declarations',
  resolveId: (id) => (id === 'rcp-internal' ? join(root, 'internal', '.types', 'index.d.ts') : null),
};

for (const { dir, name, entries } of await publishedEntries()) {
  const input = Object.fromEntries(
    Object.entries(entries).map(([entry, source]) => [entry, join(root, dir, '.types', source.replace(/^src\//, '').replace(/\.ts$/, '.d.ts'))]),
  );
  const missing = Object.values(input).filter((file) => !existsSync(file));
  if (missing.length > 0) {
    console.error(`typecheck: ${name} has no declarations to roll up (${missing.join(', ')}): see tsc's errors above`);
    continue;
  }
  const dist = join(root, dir, 'dist');
  mkdirSync(dist, { recursive: true });
  for (const file of readdirSync(dist, { withFileTypes: true }).filter((entry) => entry.isFile() && /\.d\.c?ts$/.test(entry.name))) {
    rmSync(join(dist, file.name));
  }
  const bundle = await rollup({
    input,
    plugins: [internalDeclarations, dts({ respectExternal: false })],
    // Every bare import (another package, a Node built-in) stays an import, except rcp-internal's: never published,
    // its declarations are rolled into the package's own, as its code is bundled into the package's JavaScript.
    external: (id) => id !== 'rcp-internal' && !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0'),
    onwarn: (warning, warn) => {
      if (warning.code !== 'EMPTY_BUNDLE') warn(warning);
    },
  });
  const { output } = await bundle.generate({
    format: 'es',
    entryFileNames: '[name].d.ts',
    chunkFileNames: (chunk) => `${chunk.name.replace(/\.d$/, '')}-[hash].d.ts`,
  });
  await bundle.close();
  for (const chunk of output) {
    if (chunk.type !== 'chunk') continue;
    writeFileSync(join(dist, chunk.fileName), chunk.code);
    writeFileSync(join(dist, chunk.fileName.replace(/\.d\.ts$/, '.d.cts')), cjsImports(chunk.code));
  }
  if (process.env.TYPECHECK_VERBOSE) console.log(`${name}: ${output.map((chunk) => chunk.fileName).join(', ')}`);
}
process.exit(checked.status ?? 1);
