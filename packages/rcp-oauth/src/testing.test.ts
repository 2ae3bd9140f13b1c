import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { createRcpClient, isRcpError } from 'rcp-client';
import { sendJson, serveManifest, startTestServer, type TestServer } from 'rcp-test-utils';
import { clientCredentials, type RcpClientCredentialsOptions, RcpTokenError } from './index';
import { startLocalAuthorizationServer, type LocalAuthorizationServer } from './testing';

let api: TestServer;
let API: string;
let manifestUrl: string;
let auth: LocalAuthorizationServer;
beforeAll(async () => {
  // A loopback API (its origin is the tokens' audience) that records the bearer token it receives.
  api = await startTestServer({ 'GET /notes': (_request, response) => sendJson(response, 200, { notes: [] }) });
  API = api.origin;
  manifestUrl = serveManifest(api, {
    rcpVersion: '0.1',
    auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
    tools: [{ name: 'list_notes', description: 'Lists notes.', method: 'GET', url: '/notes' }],
  });
  auth = await startLocalAuthorizationServer({
    resource: API,
    clients: [
      { clientId: 'notes-agent', clientSecret: 'dev-secret-1', scope: 'notes:read notes:write' },
      { clientId: 'post-agent', clientSecret: 'dev-secret-2', scope: ['notes:read'], clientAuthentication: 'client_secret_post' },
    ],
    accessTokenSeconds: 120,
  });
});
afterAll(async () => {
  await auth.close();
  await api.close();
});

/** The token rcp-client sent to the API, with rcp-oauth's provider asking the local server; or the call's error's cause. */
async function tokenFor(options: Partial<RcpClientCredentialsOptions> = {}): Promise<string> {
  const client = createRcpClient(clientCredentials({ tokenEndpoint: auth.tokenEndpoint, clientId: 'notes-agent', clientSecret: 'dev-secret-1', ...options }));
  const outcome = await client.call(await client.discover(manifestUrl), { name: 'list_notes', arguments: {} });
  if (!outcome.ok) throw outcome.error.cause;
  return String(api.requests.at(-1)!.headers.authorization).replace(/^Bearer /, '');
}

async function verified(token: string) {
  const keys = (await (await fetch(auth.jwksUri)).json()) as JSONWebKeySet;
  return jwtVerify(token, createLocalJWKSet(keys), { issuer: auth.issuer, audience: API, typ: 'at+jwt' });
}

describe('rcp-oauth/testing: a local authorization server', () => {
  it('listens on 127.0.0.1 and issues JWT access tokens an API verifies with its published keys', async () => {
    expect(auth.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(auth.tokenEndpoint).toBe(`${auth.issuer}/token`);
    const token = await tokenFor({ scope: 'notes:read' });
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    const { payload } = await verified(token);
    expect(payload).toMatchObject({ iss: auth.issuer, aud: API, client_id: 'notes-agent', scope: 'notes:read' });
    expect(payload.exp! - payload.iat!).toBe(120);
  });

  it('gives the scope asked for, the resource named or not, and client_secret_post to a client registered so', async () => {
    expect((await verified(await tokenFor({ scope: 'notes:write notes:read', resource: API }))).payload.scope).toBe('notes:read notes:write');
    const post = await tokenFor({ clientId: 'post-agent', clientSecret: 'dev-secret-2', clientAuthentication: 'client_secret_post' });
    expect((await verified(post)).payload).toMatchObject({ client_id: 'post-agent', aud: API });
  });

  it('refuses what a real server refuses: a wrong secret, a scope the client lacks, another resource', async () => {
    const refused = (options: Partial<Parameters<typeof clientCredentials>[0]>) => tokenFor(options).catch((error: unknown) => error);
    expect(await refused({ clientSecret: 'wrong' })).toMatchObject({ error: 'invalid_client' });
    expect(
      await refused({ clientId: 'post-agent', clientSecret: 'dev-secret-2', clientAuthentication: 'client_secret_post', scope: 'notes:write' }),
    ).toMatchObject({
      error: 'invalid_scope',
    });
    const other = await refused({ resource: 'https://elsewhere.example/api' });
    expect(other).toBeInstanceOf(RcpTokenError);
    expect(other).toMatchObject({ error: 'invalid_target' });
  });

  it('bad options are RCP_INVALID_OPTIONS before anything listens', async () => {
    const refused = (options: unknown) => startLocalAuthorizationServer(options as never).catch((error: unknown) => error);
    const good = { resource: API, clients: [{ clientId: 'c', clientSecret: 's' }] };
    for (const options of [
      undefined,
      { ...good, resource: 'not a uri' },
      { ...good, resource: `${API}#fragment` },
      { ...good, clients: [] },
      { ...good, clients: [{ clientId: '', clientSecret: 's' }] },
      { ...good, clients: [{ clientId: 'c', clientSecret: 's', scope: 'a "b' }] },
      { ...good, clients: [{ clientId: 'c', clientSecret: 's', clientAuthentication: 'private_key_jwt' }] },
      { ...good, accessTokenSeconds: 0 },
      { ...good, port: 70_000 },
    ]) {
      expect(isRcpError(await refused(options), 'RCP_INVALID_OPTIONS'), JSON.stringify(options)).toBe(true);
    }
    const taken = await startTestServer();
    try {
      const error = await refused({ ...good, port: Number(new URL(taken.url('/')).port) });
      expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
      expect((error as Error).message).toContain('is in use');
    } finally {
      await taken.close();
    }
  });
});
