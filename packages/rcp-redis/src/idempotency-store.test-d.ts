import type { RcpIdempotencyStore } from 'rcp-server';
import type { RedisClientType } from 'redis';
import { expectTypeOf, test } from 'vitest';
import { createRedisIdempotencyStore, type RedisIdempotencyStoreOptions } from './index';

test('takes a node-redis client as it is, and is an rcp-server idempotency store', () => {
  const client = {} as RedisClientType;
  expectTypeOf(createRedisIdempotencyStore({ client, prefix: 'api:' })).toEqualTypeOf<RcpIdempotencyStore>();
  // @ts-expect-error the client is required
  createRedisIdempotencyStore({ prefix: 'api:' });
  // @ts-expect-error a misspelled option is refused
  createRedisIdempotencyStore({ client, prefx: 'api:' });
  expectTypeOf<RedisIdempotencyStoreOptions['prefix']>().toEqualTypeOf<string | undefined>();
});
