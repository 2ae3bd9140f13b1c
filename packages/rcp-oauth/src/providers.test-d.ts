import { expectTypeOf, it } from 'vitest';
import { createRcpClient, type RcpClientOptions, type RcpUnauthorizedHandler } from 'rcp-client';
import {
  clientCredentials,
  clientCredentialsFromEnv,
  createMemoryTokenStore,
  userTokens,
  type RcpOAuthProvider,
  type RcpStoredToken,
  type RcpTokenError,
  type RcpTokenStore,
} from './index';
import type { RcpErrorOf } from 'rcp-errors';

it('a provider spreads into createRcpClient: both options, typed by the context', () => {
  const provider = clientCredentials({ tokenEndpoint: 'https://auth.example.com/token', clientId: 'c', clientSecret: 's' });
  createRcpClient({ ...provider, resolvers: { tenant: () => 't-1' } });
  expectTypeOf(provider).toMatchTypeOf<Pick<RcpClientOptions, 'credentials' | 'onUnauthorized'>>();
  expectTypeOf(provider.onUnauthorized).toMatchTypeOf<RcpUnauthorizedHandler>();

  const perUser = userTokens<{ userId: string }>({ subject: (ctx) => ctx.userId, obtain: () => undefined });
  expectTypeOf(perUser).toEqualTypeOf<RcpOAuthProvider<{ userId: string }>>();
  createRcpClient<{ userId: string }>({ ...perUser, resolvers: { userId: (ctx) => ctx.userId } });
  // @ts-expect-error the subject reads the context's own type
  userTokens<{ userId: string }>({ subject: (ctx) => ctx.accountId, obtain: () => undefined });
});

it('options reject what they do not know, and RcpTokenError is a RCP_MISSING_CREDENTIALS error', () => {
  // @ts-expect-error a misspelled option
  clientCredentials({ tokenEndpoint: 'https://a.example/token', clientId: 'c', clientSecret: 's', scopes: 'x' });
  // @ts-expect-error not an authentication method
  clientCredentials({ tokenEndpoint: 'https://a.example/token', clientId: 'c', clientSecret: 's', clientAuthentication: 'none' });
  expectTypeOf<RcpTokenError>().toMatchTypeOf<RcpErrorOf<'RCP_MISSING_CREDENTIALS'>>();
  expectTypeOf<RcpTokenError['error']>().toEqualTypeOf<string | undefined>();
});

it('a token store: the in-memory default and any object of the four methods; the store option takes one', () => {
  const store = createMemoryTokenStore();
  expectTypeOf(store).toEqualTypeOf<RcpTokenStore>();
  expectTypeOf(store.get).returns.toEqualTypeOf<Promise<RcpStoredToken | undefined>>();
  expectTypeOf(store.lock).returns.toEqualTypeOf<Promise<string | undefined>>();
  expectTypeOf<Parameters<RcpTokenStore['set']>>().toEqualTypeOf<[key: string, token: RcpStoredToken, ttl: number, lease?: string]>();
  clientCredentials({ tokenEndpoint: 'https://a.example/token', clientId: 'c', clientSecret: 's', store });
  userTokens({ subject: () => 'u', obtain: () => undefined, store, lockTimeout: 60_000 });
  // @ts-expect-error a store has get, set, lock and unlock
  clientCredentials({ tokenEndpoint: 'https://a.example/token', clientId: 'c', clientSecret: 's', store: new Map() });
  // @ts-expect-error an access token is a string
  const token: RcpStoredToken = { accessToken: 1 };
  void token;
});

it('clientCredentialsFromEnv takes a token store, and only a token store, as options.store', () => {
  const provider = clientCredentialsFromEnv('APP_OAUTH', {}, { store: createMemoryTokenStore() });
  expectTypeOf(provider).toEqualTypeOf<RcpOAuthProvider<any>>();
  // @ts-expect-error a store has get, set, lock and unlock
  clientCredentialsFromEnv('APP_OAUTH', {}, { store: new Map() });
});
