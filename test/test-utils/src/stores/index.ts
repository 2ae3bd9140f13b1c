/**
 * `rcp-test-utils/stores`: what every store contract's tests share — the contract suites, written
 * once and run against each implementation (in-memory with a fake clock, Redis with a real TTL),
 * and a real `redis-server` on loopback. A subpath of its own, so that tests which need neither
 * never load vitest's suite helpers from here nor look for a Redis binary.
 */
export { describeApprovalLedgerContract } from './approval-ledger-contract';
export type { ApprovalLedgerContractSetup, ApprovalLedgerReview, ApprovalLedgerUnderTest } from './approval-ledger-contract';
export { describeIdempotencyStoreContract } from './idempotency-store-contract';
export type { IdempotencyStoreContractSetup, IdempotencyStoreUnderTest } from './idempotency-store-contract';
export { findRedisServer, redisTestAvailability, startRedisServer, REDIS_SERVER_INSTALL } from './redis-server';
export type { RedisServer } from './redis-server';
export { describeTokenStoreContract } from './token-store-contract';
export type { StoredTokenUnderTest, TokenInstance, TokenStoreContractSetup, TokenStoreUnderTest } from './token-store-contract';
