import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Options } from 'tsup';
import config from './tsup.config';

/**
 * The end-to-end tests run the BUILT demo (`node dist/cli.js`), exactly as `pnpm demo` does.
 * `pnpm test` builds first; this also rebuilds when `vitest` is run directly and `dist/cli.js`
 * is missing or older than a source file.
 */
export default async function setup(): Promise<void> {
  const here = import.meta.dirname;
  const output = join(here, 'dist', 'cli.js');
  const newestSource = Math.max(
    ...readdirSync(join(here, 'src'))
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .map((name) => statSync(join(here, 'src', name)).mtimeMs),
  );
  if (existsSync(output) && statSync(output).mtimeMs >= newestSource) return;
  await build({ ...(config as Options), config: false, silent: true });
}
