import { fileURLToPath } from 'node:url';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readmeBlock, runNode, runReadmeSnippet, SPAWN_TIMEOUT } from 'rcp-test-utils';
import { CLIENT_SECRETS, startAuthorizationServer, type AuthorizationServer, startToolApi, type ToolApi } from 'rcp-test-utils/oauth';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const rootReadme = fileURLToPath(new URL('../../../README.md', import.meta.url));

let as: AuthorizationServer;
let api: ToolApi;
beforeAll(async () => {
  as = await startAuthorizationServer();
  api = await startToolApi(as);
});
afterAll(async () => {
  await api.server.close();
  await as.close();
});

const env = () => ({ TOKEN_ENDPOINT: as.tokenEndpoint, CLIENT_SECRET: CLIENT_SECRETS.basic, MANIFEST_URL: api.manifestUrl });

describe('README', () => {
  it('the client-credentials snippet prints what the README shows, with one token request', { timeout: SPAWN_TIMEOUT }, async () => {
    as.tokenRequests.splice(0);
    const printed = await runReadmeSnippet(packageDir, 'snippet:client-credentials', env());
    expect(printed).toBe(readmeBlock(`${packageDir}README.md`, 'output:client-credentials'));
    expect(as.tokenRequests).toHaveLength(1);
  });

  it('the token-store snippet: two instances on one store make one token request for 16 calls', { timeout: SPAWN_TIMEOUT }, async () => {
    as.tokenRequests.splice(0);
    expect(await runReadmeSnippet(packageDir, 'snippet:token-store', env())).toBe('16 calls, one token\n');
    expect(as.tokenRequests).toHaveLength(1);
  });

  it('the per-user snippet prints what the README shows (a real rotation)', { timeout: SPAWN_TIMEOUT }, async () => {
    const printed = await runReadmeSnippet(packageDir, 'snippet:user-tokens', {
      TOKEN_ENDPOINT: as.tokenEndpoint,
      ISSUER: as.issuer,
      USER_CLIENT_SECRET: CLIENT_SECRETS.user,
      ALICE_REFRESH_TOKEN: await as.issueRefreshToken('alice'),
      MANIFEST_URL: api.manifestUrl,
    });
    expect(printed).toBe(readmeBlock(`${packageDir}README.md`, 'output:user-tokens'));
  });

  it("the root README's OAuth 2 example runs as written", { timeout: SPAWN_TIMEOUT }, async () => {
    const file = join(packageDir, '.readme-root-oauth.mjs');
    writeFileSync(file, readmeBlock(rootReadme, 'snippet:oauth'));
    try {
      const { code, stdout } = await runNode([file], { cwd: packageDir, env: env() });
      expect(code).toBe(0);
      expect(stdout).toBe(readmeBlock(rootReadme, 'output:oauth'));
    } finally {
      rmSync(file, { force: true });
    }
  });

  // Run with its types erased; its file, examples/local-authorization-server.ts, is checked by the TypeScript pass.
  it('the local authorization server snippet runs as written', { timeout: SPAWN_TIMEOUT }, async () => {
    expect(await runReadmeSnippet(packageDir, 'snippet:local-authorization-server')).toBe('true true\n');
  });
});
