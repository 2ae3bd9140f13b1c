import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readmeBlock } from 'rcp-test-utils';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

const blockAfter = (marker: string): string => readmeBlock(`${packageDir}README.md`, marker);

describe('README', () => {
  it('shows the agent-loop example exactly as it is in examples/', () => {
    expect(blockAfter('example:agent-loop')).toBe(readFileSync(`${packageDir}examples/agent-loop.mjs`, 'utf8'));
  });

  it("shows the example's real output (run against the built package and a local server)", () => {
    const output = execFileSync(process.execPath, ['examples/agent-loop.mjs'], { cwd: packageDir, encoding: 'utf8' });
    expect(output).toBe(blockAfter('output:agent-loop'));
  });
});

describe('README: transport', () => {
  it('shows the ky example exactly as it is in examples/, with its real output', () => {
    expect(blockAfter('example:ky-fetch')).toBe(readFileSync(`${packageDir}examples/ky-fetch.mjs`, 'utf8'));
    const output = execFileSync(process.execPath, ['examples/ky-fetch.mjs'], { cwd: packageDir, encoding: 'utf8' });
    expect(output).toBe(blockAfter('output:ky-fetch'));
  });
});
