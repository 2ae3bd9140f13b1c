// The entries of each published package, as its tsup.config.ts builds them (`{ index: 'src/index.ts', … }`), and
// the public specifiers they answer to (`rcp-ai-sdk/search` → `search` → `src/search.ts`, from the package.json
// `exports`). One source for the build (tsup), the declarations (scripts/typecheck.mjs) and the TypeScript paths
// (scripts/ts-projects.mjs).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** A tsup.config.ts, evaluated: its first config's `entry` map. */
async function tsupEntries(dir) {
  const bundled = await build({
    entryPoints: [join(dir, 'tsup.config.ts')],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
    // A config's only import is tsup's defineConfig, the identity: evaluated without loading tsup.
    plugins: [
      {
        name: 'tsup-define-config',
        setup(esbuild) {
          esbuild.onResolve({ filter: /^tsup$/ }, () => ({ path: 'tsup', namespace: 'tsup-define-config' }));
          esbuild.onLoad({ filter: /.*/, namespace: 'tsup-define-config' }, () => ({ contents: 'export const defineConfig = (config) => config;' }));
        },
      },
    ],
  });
  const code = bundled.outputFiles[0].text;
  const module = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
  const config = Array.isArray(module.default) ? module.default[0] : module.default;
  const entry = config.entry;
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new Error(`${dir}/tsup.config.ts: entry must be a { name: file } map`);
  return entry;
}

/**
 * Every published package: its folder, name, entries (`{ name: 'src/….ts' }`) and the specifiers of its `exports`
 * with the entry each resolves to.
 *
 * @returns {Promise<{ dir: string, name: string, entries: Record<string, string>, specifiers: Record<string, string> }[]>}
 */
export async function publishedEntries() {
  const packages = [];
  for (const folder of readdirSync(join(root, 'packages')).sort()) {
    const dir = join(root, 'packages', folder);
    if (!existsSync(join(dir, 'package.json'))) continue;
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    if (manifest.private === true) continue;
    const entries = await tsupEntries(dir);
    const specifiers = {};
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const types = typeof target === 'object' ? target.import?.types : undefined;
      const entry = /^\.\/dist\/(.+)\.d\.ts$/.exec(types ?? '')?.[1];
      if (entry === undefined) continue;
      if (entries[entry] === undefined) throw new Error(`${manifest.name}: exports "${subpath}" points at dist/${entry}, which tsup.config.ts does not build`);
      specifiers[subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`] = entry;
    }
    packages.push({ dir: join('packages', folder), name: manifest.name, entries, specifiers });
  }
  return packages;
}
