import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRcpClient, isRcpError, toModelResult } from 'rcp-client';
import { clientCredentials, refreshTokenGrant, RcpTokenError, userTokens, type RcpUserTokenRequest } from './index';
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
afterEach(() => {
  vi.useRealTimers();
  as.tokenRequests.splice(0);
  api.tokens.splice(0);
  api.server.reset();
  as.ttl = 600;
});

const basic = () => ({ tokenEndpoint: as.tokenEndpoint, clientId: 'basic-client', clientSecret: CLIENT_SECRETS.basic });
const listNotes = { name: 'list_notes', arguments: {} };

describe('clientCredentials + onUnauthorized: a revoked token', () => {
  it('401 from the tool → one new token → one retry → success (a POST too)', async () => {
    const client = createRcpClient(clientCredentials(basic()));
    const discovery = await client.discover(api.manifestUrl);
    await client.call(discovery, listNotes);
    const first = api.tokens[0]!;
    await as.revoke(first);
    const outcome = await client.call(discovery, { name: 'create_note', arguments: { title: 'milk' } });
    expect(outcome.ok && outcome.result).toMatchObject({ status: 201, data: { title: 'milk', client: 'basic-client' } });
    expect(as.tokenRequests).toHaveLength(2);
    expect(api.tokens).toEqual([first, first, api.tokens[2]]);
    expect(api.tokens[2]).not.toBe(first);
    const posts = api.server.requests.filter((request) => request.method === 'POST');
    expect(posts.map((request) => request.body)).toEqual(['{"title":"milk"}', '{"title":"milk"}']);
  });

  it('a second 401 is the error (no loop): two tool requests, one new token', async () => {
    const client = createRcpClient(clientCredentials(basic()));
    const discovery = await client.discover(api.manifestUrl);
    // The tool now refuses every token (it wants another audience, say).
    api.server.route('GET /notes', (request, res) => {
      api.tokens.push(String(request.headers.authorization).slice(7));
      res.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"', 'content-type': 'application/json' });
      res.end('{}');
    });
    try {
      const outcome = await client.call(discovery, listNotes);
      expect(!outcome.ok && outcome.error).toMatchObject({ code: 'RCP_HTTP_ERROR', status: 401, challenge: { error: 'invalid_token' } });
      expect(api.tokens).toHaveLength(2);
      expect(new Set(api.tokens).size).toBe(2);
      expect(as.tokenRequests).toHaveLength(2);
      expect(toModelResult(outcome)).toEqual({ ok: false, error: { code: 'RCP_HTTP_ERROR', message: expect.stringContaining('authorization required') } });
      expect(JSON.stringify(toModelResult(outcome))).not.toContain(api.tokens[0]!);
    } finally {
      api.restore();
    }
  });

  it('64 concurrent calls refused together: they share the renewal, and all succeed', async () => {
    const client = createRcpClient(clientCredentials(basic()));
    const discovery = await client.discover(api.manifestUrl);
    await client.call(discovery, listNotes);
    await as.revoke(api.tokens[0]!);
    const outcomes = await Promise.all(Array.from({ length: 64 }, () => client.call(discovery, listNotes)));
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    // The first token, then ONE renewal for all 64 refusals.
    expect(as.tokenRequests).toHaveLength(2);
    expect(new Set(api.tokens).size).toBe(2);
  });

  it('a token endpoint failing during the renewal leaves the 401 error, nothing more sent', async () => {
    const client = createRcpClient(clientCredentials(basic()));
    const discovery = await client.discover(api.manifestUrl);
    await client.call(discovery, listNotes);
    await as.revoke(api.tokens[0]!);
    api.server.reset();
    const failing = createRcpClient(clientCredentials({ ...basic(), clientSecret: 'not-the-secret-anymore' }));
    const failingDiscovery = await failing.discover(api.manifestUrl);
    const outcome = await failing.call(failingDiscovery, listNotes);
    expect(!outcome.ok && outcome.error.cause).toBeInstanceOf(RcpTokenError);
    expect(api.tokens.slice(1)).toHaveLength(0);
  });
});

