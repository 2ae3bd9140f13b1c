import { readFileSync } from 'node:fs';
import { SPAWN_TIMEOUT, readmeBlock, runNode } from 'rcp-test-utils';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

const blockAfter = (marker: string): string => readmeBlock(`${packageDir}README.md`, marker);

describe('README', () => {
  it('shows the two-stage agent example exactly as it is in examples/', () => {
    expect(blockAfter('example:two-stage-agent')).toBe(readFileSync(`${packageDir}examples/two-stage-agent.mjs`, 'utf8'));
  });

  it("shows the example's real output (run against the built package and a local server)", { timeout: SPAWN_TIMEOUT }, async () => {
    const { code, stdout, stderr } = await runNode(['examples/two-stage-agent.mjs'], { cwd: packageDir });
    expect(stderr).toBe('');
    expect([code, stdout]).toEqual([0, blockAfter('output:two-stage-agent')]);
  });
});
