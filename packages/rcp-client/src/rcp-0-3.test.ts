/**
 * RCP 0.3 in the client (SPEC §18): declared effects feed approval policy and only add caution;
 * the OAuth hint is shown and never fetched. Real servers on 127.0.0.1, asserting what they got.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient, describeManifest, type RcpApprovalInfo } from 'rcp-client';
import { serveManifest } from './internal/testing';

let api: TestServer;
let other: TestServer;
beforeEach(async () => {
  api = await startTestServer();
  other = await startTestServer();
  for (const path of ['/export', '/search', '/ping', '/remove']) api.route(`* ${path}`, (_request, res) => sendJson(res, 200, { ok: true }));
  for (const path of ['/', '/token', '/.well-known/oauth-authorization-server'])
    other.route(`* ${path}`, (_request, res) => sendJson(res, 200, { access_token: 'stolen?' }));
});
afterEach(async () => {
  await Promise.all([api.close(), other.close()]);
});

const manifest = () => ({
  rcpVersion: '0.3',
  auth: {
    type: 'header',
    name: 'Authorization',
    scheme: 'Bearer',
    oauth: { scopes: ['notes.read', 'notes.write'], issuer: other.origin.replace('127.0.0.1', 'localhost'), grantTypes: ['client_credentials'] },
  },
  tools: [
    { name: 'export_all', description: 'Starts an export (a GET that wipes the cache).', method: 'GET', url: '/export', effects: { destructive: true } },
    { name: 'search', description: 'Searches by POST.', method: 'POST', url: '/search', body: {}, effects: { readOnly: true, openWorld: false } },
    { name: 'ping', description: 'Ping.', method: 'GET', url: '/ping' },
    { name: 'remove', description: 'Removes.', method: 'DELETE', url: '/remove', effects: { destructive: false } },
  ],
});

describe('declared effects', () => {
  it('are on the discovered tool: effective (only adding caution) and as declared', async () => {
    const discovery = await createRcpClient().discover(serveManifest(api, manifest()));
    expect(discovery.tool('export_all').effects).toEqual({ readOnly: false, destructive: true, idempotent: true, openWorld: true });
    expect(discovery.tool('export_all').declaredEffects).toEqual({ destructive: true });
    expect(discovery.tool('search').effects).toEqual({ readOnly: false, destructive: false, idempotent: false, openWorld: false });
    expect(discovery.tool('ping').effects).toEqual({ readOnly: true, destructive: false, idempotent: true, openWorld: true });
    expect(discovery.tool('ping')).not.toHaveProperty('declaredEffects');
    expect(discovery.tool('remove').effects.destructive).toBe(true);
  });

  it("'writes' pauses a GET declared destructive and a POST claiming read-only; a plain GET goes; nothing sent for the paused ones", async () => {
    const client = createRcpClient({ approval: 'writes', credentials: () => 'tok-1', retry: 0 });
    const discovery = await client.discover(serveManifest(api, manifest()));
    api.reset();
    const paused = await Promise.all(['export_all', 'search'].map((name) => client.call(discovery, { name, arguments: {} }, {})));
    expect(paused.map((outcome) => (outcome.ok ? 'sent' : outcome.error.code))).toEqual(['RCP_APPROVAL_REQUIRED', 'RCP_APPROVAL_REQUIRED']);
    expect(api.requests).toEqual([]);
    expect((await client.call(discovery, { name: 'ping', arguments: {} }, {})).ok).toBe(true);
    expect(api.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /ping']);
  });

  it('a policy function sees the effective effects and the claim, and may choose to trust the claim', async () => {
    const seen: Pick<RcpApprovalInfo, 'effects' | 'declared'>[] = [];
    const client = createRcpClient({
      retry: 0,
      credentials: () => 'tok-1',
      approval: ({ effects, declared }) => {
        seen.push({ effects, declared });
        return effects.readOnly || declared?.readOnly === true ? 'not-applicable' : 'user-approval';
      },
    });
    const discovery = await client.discover(serveManifest(api, manifest()));
    api.reset();
    expect((await client.call(discovery, { name: 'search', arguments: {} }, {})).ok).toBe(true);
    expect(seen).toEqual([
      { effects: { readOnly: false, destructive: false, idempotent: false, openWorld: false }, declared: { readOnly: true, openWorld: false } },
    ]);
    expect(api.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /search']);
  });
});

describe('the OAuth hint', () => {
  it('changes nothing sent: the credential goes to the tool only, nothing reaches the issuer it names', async () => {
    const client = createRcpClient({ credentials: () => 'tok-oauth-1', retry: 0, allowPrivateNetwork: true });
    const discovery = await client.discover(serveManifest(api, manifest()));
    const outcome = await client.call(discovery, { name: 'ping', arguments: {} }, {});
    expect(outcome.ok).toBe(true);
    expect(api.requests.at(-1)?.headers['authorization']).toBe('Bearer tok-oauth-1');
    expect(other.requests).toEqual([]);
    expect(discovery.tool('ping').auth).toEqual(manifest().auth);
  });

  it('describeManifest shows what a login needs and each declared effect (claims not taken say so)', async () => {
    const discovery = await createRcpClient().discover(serveManifest(api, manifest()));
    const text = describeManifest(discovery.manifest, discovery.tools);
    const issuer = manifest().auth.oauth.issuer;
    expect(text.split('\n')).toEqual([
      `RCP manifest v0.3 — auth: header "Authorization" (scheme: Bearer), OAuth 2 (scopes notes.read notes.write; issuer ${issuer}; grants client_credentials)`,
      '4 tool(s):',
      '- export_all (GET, effects: writes, destructive, idempotent) — Starts an export (a GET that wipes the cache).',
      '- search (POST, effects: writes, closed world (claims read-only: not taken for a POST)) — Searches by POST.',
      '- ping (GET) — Ping.',
      '- remove (DELETE, effects: writes, destructive, idempotent (claims not destructive: not taken for a DELETE)) — Removes.',
    ]);
  });
});
