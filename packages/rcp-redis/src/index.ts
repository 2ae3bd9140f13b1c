export { createRedisApprovalLedger } from './approval-ledger';
export type { RedisApprovalLedgerOptions } from './approval-ledger';
export { createRedisIdempotencyStore } from './idempotency-store';
export type { RedisIdempotencyStoreOptions } from './idempotency-store';
export type { RedisCommands } from './redis-commands';
export { createRedisTokenStore } from './token-store';
export type { RedisTokenStoreOptions } from './token-store';
