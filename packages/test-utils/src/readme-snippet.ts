import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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
 * Returns what it printed; a non-zero exit rejects with its stderr.
 */
export async function runReadmeSnippet(
  packageDir: string,
  marker: string,
  env: Record<string, string> = {},
): Promise<string> {
  const code = readmeBlock(join(packageDir, 'README.md'), marker);
  const file = join(packageDir, `.readme-${marker.replace(/[^a-z0-9-]/gi, '-')}.mjs`);
  writeFileSync(file, code);
  try {
    return await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, [file], { cwd: packageDir, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
        if (error) reject(new Error(`README snippet "${marker}" failed: ${stderr || error.message}`));
        else resolve(stdout);
      });
    });
  } finally {
    rmSync(file, { force: true });
  }
}
