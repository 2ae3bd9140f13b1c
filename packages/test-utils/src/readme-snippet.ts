import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runNode } from './spawn-node';

/** The fenced code block right after the `<!-- marker -->` comment of a README. */
export function readmeBlock(readmePath: string, marker: string): string {
  const readme = readFileSync(readmePath, 'utf8');
  const start = readme.indexOf(`<!-- ${marker}`);
  if (start === -1) throw new Error(`no "<!-- ${marker}" in ${readmePath}`);
  const match = /```[a-z]*\n([\s\S]*?)```/.exec(readme.slice(start));
  if (match === null) throw new Error(`no code block after "<!-- ${marker}" in ${readmePath}`);
  return match[1]!;
}

/**
 * Runs the README block after `<!-- marker -->` as written: saved as an ES module in the
 * package's folder (so its imports resolve like a user's would, against the built packages) and
 * run with node, asynchronously — the test's own local servers keep answering meanwhile.
 * Returns what it printed; a non-zero exit rejects with its stderr. A test calling it needs
 * `{ timeout: SPAWN_TIMEOUT }`.
 */
export async function runReadmeSnippet(
  packageDir: string,
  marker: string,
  env: Record<string, string> = {},
): Promise<string> {
  const source = readmeBlock(join(packageDir, 'README.md'), marker);
  const file = join(packageDir, `.readme-${marker.replace(/[^a-z0-9-]/gi, '-')}.mjs`);
  writeFileSync(file, source);
  try {
    const { code, stdout, stderr } = await runNode([file], { cwd: packageDir, env });
    if (code !== 0) throw new Error(`README snippet "${marker}" failed (exit ${code}): ${stderr}`);
    return stdout;
  } finally {
    rmSync(file, { force: true });
  }
}
