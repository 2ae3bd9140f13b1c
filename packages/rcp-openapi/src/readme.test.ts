import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readmeBlock, runReadmeSnippet, SPAWN_TIMEOUT } from 'rcp-test-utils';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('README', () => {
  it('the import snippet prints exactly what the README shows (run against the built package)', { timeout: SPAWN_TIMEOUT }, async () => {
    const printed = await runReadmeSnippet(packageDir, 'snippet:import');
    expect(printed).toBe(readmeBlock(`${packageDir}README.md`, 'output:import'));
  });
});
