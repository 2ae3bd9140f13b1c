import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRcp } from './fixtures/run-rcp';
import { CLIENT_SECRETS, startAuthorizationServer, startToolApi, type AuthorizationServer, type ToolApi } from 'rcp-test-utils/oauth';

/**
 * Issue 22, item 6: `rcp call --oauth-env PREFIX` takes OAuth 2 client-credentials settings from
 * the environment (never argv), against a real authorization server (oidc-provider) on loopback.
 */

let as: AuthorizationServer;
let api: ToolApi;
beforeAll(async () => {
  as = await startAuthorizationServer();
  api = await startToolApi(as);
});
afterAll(async () => {
  await api?.server.close();
  await as?.close();
});

const env = (extra: Record<string, string | undefined> = {}) => ({
  APP_OAUTH_TOKEN_ENDPOINT: as.tokenEndpoint,
  APP_OAUTH_CLIENT_ID: 'basic-client',
  APP_OAUTH_CLIENT_SECRET: CLIENT_SECRETS.basic,
  ...extra,
});

describe('rcp call --oauth-env', () => {
  it('fetches a token from the configured endpoint and calls the tool with it; the secret is in no argument', async () => {
    const { code, stdout, stderr } = await runRcp(['call', api.manifestUrl, 'list_notes', '--oauth-env', 'APP_OAUTH'], { env: env() });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ status: 200, data: { client: 'basic-client' } });
    expect(as.tokenRequests.at(-1)).toMatchObject({ grantType: 'client_credentials', status: 200 });
    expect(api.tokens.at(-1)).toEqual(expect.any(String));
  });

  it('a missing setting is one line naming the variable (never a value), exit 1, nothing sent', async () => {
    const before = api.server.count;
    const { code, stderr } = await runRcp(['call', api.manifestUrl, 'list_notes', '--oauth-env', 'APP_OAUTH'], {
      env: env({ APP_OAUTH_CLIENT_SECRET: undefined }),
    });
    expect(code).toBe(1);
    expect(stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^rcp: RCP_INVALID_OPTIONS: APP_OAUTH_CLIENT_SECRET is not set/)]);
    expect(api.server.count).toBe(before);
    const both = await runRcp(['call', api.manifestUrl, 'list_notes', '--oauth-env', 'APP_OAUTH', '--token-env', 'X'], { env: env() });
    expect([both.code, both.stderr.trim()]).toEqual([2, 'rcp: give --token-env or --oauth-env, not both (see rcp call --help)']);
    expect(stderr).not.toContain(CLIENT_SECRETS.basic);
  });

  it("a token endpoint's refusal: the line keeps its status and OAuth code (401 invalid_client), never the secret; nothing sent (issue 38)", async () => {
    const before = api.server.requests.length;
    const wrong = 'not-the-secret-of-basic-client';
    const { code, stderr } = await runRcp(['call', api.manifestUrl, 'list_notes', '--oauth-env', 'APP_OAUTH'], {
      env: env({ APP_OAUTH_CLIENT_SECRET: wrong }),
    });
    expect(code).toBe(1);
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(/^rcp: RCP_MISSING_CREDENTIALS: Tool "list_notes" needs a credential .* and the credentials provider threw: /),
    ]);
    expect(lines[0]).toContain(`The token endpoint ${as.tokenEndpoint} gave no access token for the client_credentials grant (status 401): invalid_client`);
    expect(stderr).not.toContain(wrong);
    // Discovery only: the tool was never called.
    expect(api.server.requests.slice(before).map((request) => request.path)).toEqual([new URL(api.manifestUrl).pathname]);
  });
});
