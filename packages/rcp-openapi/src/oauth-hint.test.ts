import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient, describeManifest } from 'rcp-client';
import { sendJson, serveManifest, startTestServer, type TestServer } from 'rcp-test-utils';
import { fromOpenApi } from './index';

/**
 * Issue 22, item 4: `oauth2` and `openIdConnect` security schemes become the manifest's OAuth
 * hint (RCP 0.3, SPEC §18.2) — the scopes each operation needs, the grant types, an OpenID
 * issuer — so `rcp describe` shows what a login needs; the token URL is reported to the person,
 * never written into the manifest, and nothing is ever sent to it.
 */

type Json = Record<string, unknown>;

let api: TestServer;
let authServer: TestServer;
beforeEach(async () => {
  api = await startTestServer();
  authServer = await startTestServer();
  api.route('GET /notes', (_request, res) => sendJson(res, 200, { notes: [] }));
  api.route('DELETE /notes/n-1', (_request, res) => sendJson(res, 200, { deleted: true }));
  authServer.route('* /token', (_request, res) => sendJson(res, 200, { access_token: 'never' }));
});
afterEach(async () => {
  await Promise.all([api.close(), authServer.close()]);
});

const document = (schemes: Json, security: Json[] = [{ notesAuth: ['notes.read'] }]): Json => ({
  openapi: '3.0.3',
  info: { title: 'Notes', version: '1' },
  servers: [{ url: api.origin }],
  components: { securitySchemes: schemes },
  security,
  paths: {
    '/notes': { get: { operationId: 'listNotes', responses: { '200': { description: 'ok' } } } },
    '/notes/{noteId}': {
      delete: {
        operationId: 'deleteNote',
        security: [{ notesAuth: ['notes.read', 'notes.write'] }],
        parameters: [{ name: 'noteId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
});

const oauth2 = (): Json => ({
  notesAuth: {
    type: 'oauth2',
    flows: {
      clientCredentials: { tokenUrl: `${authServer.origin}/token`, scopes: { 'notes.read': 'read', 'notes.write': 'write' } },
      authorizationCode: { authorizationUrl: `${authServer.origin}/authorize`, tokenUrl: `${authServer.origin}/token`, scopes: {} },
    },
  },
});

describe('oauth2 and openIdConnect schemes become the OAuth hint', () => {
  it('the scopes of each operation, the grant types; the token URL only in the report', async () => {
    const { manifest, report } = await fromOpenApi(document(oauth2()));
    const bearer = { type: 'header', name: 'Authorization', scheme: 'Bearer' };
    expect(manifest.auth).toEqual({ ...bearer, oauth: { scopes: ['notes.read'], grantTypes: ['client_credentials', 'authorization_code'] } });
    const remove = manifest.tools.find((tool) => tool.name === 'deleteNote')!;
    expect(remove.auth).toEqual({ ...bearer, oauth: { scopes: ['notes.read', 'notes.write'], grantTypes: ['client_credentials', 'authorization_code'] } });
    expect(JSON.stringify(manifest)).not.toContain(authServer.origin);
    expect(report.documentWarnings).toContainEqual(expect.stringContaining(`tokenUrl ${authServer.origin}/token`));
  });

  it('OpenID Connect: the issuer its discovery URL names', async () => {
    const { manifest } = await fromOpenApi(
      document({ notesAuth: { type: 'openIdConnect', openIdConnectUrl: 'https://login.example.com/realm/.well-known/openid-configuration' } }),
    );
    expect(manifest.auth).toEqual({
      type: 'header',
      name: 'Authorization',
      scheme: 'Bearer',
      oauth: { scopes: ['notes.read'], issuer: 'https://login.example.com/realm' },
    });
  });

  it('what rcp-manifest refuses is left out and reported: a scope with a space, an http issuer', async () => {
    const { manifest, report } = await fromOpenApi(
      document({ notesAuth: { type: 'openIdConnect', openIdConnectUrl: 'http://login.example.com/.well-known/openid-configuration' } }, [
        { notesAuth: ['ok', 'two words'] },
      ]),
    );
    expect(manifest.auth).toEqual({ type: 'header', name: 'Authorization', scheme: 'Bearer', oauth: { scopes: ['ok'] } });
    expect(report.lossy.map((step) => step.message)).toContainEqual(
      expect.stringContaining('the OAuth hint leaves out 1 scope(s) that are not OAuth scope tokens and an OpenID Connect issuer that is not an https URL'),
    );
  });

  it('a call of the imported tool sends the operator’s token to the API only; describe shows what a login needs', async () => {
    const { manifest } = await fromOpenApi(document(oauth2()));
    const client = createRcpClient({ credentials: () => 'tok-from-rcp-oauth', trustedOrigins: [api.origin], retry: 0 });
    const discovery = await client.discover(serveManifest(api, manifest));
    const outcome = await client.call(discovery, { name: 'deleteNote', arguments: { noteId: 'n-1' } });
    expect(outcome.ok).toBe(true);
    expect(api.requests.at(-1)).toMatchObject({ method: 'DELETE', path: '/notes/n-1', headers: { authorization: 'Bearer tok-from-rcp-oauth' } });
    expect(authServer.requests).toEqual([]);
    expect(describeManifest(discovery.manifest, discovery.tools)).toContain(
      'auth: header "Authorization" (scheme: Bearer), OAuth 2 (scopes notes.read notes.write; grants client_credentials, authorization_code)',
    );
  });
});
