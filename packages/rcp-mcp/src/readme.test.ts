import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTES_TOKEN, SPAWN_TIMEOUT, readmeBlock, runReadmeSnippet, startNotesApi, toolRequestLines, type TestServer } from 'rcp-test-utils';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
let server: TestServer;
let manifestUrl: string;
beforeAll(async () => {
  ({ server, manifestUrl } = await startNotesApi());
});
afterAll(async () => {
  await server.close();
});

describe('README', () => {
  it('the dynamic-mode snippet prints what the README shows, and the API receives the one call (run against the built package)', {
    timeout: SPAWN_TIMEOUT,
  }, async () => {
    const printed = await runReadmeSnippet(packageDir, 'snippet:dynamic-mode', { NOTES_TOKEN, NOTES_MANIFEST_URL: manifestUrl });
    expect(printed).toBe(readmeBlock(`${packageDir}README.md`, 'output:dynamic-mode'));
    expect(toolRequestLines(server)).toEqual(['DELETE /users/u-1/notes/n-1']);
    expect(server.requests.at(-1)!.headers.authorization).toBe(`Bearer ${NOTES_TOKEN}`);
  });
});
