import { RcpError } from 'rcp-errors';

/**
 * What an idempotency store keeps for one key: the request that holds it while it runs
 * (`in-flight`, with the lease of that request), then its response (`completed`). Every field is
 * text the server made — a keyed hash and a sealed response, never a key, a principal or a body
 * in clear — so a store may write it as it is.
 *
 * @example
 * ```ts
 * const record: RcpIdempotencyRecord = { state: 'in-flight', fingerprint: 'q1Zx…', lease: '5c0d…' };
 * ```
 */
export type RcpIdempotencyRecord =
  | {
      readonly state: 'in-flight';
      /** The request's fingerprint (a keyed hash, base64url): another fingerprint under the same key is another request. */
      readonly fingerprint: string;
      /** The token of the request that holds the key: only it may complete or release the key. */
      readonly lease: string;
    }
  | {
      readonly state: 'completed';
      readonly fingerprint: string;
      /** The first response, sealed (AES-GCM under a key derived from the client's idempotency key, which is not stored). */
      readonly response: string;
    };

/**
 * Where `rcp-server` keeps idempotency records (docs/behaviour.md): a small contract, so that several
 * instances of an API can share one (`rcp-redis`), with an in-memory default owned by each server
 * ({@link createMemoryIdempotencyStore}). Keys are opaque text (base64url of a hash). Each method is
 * **atomic** on its key, and a record is gone once its time to live has passed:
 *
 * - `begin` creates an `in-flight` record when the key has none, or returns the live record as it
 *   is; of any number of concurrent `begin`s of one key, exactly one creates it.
 * - `complete` replaces the key's record with the `completed` one **only** while it is the
 *   `in-flight` record of that `lease`; the new record lives `ttl` from now.
 * - `release` deletes the key's record **only** while it is the `in-flight` record of that `lease`.
 *
 * @example
 * ```ts
 * import type { RcpIdempotencyStore } from 'rcp-server';
 *
 * const taken = await store.begin('k', { fingerprint: 'f', lease: 'l' }, 300_000);
 * if (taken === undefined) {
 *   // this request holds the key: run it, then
 *   await store.complete('k', 'l', { fingerprint: 'f', response: 'sealed' }, 86_400_000);
 * }
 * ```
 */
export interface RcpIdempotencyStore {
  /**
   * Takes `key` for a request: creates `{ state: 'in-flight', ...record }`, live for `ttl`
   * milliseconds, and resolves `undefined` — or, when the key has a live record, changes nothing
   * and resolves that record.
   */
  begin(key: string, record: { readonly fingerprint: string; readonly lease: string }, ttl: number): Promise<RcpIdempotencyRecord | undefined>;
  /**
   * Stores a request's response: when the key's record is `in-flight` with `lease`, replaces it
   * with `{ state: 'completed', ...record }`, live for `ttl` milliseconds, and resolves `true`;
   * otherwise (expired, released, another lease) changes nothing and resolves `false`.
   */
  complete(key: string, lease: string, record: { readonly fingerprint: string; readonly response: string }, ttl: number): Promise<boolean>;
  /** Gives a key back (its request failed): deletes the record when it is `in-flight` with `lease`; `true` when it did. */
  release(key: string, lease: string): Promise<boolean>;
}

/**
 * Options of {@link createMemoryIdempotencyStore}.
 *
 * @example
 * ```ts
 * const options: MemoryIdempotencyStoreOptions = { maxEntries: 50_000 };
 * ```
 */
export interface MemoryIdempotencyStoreOptions {
  /**
   * The most records kept. Past it, the oldest record is dropped (its key can run again), so
   * memory stays bounded whatever callers send.
   * @default 10_000
   */
  readonly maxEntries?: number;
}

interface Entry {
  readonly record: RcpIdempotencyRecord;
  readonly expiresAt: number;
}

/**
 * The in-memory idempotency store: one process's records in a `Map` the store owns (each
 * `createRcpServer` that needs one makes its own). Atomic because JavaScript runs one method at a
 * time; expiry by `Date.now()`, checked on every access (an expired record is dropped when it is
 * read, or as the oldest once the store is full).
 * For several instances, share a store instead (`rcp-redis`).
 *
 * @example
 * ```ts
 * import { createMemoryIdempotencyStore, createRcpServer } from 'rcp-server';
 *
 * const server = createRcpServer({ tools, idempotency: { store: createMemoryIdempotencyStore({ maxEntries: 1000 }) } });
 * ```
 */
export function createMemoryIdempotencyStore(options: MemoryIdempotencyStoreOptions = {}): RcpIdempotencyStore {
  const maxEntries = options.maxEntries ?? 10_000;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new RcpError('RCP_INVALID_OPTIONS', '"maxEntries" must be an integer ≥ 1');
  }
  const entries = new Map<string, Entry>();
  const live = (key: string, now: number): Entry | undefined => {
    const entry = entries.get(key);
    if (entry !== undefined && entry.expiresAt <= now) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  // Insertion order is age: a record written again is moved to the end.
  const put = (key: string, record: RcpIdempotencyRecord, ttl: number, now: number) => {
    entries.delete(key);
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
    entries.set(key, { record, expiresAt: now + ttl });
  };
  const heldBy = (key: string, lease: string, now: number): boolean => {
    const record = live(key, now)?.record;
    return record?.state === 'in-flight' && record.lease === lease;
  };

  return Object.freeze({
    async begin(key: string, record: { readonly fingerprint: string; readonly lease: string }, ttl: number) {
      const now = Date.now();
      const existing = live(key, now);
      if (existing !== undefined) return existing.record;
      put(key, { state: 'in-flight', fingerprint: record.fingerprint, lease: record.lease }, ttl, now);
      return undefined;
    },
    async complete(key: string, lease: string, record: { readonly fingerprint: string; readonly response: string }, ttl: number) {
      const now = Date.now();
      if (!heldBy(key, lease, now)) return false;
      put(key, { state: 'completed', fingerprint: record.fingerprint, response: record.response }, ttl, now);
      return true;
    },
    async release(key: string, lease: string) {
      if (!heldBy(key, lease, Date.now())) return false;
      entries.delete(key);
      return true;
    },
  });
}
