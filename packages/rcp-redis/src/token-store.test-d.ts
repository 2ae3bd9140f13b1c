import type { RcpTokenStore } from 'rcp-oauth';
import { clientCredentials } from 'rcp-oauth';
import type { RedisClientType } from 'redis';
import { expectTypeOf, test } from 'vitest';
import { createRedisTokenStore, type RedisTokenStoreOptions } from './index';

test('takes a node-redis client as it is and a secret, and is an rcp-oauth token store', () => {
  const client = {} as RedisClientType;
  const store = createRedisTokenStore({ client, secret: 'x'.repeat(32), prefix: 'agent:oauth:' });
  expectTypeOf(store).toEqualTypeOf<RcpTokenStore>();
  clientCredentials({ tokenEndpoint: 'https://auth.example.com/token', clientId: 'c', clientSecret: 's', store });
  createRedisTokenStore({ client, secret: new Uint8Array(32) });
  // @ts-expect-error the secret is required
  createRedisTokenStore({ client });
  // @ts-expect-error a misspelled option is refused
  createRedisTokenStore({ client, secret: 'x'.repeat(32), prefx: 'agent:' });
  expectTypeOf<RedisTokenStoreOptions['prefix']>().toEqualTypeOf<string | undefined>();
});
