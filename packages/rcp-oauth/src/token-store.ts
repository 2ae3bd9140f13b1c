/**
 * A cached access token as a provider keeps it in an {@link RcpTokenStore}: plain data (a store
 * may serialise it), with epoch-millisecond times.
 *
 * @example
 * ```ts
 * const token: RcpStoredToken = { accessToken: 'eyJhbGciOi.x.y', renewAt: Date.now() + 540_000, expiresAt: Date.now() + 600_000 };
 * ```
 */
export interface RcpStoredToken {
  readonly accessToken: string;
  /** After this a new token is fetched first; `undefined`: no `expires_in`, kept until a tool refuses it. */
  readonly renewAt?: number | undefined;
  /** After this the token is not used at all; `undefined`: no `expires_in`. */
  readonly expiresAt?: number | undefined;
}

/**
 * Where a provider keeps its access tokens, and how several instances agree on who fetches the
 * next one. rcp-oauth's providers use it as a read-through cache with a lock (docs/behaviour.md):
 *
 * - `get` / `set`: the token of a key, for `ttl` ms;
 * - `lock(key, ttl)`: a lease on the key's fetch — a fresh random id when taken, `undefined` while
 *   another holder's lease lives. Of any number of concurrent `lock` calls of one key, on any
 *   instances sharing the store, exactly one gets a lease; a lease lapses after `ttl` ms;
 * - `set(key, token, ttl, lease)` with a lease stores only while that lease still holds the lock
 *   (a compare-and-set: `false` otherwise, nothing written), so a holder whose lease lapsed can no
 *   longer overwrite the token a later holder fetched;
 * - `unlock(key, lease)` ends the lease, only when it is still the holder's.
 *
 * Keys are rcp-oauth's (token endpoint, issuer, client id, scope, resource, or `userTokens`'
 * subject): a store that keeps them outside the process names them by a keyed hash, and a store
 * that keeps tokens outside the process encrypts them or says why not (rcp-redis does both).
 *
 * @example
 * ```ts
 * import { clientCredentials, createMemoryTokenStore } from 'rcp-oauth';
 *
 * const store = createMemoryTokenStore(); // or rcp-redis's createRedisTokenStore({ client, secret })
 * const provider = clientCredentials({ tokenEndpoint, clientId, clientSecret, store });
 * ```
 */
export interface RcpTokenStore {
  /** The token of `key`, or `undefined` when there is none (or its time to live ran out). */
  get(key: string): Promise<RcpStoredToken | undefined>;
  /** Keeps `token` under `key` for `ttl` ms; with `lease`, only while that lease holds the key's lock. */
  set(key: string, token: RcpStoredToken, ttl: number, lease?: string): Promise<boolean>;
  /** Takes the lock of `key` for `ttl` ms: a lease id, or `undefined` while another lease lives. */
  lock(key: string, ttl: number): Promise<string | undefined>;
  /** Ends `lease` on `key`'s lock; `false` when it was no longer the holder (lapsed, or never). */
  unlock(key: string, lease: string): Promise<boolean>;
}

interface Timed<T> {
  readonly value: T;
  readonly until: number;
}

/**
 * The in-memory {@link RcpTokenStore}, owned by whoever creates it (never module state): what
 * every provider uses when given no `store`. Share one between providers of one process to share
 * their tokens; use rcp-redis's `createRedisTokenStore` to share them between processes.
 *
 * @example
 * ```ts
 * import { clientCredentials, createMemoryTokenStore } from 'rcp-oauth';
 *
 * const store = createMemoryTokenStore();
 * const reads = clientCredentials({ tokenEndpoint, clientId, clientSecret, scope: 'notes:read', store });
 * ```
 */
export function createMemoryTokenStore(): RcpTokenStore {
  const tokens = new Map<string, Timed<RcpStoredToken>>();
  const locks = new Map<string, Timed<string>>();

  function live<T>(map: Map<string, Timed<T>>, key: string): T | undefined {
    const entry = map.get(key);
    if (entry === undefined) return undefined;
    if (Date.now() < entry.until) return entry.value;
    map.delete(key);
    return undefined;
  }

  return Object.freeze({
    async get(key: string) {
      const token = live(tokens, key);
      return token === undefined ? undefined : { ...token };
    },
    async set(key: string, token: RcpStoredToken, ttl: number, lease?: string) {
      if (lease !== undefined && live(locks, key) !== lease) return false;
      tokens.set(key, { value: { ...token }, until: Date.now() + ttl });
      return true;
    },
    async lock(key: string, ttl: number) {
      if (live(locks, key) !== undefined) return undefined;
      const lease = crypto.randomUUID();
      locks.set(key, { value: lease, until: Date.now() + ttl });
      return lease;
    },
    async unlock(key: string, lease: string) {
      if (live(locks, key) !== lease) return false;
      locks.delete(key);
      return true;
    },
  });
}
