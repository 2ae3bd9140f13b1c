import { RcpError } from 'rcp-errors';
import type { RcpApprovalLedger, RcpApprovalRequest } from 'rcp-client';
import type { RedisCommands } from './redis-commands';

/**
 * Options of {@link createRedisApprovalLedger}.
 *
 * @example
 * ```ts
 * const options: RedisApprovalLedgerOptions = { client, prefix: 'notes-app:approval:' };
 * ```
 */
export interface RedisApprovalLedgerOptions {
  /** A connected node-redis client (`await createClient({ url }).connect()`), or a cluster. */
  readonly client: RedisCommands;
  /**
   * What every key of this ledger starts with, so that several apps (or ledgers) can share one
   * Redis: reviews are `<prefix>review:<key>`, used approval ids `<prefix>used:<id>`.
   * @default 'rcp:approval:'
   */
  readonly prefix?: string;
}

/** A time to live Redis takes: a whole number of milliseconds, at least one. */
function milliseconds(ttl: number): number {
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0) {
    throw new RcpError('RCP_INVALID_OPTIONS', 'rcp-redis: the time to live must be a number of milliseconds above 0');
  }
  return Math.max(1, Math.ceil(ttl));
}

/**
 * rcp-client's approval ledger on Redis, for an app that runs as several instances or as
 * stateless routes (a fresh client per request): a call paused on one instance is approved on
 * another, and an approval is used once across all of them (SPEC §19; rcp-client's docs/behaviour.md). Give every client the
 * same ledger and the same `approvalSecret`.
 *
 * - `claim` is one `SET <prefix>used:<id> 1 NX PX ttl GET` (Redis 7.0 or later): of any number of
 *   concurrent claims of one id, on any instances, exactly one sets it;
 * - `save` is one `SET <prefix>review:<key> <json> PX ttl` (last writer wins), `load` one `GET`.
 *
 * Every key has a TTL (the approval's expiry), so nothing outlives it. A review is stored as a
 * person is shown it: the request with the credential `[redacted]` (never its value), resolver
 * values in, and the caller as a keyed fingerprint. Whoever can write this Redis can make a call
 * fail — the client verifies each review it loads against its keyed digest — never make it send
 * another request.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { createRcpClient } from 'rcp-client';
 * import { createRedisApprovalLedger } from 'rcp-redis';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const client = createRcpClient({
 *   approval: 'writes',
 *   approvalSecret: process.env.RCP_APPROVAL_SECRET,
 *   approvalLedger: createRedisApprovalLedger({ client: redis, prefix: 'notes-app:approval:' }),
 * });
 * ```
 */
export function createRedisApprovalLedger(options: RedisApprovalLedgerOptions): RcpApprovalLedger {
  const client = options?.client;
  if (typeof client?.set !== 'function' || typeof client.get !== 'function') {
    throw new RcpError('RCP_INVALID_OPTIONS', '"client" must be a connected node-redis client (createClient(…).connect())');
  }
  const prefix = options.prefix ?? 'rcp:approval:';
  if (typeof prefix !== 'string') throw new RcpError('RCP_INVALID_OPTIONS', '"prefix" must be a string');

  return Object.freeze({
    async save(key: string, review: RcpApprovalRequest, ttl: number): Promise<void> {
      await client.set(`${prefix}review:${key}`, JSON.stringify(review), { expiration: { type: 'PX', value: milliseconds(ttl) } });
    },
    async load(key: string): Promise<RcpApprovalRequest | undefined> {
      const value = await client.get(`${prefix}review:${key}`);
      if (value === null || value === undefined) return undefined;
      try {
        return JSON.parse(String(value)) as RcpApprovalRequest;
      } catch {
        // The client refuses what it cannot verify; a value that is not JSON is not a review.
        throw new Error(`rcp-redis: the value at "${prefix}review:${key.slice(0, 64)}" is not a review this ledger wrote`);
      }
    },
    async claim(id: string, ttl: number): Promise<boolean> {
      const previous = await client.set(`${prefix}used:${id}`, '1', { condition: 'NX', expiration: { type: 'PX', value: milliseconds(ttl) }, GET: true });
      return previous === null || previous === undefined;
    },
  });
}
