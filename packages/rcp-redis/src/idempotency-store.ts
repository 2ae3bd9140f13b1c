import { RcpError } from 'rcp-errors';
import type { RcpIdempotencyRecord, RcpIdempotencyStore } from 'rcp-server';
import type { RedisCommands } from './redis-commands';

/**
 * Options of {@link createRedisIdempotencyStore}.
 *
 * @example
 * ```ts
 * const options: RedisIdempotencyStoreOptions = { client, prefix: 'payments-api:idempotency:' };
 * ```
 */
export interface RedisIdempotencyStoreOptions {
  /** A connected node-redis client (`await createClient({ url }).connect()`), or a cluster. */
  readonly client: RedisCommands;
  /**
   * What every key of this store starts with, so that several APIs (or stores) can share one
   * Redis: the records are `<prefix><hash>`.
   * @default 'rcp:idempotency:'
   */
  readonly prefix?: string;
}

/**
 * `complete`: replaces the record with the completed one, live for ARGV[3] ms, only while it is
 * the in-flight record of lease ARGV[1] (a compare-and-set: the read and the write are one step).
 */
const COMPLETE = `local current = redis.call('GET', KEYS[1])
if not current then return 0 end
local record = cjson.decode(current)
if record.state ~= 'in-flight' or record.lease ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`;

/** `release`: deletes the record only while it is the in-flight record of lease ARGV[1]. */
const RELEASE = `local current = redis.call('GET', KEYS[1])
if not current then return 0 end
local record = cjson.decode(current)
if record.state ~= 'in-flight' or record.lease ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1`;

/** A time to live Redis takes: a whole number of milliseconds, at least one. */
function milliseconds(ttl: number): string {
  return String(Math.max(1, Math.ceil(ttl)));
}

/** A stored value as a record, or an error when something else wrote under the prefix. */
function readRecord(value: unknown, key: string): RcpIdempotencyRecord {
  let record: unknown;
  try {
    record = typeof value === 'string' ? JSON.parse(value) : undefined;
  } catch {
    record = undefined;
  }
  const fields = record as Partial<Record<'state' | 'fingerprint' | 'lease' | 'response', unknown>> | undefined;
  if (
    fields !== undefined &&
    typeof fields.fingerprint === 'string' &&
    ((fields.state === 'in-flight' && typeof fields.lease === 'string') || (fields.state === 'completed' && typeof fields.response === 'string'))
  ) {
    return fields as RcpIdempotencyRecord;
  }
  throw new Error(`rcp-redis: the value at "${key}" is not an idempotency record this store wrote`);
}

/**
 * rcp-server's idempotency store on Redis, for an API served by several instances: every
 * instance given the same Redis and prefix sees the same keys, so a retry that lands on another
 * instance is replayed, not run again (SPEC §20.1; rcp-server's docs/behaviour.md). Atomic by Redis itself:
 *
 * - `begin` is one `SET key value NX PX ttl GET` (Redis 7.0 or later): it sets the in-flight record
 *   only when the key has none, and answers the record that was there;
 * - `complete` and `release` are Lua scripts that compare the lease and write (or delete) in one
 *   step, so a request whose lease expired can no longer touch a key another request holds.
 *
 * Each record is one string key, `<prefix><hash>`, with a TTL (`PX`): the in-flight time to live
 * while the first request runs, the key's lifetime once it is completed. What it holds is what
 * rcp-server gives a store: a keyed hash of the request, a random lease and the response sealed
 * with AES-GCM — never the client's key, the principal, the request or the response in clear.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { createRcpServer } from 'rcp-server';
 * import { createRedisIdempotencyStore } from 'rcp-redis';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const server = createRcpServer({
 *   tools,
 *   idempotency: { store: createRedisIdempotencyStore({ client: redis, prefix: 'payments-api:' }) },
 * });
 * ```
 */
export function createRedisIdempotencyStore(options: RedisIdempotencyStoreOptions): RcpIdempotencyStore {
  const client = options?.client;
  if (typeof client?.set !== 'function' || typeof client.eval !== 'function') {
    throw new RcpError('RCP_INVALID_OPTIONS', '"client" must be a connected node-redis client (createClient(…).connect())');
  }
  const prefix = options.prefix ?? 'rcp:idempotency:';
  if (typeof prefix !== 'string') throw new RcpError('RCP_INVALID_OPTIONS', '"prefix" must be a string');

  return Object.freeze({
    async begin(key: string, record: { readonly fingerprint: string; readonly lease: string }, ttl: number) {
      const value = JSON.stringify({ state: 'in-flight', fingerprint: record.fingerprint, lease: record.lease });
      const previous = await client.set(prefix + key, value, { condition: 'NX', expiration: { type: 'PX', value: Number(milliseconds(ttl)) }, GET: true });
      return previous === null || previous === undefined ? undefined : readRecord(previous, prefix + key);
    },
    async complete(key: string, lease: string, record: { readonly fingerprint: string; readonly response: string }, ttl: number) {
      const value = JSON.stringify({ state: 'completed', fingerprint: record.fingerprint, response: record.response });
      return Number(await client.eval(COMPLETE, { keys: [prefix + key], arguments: [lease, value, milliseconds(ttl)] })) === 1;
    },
    async release(key: string, lease: string) {
      return Number(await client.eval(RELEASE, { keys: [prefix + key], arguments: [lease] })) === 1;
    },
  });
}
