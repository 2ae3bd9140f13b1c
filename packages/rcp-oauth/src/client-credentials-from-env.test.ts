import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRcpClient, isRcpError } from 'rcp-client';
import { clientCredentialsFromEnv } from './index';
import { CLIENT_SECRETS, startAuthorizationServer, type AuthorizationServer, startToolApi, type ToolApi } from 'rcp-test-utils/oauth';

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

const env = (extra: Record<string, string> = {}) => ({
  APP_OAUTH_TOKEN_ENDPOINT: as.tokenEndpoint,
  APP_OAUTH_CLIENT_ID: 'post-client',
  APP_OAUTH_CLIENT_SECRET: CLIENT_SECRETS.post,
  APP_OAUTH_CLIENT_AUTH: 'client_secret_post',
  ...extra,
});

describe('clientCredentialsFromEnv', () => {
  it('reads the grant from <PREFIX>_* variables and fetches a real token with them', async () => {
    const client = createRcpClient({ ...clientCredentialsFromEnv('APP_OAUTH', env()) });
    const outcome = await client.call(await client.discover(api.manifestUrl), { name: 'list_notes', arguments: {} });
    expect(outcome.ok && outcome.result.data).toMatchObject({ client: 'post-client' });
    expect(as.tokenRequests.at(-1)).toMatchObject({ grantType: 'client_credentials', status: 200 });
    expect(as.tokenRequests.at(-1)!.params.client_secret).toBe(CLIENT_SECRETS.post);
  });

  it('a missing or bad setting is RCP_INVALID_OPTIONS naming the variable, never a value', () => {
    const failure = (settings: Record<string, string | undefined>, prefix = 'APP_OAUTH'): string => {
      try {
        clientCredentialsFromEnv(prefix, settings);
      } catch (error) {
        expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
        return (error as Error).message;
      }
      throw new Error('expected a refusal');
    };
    expect(failure({ ...env(), APP_OAUTH_CLIENT_SECRET: undefined })).toContain('APP_OAUTH_CLIENT_SECRET is not set');
    expect(failure({ ...env(), APP_OAUTH_CLIENT_ID: '  ' })).toContain('APP_OAUTH_CLIENT_ID is not set');
    const bad = failure({ ...env(), APP_OAUTH_CLIENT_AUTH: 'private_key_jwt-secret-x' });
    expect(bad).toContain('APP_OAUTH_CLIENT_AUTH must be one of');
    expect(bad).not.toContain('secret-x');
    expect(failure(env(), 'app-oauth')).toContain('prefix');
  });
});
