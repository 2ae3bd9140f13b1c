import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where a package is installed and its version, found from its resolved entry (works without `./package.json` in `exports`). */
export interface InstalledPackage {
  name: string;
  version: string;
  /** Directory holding the package's package.json. */
  directory: string;
  /** Absolute path of the ESM entry (`import` condition). */
  entry: string;
}

/**
 * Resolves `name` as this bench imports it and walks up to the package.json with the matching name.
 */
export function installedPackage(name: string): InstalledPackage {
  const entryUrl = import.meta.resolve(name);
  const entry = fileURLToPath(entryUrl);
  let directory = dirname(entry);
  for (let depth = 0; depth < 12; depth++) {
    const manifestPath = join(directory, 'package.json');
    if (existsSync(manifestPath)) {
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { name?: string; version?: string };
      if (manifest.name === name) return { name, version: manifest.version ?? 'unknown', directory, entry };
    }
    const parent = dirname(directory);
    if (parent === directory) break;
    directory = parent;
  }
  throw new Error(`cannot find package.json of ${name} above ${entry}`);
}

/** Version of an installed package, or `'not installed'`. */
export function versionOf(name: string): string {
  try {
    return installedPackage(name).version;
  } catch {
    return 'not installed';
  }
}

/**
 * A dependency of another installed package (pnpm links each package's own dependencies into
 * its `node_modules`), e.g. `rcp-errors` as rcp-client sees it. Entry: the `import` condition of
 * `exports["."]`, else `module`, else `main`.
 */
export function dependencyOf(dependent: InstalledPackage, name: string): InstalledPackage {
  const directory = realpathSync(join(dependent.directory, 'node_modules', name));
  const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as {
    version?: string;
    module?: string;
    main?: string;
    exports?: Record<string, unknown>;
  };
  const dot = manifest.exports?.['.'] as { import?: string | { default?: string } } | undefined;
  const importEntry = typeof dot?.import === 'string' ? dot.import : dot?.import?.default;
  const relative = importEntry ?? manifest.module ?? manifest.main ?? 'index.js';
  return { name, version: manifest.version ?? 'unknown', directory, entry: join(directory, relative) };
}
