/**
 * The README's snippets. The agent loop imports rcp-openai and rcp-client, which this package cannot depend on (their
 * tests depend on it): install-test's scratch app runs that snippet as written, from the installed tarballs, compiled
 * with strict tsc (tarballs.test.ts). Here: the Anthropic snippet, run (its file, examples/anthropic-stream.ts, is checked by the TypeScript pass).
 */
import { fileURLToPath } from 'node:url';
import { readmeBlock, runReadmeSnippet, SPAWN_TIMEOUT } from 'rcp-test-utils';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('README', () => {
  it('the Anthropic streaming snippet prints what the README shows', { timeout: SPAWN_TIMEOUT }, async () => {
    expect(await runReadmeSnippet(packageDir, 'snippet:anthropic-stream')).toBe(readmeBlock(`${packageDir}README.md`, 'output:anthropic-stream'));
  });
});
