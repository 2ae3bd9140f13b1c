import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readmeBlock, runReadmeSnippet, SPAWN_TIMEOUT } from 'rcp-test-utils';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('README', () => {
  it('compileArgumentCheck: the snippet prints what the README says', { timeout: SPAWN_TIMEOUT }, async () => {
    expect(await runReadmeSnippet(packageDir, 'snippet:argument-check')).toBe(readmeBlock(`${packageDir}README.md`, 'output:argument-check'));
  });

  it('rcp-manifest/schema: the snippet prints what the README says', { timeout: SPAWN_TIMEOUT }, async () => {
    expect(await runReadmeSnippet(packageDir, 'snippet:schema')).toBe(readmeBlock(`${packageDir}README.md`, 'output:schema'));
  });
});