describe('userTokens + refreshTokenGrant: per-user tokens, the storage the application’s', () => {
  function setup() {
    // The application's own storage: refresh tokens by user.
    const store = new Map<string, string>();
    const requests: RcpUserTokenRequest<{ userId: string }>[] = [];
    const refresh = refreshTokenGrant({ tokenEndpoint: as.tokenEndpoint, issuer: as.issuer, clientId: 'user-client', clientSecret: CLIENT_SECRETS.user });
    const tokens = userTokens<{ userId: string }>({
      subject: (ctx) => ctx.userId,
      async obtain(request) {
        requests.push(request);
        const stored = store.get(request.subject);
        if (stored === undefined) return undefined;
        const set = await refresh(stored);
        if (set.refreshToken !== undefined) store.set(request.subject, set.refreshToken);
        return set;
      },
    });
    return { store, requests, client: createRcpClient<{ userId: string }>(tokens) };
  }

  it('refresh-token rotation: each renewal stores the new refresh token; the old one is spent', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    as.ttl = 300;
    const { store, requests, client } = setup();
    const issued = await as.issueRefreshToken('alice');
    store.set('alice', issued);
    const discovery = await client.discover(api.manifestUrl);
    const alice = { userId: 'alice' };

    expect((await client.call(discovery, listNotes, alice)).ok).toBe(true);
    const second = store.get('alice')!;
    expect(second).not.toBe(issued);
    expect((await as.introspect(api.tokens[0]!))!.accountId).toBe('alice');

    // Cached until shortly before it expires…
    await client.call(discovery, listNotes, alice);
    expect(as.tokenRequests).toHaveLength(1);
    // …then renewed with the rotated refresh token.
    vi.setSystemTime(Date.now() + 250_000);
    expect((await client.call(discovery, listNotes, alice)).ok).toBe(true);
    expect(as.tokenRequests.map((request) => [request.grantType, request.params.refresh_token, request.status])).toEqual([
      ['refresh_token', issued, 200],
      ['refresh_token', second, 200],
    ]);
    expect(store.get('alice')).not.toBe(second);
    expect(requests.map((request) => request.reason)).toEqual(['initial', 'expiring']);

    // The spent refresh token is refused by the server: rotation is real.
    const refresh = refreshTokenGrant({ tokenEndpoint: as.tokenEndpoint, issuer: as.issuer, clientId: 'user-client', clientSecret: CLIENT_SECRETS.user });
    const reuse = await refresh(issued).catch((error: unknown) => error);
    expect(reuse).toBeInstanceOf(RcpTokenError);
    expect(reuse).toMatchObject({ error: 'invalid_grant', grant: 'refresh_token' });
    expect(JSON.stringify([reuse, (reuse as Error).message])).not.toContain(issued);
  });

  it('concurrent calls of one user: one refresh (a rotating token is used once); users are kept apart', async () => {
    const { store, client } = setup();
    store.set('alice', await as.issueRefreshToken('alice'));
    store.set('bob', await as.issueRefreshToken('bob'));
    const discovery = await client.discover(api.manifestUrl);
    const outcomes = await Promise.all([
      ...Array.from({ length: 16 }, () => client.call(discovery, listNotes, { userId: 'alice' })),
      ...Array.from({ length: 16 }, () => client.call(discovery, listNotes, { userId: 'bob' })),
    ]);
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect(as.tokenRequests).toHaveLength(2);
    const owners = await Promise.all([...new Set(api.tokens)].map(async (token) => (await as.introspect(token!))!.accountId));
    expect(owners.sort()).toEqual(['alice', 'bob']);
  });

  it('a revoked user token: 401 → obtain asked with reason and challenge → one retry → success', async () => {
    const { store, requests, client } = setup();
    store.set('alice', await as.issueRefreshToken('alice'));
    const discovery = await client.discover(api.manifestUrl);
    await client.call(discovery, listNotes, { userId: 'alice' });
    await as.revoke(api.tokens[0]!);
    const outcome = await client.call(discovery, listNotes, { userId: 'alice' });
    expect(outcome.ok).toBe(true);
    expect(requests.map((request) => request.reason)).toEqual(['initial', 'unauthorized']);
    expect(requests[1]!.challenge).toMatchObject({ scheme: 'Bearer', error: 'invalid_token' });
    expect(api.tokens).toHaveLength(3);
  });

  it('the expected issuer is checked: an ID token from another issuer is refused, typed, no token used', async () => {
    const wrongIssuer = refreshTokenGrant({
      tokenEndpoint: as.tokenEndpoint,
      issuer: 'http://127.0.0.1:9/not-this-server',
      clientId: 'user-client',
      clientSecret: CLIENT_SECRETS.user,
    });
    const refreshToken = await as.issueRefreshToken('alice');
    const error = await wrongIssuer(refreshToken).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(RcpTokenError);
    expect((error as Error).message).toMatch(/iss/);
    expect(JSON.stringify([error, (error as Error).message])).not.toContain(refreshToken);
    expect(JSON.stringify([error, (error as Error).message])).not.toContain(CLIENT_SECRETS.user);
  });

  it('a user with no token: RCP_MISSING_CREDENTIALS ("connect your account"), nothing sent', async () => {
    const { client } = setup();
    const discovery = await client.discover(api.manifestUrl);
    const outcome = await client.call(discovery, listNotes, { userId: 'carol' });
    expect(isRcpError(!outcome.ok ? outcome.error : undefined, 'RCP_MISSING_CREDENTIALS')).toBe(true);
    expect(api.tokens).toHaveLength(0);
    expect(as.tokenRequests).toHaveLength(0);
  });
});
