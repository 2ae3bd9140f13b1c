// The workspace as the checks see it: every project folder, and the published packages — which
// this package lists as devDependencies, so turbo builds them before any check here runs.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const root = fileURLToPath(new URL('../..', import.meta.url));

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/**
 * Every workspace project: its folder (relative to the root) and its package.json, packages
 * first, then apps, then the bench.
 *
 * @example
 * ```js
 * const published = workspaceProjects().filter(({ manifest }) => manifest.private !== true);
 * ```
 *
 * @returns {{ dir: string, manifest: { name: string, version: string, private?: boolean } }[]}
 */
export function workspaceProjects() {
  const dirs = [
    ...readdirSync(join(root, 'packages'))
      .sort()
      .map((name) => join('packages', name)),
    ...readdirSync(join(root, 'apps'))
      .sort()
      .map((name) => join('apps', name)),
    'bench',
  ];
  return dirs.filter((dir) => existsSync(join(root, dir, 'package.json'))).map((dir) => ({ dir, manifest: readJson(join(root, dir, 'package.json')) }));
}

/**
 * The published packages, after checking that this package depends on each of them (else it
 * exits: a check run before a package is built would check its previous build, or nothing).
 *
 * @example
 * ```js
 * for (const { dir, manifest } of publishedPackages()) console.log(manifest.name, dir);
 * ```
 */
export function publishedPackages() {
  const published = workspaceProjects().filter(({ manifest }) => manifest.private !== true);
  const own = readJson(join(root, 'test', 'workspace-checks', 'package.json'));
  const missing = published.map(({ manifest }) => manifest.name).filter((name) => own.devDependencies?.[name] === undefined);
  if (missing.length > 0) {
    console.error(
      `test/workspace-checks/package.json must list ${missing.join(', ')} in devDependencies (workspace:*), so turbo builds them before the checks.`,
    );
    process.exit(1);
  }
  return published;
}

/** Where this package's `tarballs` task packs the published packages (scripts/pack.mjs --built). */
export const tarballsDir = join(root, 'test', 'workspace-checks', 'tarballs');

/**
 * The tarball `pnpm pack` wrote for a published package: `<name>-<version>.tgz` in `tarballsDir`.
 *
 * @example
 * ```js
 * for (const { manifest } of publishedPackages()) console.log(tarballOf(manifest));
 * ```
 *
 * @param {{ name: string, version: string }} manifest
 */
export function tarballOf(manifest) {
  return join(tarballsDir, `${manifest.name.replace(/^@/, '').replace('/', '-')}-${manifest.version}.tgz`);
}
