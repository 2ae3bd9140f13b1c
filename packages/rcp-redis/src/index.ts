export { createRedisIdempotencyStore } from './idempotency-store';
export type { RedisIdempotencyStoreOptions } from './idempotency-store';
export type { RedisCommands } from './redis-commands';
