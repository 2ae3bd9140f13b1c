import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(`${packageDir}README.md`, 'utf8');

/** The fenced block right after the `<!-- marker ... -->` comment. */
function blockAfter(marker: string): string {
  const start = readme.indexOf(`<!-- ${marker}`);
  expect(start, marker).toBeGreaterThan(-1);
  const match = /```[a-z]*\n([\s\S]*?)```/.exec(readme.slice(start));
  return match![1]!;
}

describe('README', () => {
  it('shows the agent-loop example exactly as it is in examples/', () => {
    expect(blockAfter('example:agent-loop')).toBe(readFileSync(`${packageDir}examples/agent-loop.mjs`, 'utf8'));
  });

  it("shows the example's real output (run against the built package and a local server)", () => {
    const output = execFileSync(process.execPath, ['examples/agent-loop.mjs'], { cwd: packageDir, encoding: 'utf8' });
    expect(output).toBe(blockAfter('output:agent-loop'));
  });
});
