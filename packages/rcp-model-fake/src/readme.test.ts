import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTES_TOKEN, readmeBlock, readmeTypeErrors, runReadmeSnippet, SPAWN_TIMEOUT, startNotesApi, toolRequestLines, type TestServer } from 'rcp-test-utils';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
let notes: TestServer;
let manifestUrl: string;
beforeAll(async () => {
  ({ server: notes, manifestUrl } = await startNotesApi());
});
afterAll(async () => {
  await notes.close();
});

describe('README', () => {
  it('the agent loop prints what the README shows; the notes API received the one call the fake scripted', { timeout: SPAWN_TIMEOUT }, async () => {
    const printed = await runReadmeSnippet(packageDir, 'snippet:agent-loop', { NOTES_TOKEN, NOTES_MANIFEST_URL: manifestUrl });
    expect(printed).toBe(readmeBlock(`${packageDir}README.md`, 'output:agent-loop'));
    expect(toolRequestLines(notes)).toEqual(['GET /users/u-1/notes/n-1']);
  });

  it('the Anthropic streaming snippet prints what the README shows', { timeout: SPAWN_TIMEOUT }, async () => {
    expect(await runReadmeSnippet(packageDir, 'snippet:anthropic-stream')).toBe(readmeBlock(`${packageDir}README.md`, 'output:anthropic-stream'));
  });

  it('both snippets compile with the package strict tsconfig, no cast', { timeout: SPAWN_TIMEOUT }, () => {
    expect(readmeTypeErrors(packageDir, 'snippet:agent-loop', 'snippet:anthropic-stream')).toEqual([]);
  });
});
