import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRcpClient, isRcpError } from 'rcp-client';
import { clientCredentials, clientCredentialsFromEnv, refreshTokenGrant } from './index';
import { CLIENT_SECRETS, RESOURCE, startAuthorizationServer, type AuthorizationServer, startToolApi, type ToolApi } from 'rcp-test-utils/oauth';

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
afterEach(() => {
  as.tokenRequests.splice(0);
  api.tokens.splice(0);
});

const basic = { clientId: 'basic-client', clientSecret: CLIENT_SECRETS.basic, resource: RESOURCE };
const listNotes = { name: 'list_notes', arguments: {} };
const invalidOptions = (error: unknown) => isRcpError(error, 'RCP_INVALID_OPTIONS');

describe('scope: the space-separated OAuth string and the list are one request, everywhere', () => {
  it("'notes:read notes:write' asks for both scopes and the issued token carries both", async () => {
    const client = createRcpClient(clientCredentials({ tokenEndpoint: as.tokenEndpoint, ...basic, scope: 'notes:read notes:write' }));
    const outcome = await client.call(await client.discover(api.manifestUrl), listNotes);
    expect(outcome.ok && outcome.result.data).toMatchObject({ scope: 'notes:read notes:write', aud: RESOURCE });
    expect(as.tokenRequests.map((request) => request.params.scope)).toEqual(['notes:read notes:write']);
  });

  it('each spelling, in an option or a function of the call, sends the same scope and shares one cached token', async () => {
    const spellings = ['notes:write  notes:read', ['notes:read', 'notes:write'], ['notes:write notes:read'], ' notes:read notes:write '] as const;
    for (const scope of spellings) {
      const client = createRcpClient(clientCredentials({ tokenEndpoint: as.tokenEndpoint, ...basic, scope }));
      expect((await client.call(await client.discover(api.manifestUrl), listNotes)).ok).toBe(true);
    }
    expect(as.tokenRequests.map((request) => request.params.scope)).toEqual(Array(spellings.length).fill('notes:read notes:write'));

    as.tokenRequests.splice(0);
    let round = 0;
    const perCall = clientCredentials({ tokenEndpoint: as.tokenEndpoint, ...basic, scope: () => spellings[round++ % spellings.length] });
    const client = createRcpClient(perCall);
    const discovery = await client.discover(api.manifestUrl);
    for (let call = 0; call < spellings.length; call++) expect((await client.call(discovery, listNotes)).ok).toBe(true);
    expect(as.tokenRequests).toHaveLength(1);
  });

  it('PREFIX_SCOPE and refreshTokenGrant read the string the same way', async () => {
    const fromEnv = clientCredentialsFromEnv('APP_OAUTH', {
      APP_OAUTH_TOKEN_ENDPOINT: as.tokenEndpoint,
      APP_OAUTH_CLIENT_ID: 'basic-client',
      APP_OAUTH_CLIENT_SECRET: CLIENT_SECRETS.basic,
      APP_OAUTH_SCOPE: 'notes:write notes:read',
    });
    const client = createRcpClient(fromEnv);
    expect((await client.call(await client.discover(api.manifestUrl), listNotes)).ok).toBe(true);
    expect(as.tokenRequests.at(-1)!.params.scope).toBe('notes:read notes:write');

    const refresh = refreshTokenGrant({ tokenEndpoint: as.tokenEndpoint, issuer: as.issuer, clientId: 'user-client', clientSecret: CLIENT_SECRETS.user });
    await refresh(await as.issueRefreshToken('alice'), { scope: 'openid offline_access' });
    expect(as.tokenRequests.at(-1)).toMatchObject({ grantType: 'refresh_token', status: 200, params: { scope: 'openid offline_access' } });
  });

  it('what is not a scope is still refused before anything is sent, naming the option and never the value', async () => {
    const create = (scope: unknown) => () => clientCredentials({ tokenEndpoint: as.tokenEndpoint, ...basic, scope: scope as string });
    for (const scope of ['', '   ', ['notes:read', ''], 'notes:read "secret-4e1f"', 'notes\\read', 'notes:read\u0000', [42]]) {
      expect(create(scope)).toThrow(expect.objectContaining({ code: 'RCP_INVALID_OPTIONS', message: expect.stringContaining('Option "scope"') }));
      try {
        create(scope)();
      } catch (error) {
        expect((error as Error).message).not.toContain('secret-4e1f');
      }
    }
    const refresh = refreshTokenGrant({ tokenEndpoint: as.tokenEndpoint, issuer: as.issuer, clientId: 'user-client', clientSecret: CLIENT_SECRETS.user });
    await expect(refresh('a-refresh-token', { scope: ' ' })).rejects.toSatisfy(invalidOptions);
    expect(as.tokenRequests).toEqual([]);
  });
});
