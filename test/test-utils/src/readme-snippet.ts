import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { runNode } from './spawn-node';

/** A fenced code block of a README: its text, its language tag (`js`, `ts` …) and the line its text starts on. */
export interface ReadmeBlock {
  readonly source: string;
  readonly language: string;
  /** 1-based line of the README where `source` begins (the line after the opening fence). */
  readonly line: number;
}

/** The fenced code block right after the `<!-- marker -->` comment of a README, with its language and line. */
export function findReadmeBlock(readmePath: string, marker: string): ReadmeBlock {
  const readme = readFileSync(readmePath, 'utf8');
  const start = readme.indexOf(`<!-- ${marker}`);
  if (start === -1) throw new Error(`no "<!-- ${marker}" in ${readmePath}`);
  const match = /```([a-z]*)\n([\s\S]*?)```/.exec(readme.slice(start));
  if (match === null) throw new Error(`no code block after "<!-- ${marker}" in ${readmePath}`);
  const sourceAt = start + match.index + match[0].indexOf('\n') + 1;
  return { source: match[2]!, language: match[1]!, line: readme.slice(0, sourceAt).split('\n').length };
}

/** The fenced code block right after the `<!-- marker -->` comment of a README. */
export function readmeBlock(readmePath: string, marker: string): string {
  return findReadmeBlock(readmePath, marker).source;
}

/**
 * Runs the README block after `<!-- marker -->` as written: saved as an ES module in the
 * package's folder (so its imports resolve like a user's would, against the built packages) and
 * run with node, asynchronously — the test's own local servers keep answering meanwhile. A
 * ```` ```ts ```` block is run as TypeScript: its types are erased (`ts.transpileModule`, nothing
 * else changes); its types are checked where its text lives, as `examples/*.ts` in the package's TypeScript
 * project (scripts/readme-examples.mjs keeps README block and file identical).
 * Returns what it printed; a non-zero exit rejects with its stderr. A test calling it needs
 * `{ timeout: SPAWN_TIMEOUT }`.
 */
export async function runReadmeSnippet(packageDir: string, marker: string, env: Record<string, string> = {}): Promise<string> {
  const block = findReadmeBlock(join(packageDir, 'README.md'), marker);
  const source =
    block.language === 'ts'
      ? ts.transpileModule(block.source, {
          compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
        }).outputText
      : block.source;
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
