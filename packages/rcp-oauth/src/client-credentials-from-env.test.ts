import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRcpClient, isRcpError } from 'rcp-client';
import { clientCredentialsFromEnv, createMemoryTokenStore } from './index';
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

  it('options.store is the token store: two providers from the same variables sharing one make one token request', async () => {
    const store = createMemoryTokenStore();
    const before = as.tokenRequests.length;
    for (let instance = 0; instance < 2; instance += 1) {
      const client = createRcpClient({ ...clientCredentialsFromEnv('APP_OAUTH', env(), { store }) });
      const outcome = await client.call(await client.discover(api.manifestUrl), { name: 'list_notes', arguments: {} });
      expect(outcome.ok).toBe(true);
    }
    expect(as.tokenRequests.length - before).toBe(1);
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

  it('a value the rules of clientCredentials refuse names its variable, never the option, the value or a part of it', () => {
    // The attack: an operator who put the secret in the wrong variable (or a URL that carries one)
    // saw it in the error, under an option name (`Option "tokenEndpoint" … not http://<host>`) they never wrote.
    const leak = 'leaky-host-7f3e9a';
    const refused = (settings: Record<string, string>): string => {
      try {
        clientCredentialsFromEnv('APP_OAUTH', env(settings));
      } catch (error) {
        expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
        return (error as Error).message;
      }
      throw new Error('expected a refusal');
    };
    const cases: [Record<string, string>, string][] = [
      [{ APP_OAUTH_TOKEN_ENDPOINT: `http://${leak}.example/token` }, 'APP_OAUTH_TOKEN_ENDPOINT must be an https: URL'],
      [{ APP_OAUTH_TOKEN_ENDPOINT: `${leak} not a url` }, 'APP_OAUTH_TOKEN_ENDPOINT must be an absolute URL'],
      [{ APP_OAUTH_TOKEN_ENDPOINT: `https://user:${leak}@auth.example/token` }, 'APP_OAUTH_TOKEN_ENDPOINT must not carry a user name or password'],
      [{ APP_OAUTH_TOKEN_ENDPOINT: 'http://169.254.169.254/token' }, 'APP_OAUTH_TOKEN_ENDPOINT must be an https: URL'],
      [{ APP_OAUTH_TOKEN_ENDPOINT: `https://10.1.2.3/${leak}` }, 'APP_OAUTH_TOKEN_ENDPOINT is a private-network address'],
      [{ APP_OAUTH_ISSUER: `http://${leak}.example` }, 'APP_OAUTH_ISSUER must be an https: URL'],
      [{ APP_OAUTH_RESOURCE: `https://api.example/ ${leak}` }, 'APP_OAUTH_RESOURCE must give absolute URIs'],
      [{ APP_OAUTH_RESOURCE: `https://api.example/#${leak}` }, 'APP_OAUTH_RESOURCE must not have a fragment'],
      [{ APP_OAUTH_SCOPE: `notes "${leak}` }, 'APP_OAUTH_SCOPE must give non-empty strings'],
    ];
    for (const [settings, expected] of cases) {
      const message = refused(settings);
      expect(message).toContain(expected);
      expect(message).not.toContain(leak);
      expect(message).not.toMatch(/Option "|169\.254|10\.1\.2\.3/);
    }
  });
});
