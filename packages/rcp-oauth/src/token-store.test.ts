import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRcpClient, isRcpError } from 'rcp-client';
import { describeTokenStoreContract } from 'rcp-test-utils/stores';
import { CLIENT_SECRETS, startAuthorizationServer, type AuthorizationServer, startToolApi, type ToolApi } from 'rcp-test-utils/oauth';
import { clientCredentials, createMemoryTokenStore, refreshTokenGrant, userTokens, type RcpTokenStore } from './index';

/** One provider instance on `store`, as the contract takes it: `userTokens` whose `obtain` is the case's fetch. */
function instanceOn(store: RcpTokenStore) {
  type Ctx = { key: string; fetch: () => Promise<{ accessToken: string; expiresIn?: number }> };
  const provider = userTokens<Ctx>({ subject: (ctx) => ctx.key, obtain: ({ ctx }) => ctx.fetch(), store });
  return async (key: string, fetch: Ctx['fetch']) =>
    provider.credentials({
      ctx: { key, fetch },
      origin: 'https://api.example.com',
      manifestUrl: 'https://api.example.com/rcp/manifest',
      tool: { name: 'list_notes' },
    });
}

describe('createMemoryTokenStore (fake clock)', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());
  describeTokenStoreContract('createMemoryTokenStore', {
    create: () => createMemoryTokenStore(),
    elapse: async (ms) => {
      await vi.advanceTimersByTimeAsync(ms);
    },
    ttl: 60_000,
    instance: instanceOn,
  });
});

describe('the store option', () => {
  it.each([
    ['a string', 'redis://127.0.0.1'],
    ['null', null],
    ['an object without lock', { get: async () => undefined, set: async () => true, unlock: async () => true }],
  ])('refuses %s with RCP_INVALID_OPTIONS, when the provider is created', (_what, store) => {
    const attempts = [
      () => clientCredentials({ tokenEndpoint: 'https://auth.example.com/token', clientId: 'c', clientSecret: 's', store: store as never }),
      () => userTokens({ subject: () => 'u', obtain: () => undefined, store: store as never }),
    ];
    for (const attempt of attempts) {
      let error: unknown;
      try {
        attempt();
      } catch (caught) {
        error = caught;
      }
      expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
      expect((error as Error).message).not.toContain('redis://');
    }
  });
});

describe('two instances sharing one store, against a real authorization server', () => {
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
  const listNotes = { name: 'list_notes', arguments: {} };

  it('clientCredentials: 64 calls across both make one token request; a revoked token is renewed once for both', async () => {
    const store = createMemoryTokenStore();
    const instances = await Promise.all(
      [0, 1].map(async () => {
        const client = createRcpClient(
          clientCredentials({ tokenEndpoint: as.tokenEndpoint, clientId: 'basic-client', clientSecret: CLIENT_SECRETS.basic, store }),
        );
        return { client, discovery: await client.discover(api.manifestUrl) };
      }),
    );
    const round = () => Promise.all(instances.flatMap(({ client, discovery }) => Array.from({ length: 32 }, () => client.call(discovery, listNotes))));
    expect((await round()).every((outcome) => outcome.ok)).toBe(true);
    expect(as.tokenRequests).toHaveLength(1);
    expect(new Set(api.tokens).size).toBe(1);

    await as.revoke(api.tokens[0]!);
    api.tokens.splice(0);
    expect((await round()).every((outcome) => outcome.ok)).toBe(true);
    expect(as.tokenRequests.map((request) => request.grantType)).toEqual(['client_credentials', 'client_credentials']);
    expect(new Set(api.tokens.filter((token) => token !== undefined)).size).toBe(2); // the refused one, then the one new token
  });

  it('userTokens with a rotating refresh token: each renewal spends it once, whichever instance needs it', async () => {
    const store = createMemoryTokenStore();
    // The application's own storage of refresh tokens, shared by both instances.
    const refreshTokens = new Map([['alice', await as.issueRefreshToken('alice')]]);
    const refresh = refreshTokenGrant({ tokenEndpoint: as.tokenEndpoint, issuer: as.issuer, clientId: 'user-client', clientSecret: CLIENT_SECRETS.user });
    const instances = await Promise.all(
      [0, 1].map(async () => {
        const client = createRcpClient<{ userId: string }>(
          userTokens<{ userId: string }>({
            subject: (ctx) => ctx.userId,
            store,
            async obtain({ subject }) {
              const tokens = await refresh(refreshTokens.get(subject)!);
              refreshTokens.set(subject, tokens.refreshToken!);
              return tokens;
            },
          }),
        );
        return { client, discovery: await client.discover(api.manifestUrl) };
      }),
    );
    const round = () =>
      Promise.all(instances.flatMap(({ client, discovery }) => Array.from({ length: 16 }, () => client.call(discovery, listNotes, { userId: 'alice' }))));
    expect((await round()).every((outcome) => outcome.ok)).toBe(true);
    await as.revoke(api.tokens[0]!);
    expect((await round()).every((outcome) => outcome.ok)).toBe(true);
    expect(as.tokenRequests.map((request) => [request.grantType, request.status])).toEqual([
      ['refresh_token', 200],
      ['refresh_token', 200],
    ]);
  });
});
