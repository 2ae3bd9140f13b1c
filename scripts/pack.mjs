#!/usr/bin/env node
// Builds and packs every published RCP package into one folder (default: ./tarballs), as
// `pnpm pack` does for a release: `workspace:*` and `catalog:` versions are replaced by real ones,
// only what `files` lists is included. Prints the tarball paths on stdout, one a line.
//
// That rewriting is pnpm's, so this runs under pnpm. On a machine with Node and npm only:
//   npx -y pnpm@10.34.9 install && npx -y pnpm@10.34.9 tarballs [destination]
// (`pnpm tarballs` is this script; `node scripts/pack.mjs` works too where pnpm is on PATH).
// `--built`: the packages are built already, pack only (turbo's `tarballs` task in test/workspace-checks, which
// runs after every published package's build: the one pack `pnpm test` makes, for check:package and install-test).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildQuietly } from './build-quietly.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const PNPM = 'pnpm@10.34.9';

// Under `pnpm run` / `npx pnpm`, the pnpm that runs us (pnpm may not be on PATH); else `pnpm` from PATH.
const execPath = process.env.npm_execpath ?? '';
const [command, ...prefix] = /pnpm/.test(execPath) && /\.c?js$/.test(execPath) ? [process.execPath, execPath] : ['pnpm'];
if (command === 'pnpm' && spawnSync('pnpm', ['--version'], { stdio: 'ignore' }).error !== undefined) {
  console.error(
    `pack.mjs needs pnpm, which rewrites the workspace: and catalog: versions of each package. With Node and npm only, run:\n` +
      `  npx -y ${PNPM} install && npx -y ${PNPM} tarballs`,
  );
  process.exit(1);
}
if (!existsSync(join(root, 'node_modules', '.bin'))) {
  console.error(`The workspace is not installed: run \`npx -y ${PNPM} install\` first.`);
  process.exit(1);
}

// Through `pnpm tarballs <dir>`, pnpm runs us from the root: a relative <dir> is the caller's.
const callerDir = process.env.npm_lifecycle_event === 'tarballs' ? (process.env.INIT_CWD ?? process.cwd()) : process.cwd();
const args = process.argv.slice(2);
const built = args.includes('--built');
const destination = resolve(callerDir, args.find((arg) => arg !== '--built') ?? join(root, 'tarballs'));
mkdirSync(destination, { recursive: true });

const packagesDir = join(root, 'packages');
/** Each published package's folder and name. */
const published = readdirSync(packagesDir)
  .flatMap((dir) => {
    try {
      const { name, private: isPrivate } = JSON.parse(readFileSync(join(packagesDir, dir, 'package.json'), 'utf8'));
      return isPrivate === true ? [] : [{ dir, name }];
    } catch {
      return [];
    }
  })
  .sort((a, b) => a.dir.localeCompare(b.dir));

if (!built) {
  await buildQuietly({
    root,
    filters: published.map(({ name }) => `${name}...`),
    label: `the ${published.length} published packages`,
    firstRun: !published.every(({ dir }) => existsSync(join(packagesDir, dir, 'dist'))),
  });
}

// One `pnpm pack` over all of them (one pnpm process, not one per package).
const output = execFileSync(
  command,
  [...prefix, '--recursive', ...published.flatMap(({ name }) => ['--filter', name]), 'pack', '--pack-destination', destination],
  {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const tarballs = new Set(
  output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.endsWith('.tgz')),
);
for (const { name } of published) {
  // pnpm names a tarball <name>-<version>.tgz (a scope's `@` dropped and its `/` a `-`).
  const file = [...tarballs].find((tarball) => tarball.replace(/^.*[\\/]/, '').startsWith(`${name.replace(/^@/, '').replace('/', '-')}-`));
  if (file === undefined) {
    console.error(`pack.mjs: pnpm packed no tarball for ${name}`);
    process.exit(1);
  }
  console.log(file.startsWith('/') ? file : join(destination, file));
}
