import { describe, expect, it } from 'vitest';

/** A token as a store keeps it (rcp-oauth's `RcpStoredToken`, by shape). */
export interface StoredTokenUnderTest {
  readonly accessToken: string;
  readonly renewAt?: number | undefined;
  readonly expiresAt?: number | undefined;
}

/**
 * The shape of rcp-oauth's `RcpTokenStore`, written here by shape: rcp-oauth's own tests use this
 * package, so it cannot depend on rcp-oauth (the type check of every caller holds the two together).
 */
export interface TokenStoreUnderTest {
  get(key: string): Promise<StoredTokenUnderTest | undefined>;
  set(key: string, token: StoredTokenUnderTest, ttl: number, lease?: string): Promise<boolean>;
  lock(key: string, ttl: number): Promise<string | undefined>;
  unlock(key: string, lease: string): Promise<boolean>;
}

/** Takes the token of `key` as one provider instance does, asking `fetch` when it must (rcp-oauth's read-through). */
export type TokenInstance = (key: string, fetch: () => Promise<{ accessToken: string; expiresIn?: number }>) => Promise<string | undefined>;

/** How the contract suite gets a store, lets time pass for it, and puts provider instances on it. */
export interface TokenStoreContractSetup {
  /** A store (a fresh one, or a shared engine: keys are unique per case). */
  create(): TokenStoreUnderTest | Promise<TokenStoreUnderTest>;
  /** Lets `ms` milliseconds pass on the store's clock: fake timers in memory, a real wait for a real engine's TTL. */
  elapse(ms: number): Promise<void>;
  /** The time to live the expiry cases give, in ms: anything for a fake clock, short (a few hundred ms) for a real one. */
  readonly ttl: number;
  /** One provider instance (its own cache) on `store`: rcp-oauth's `userTokens({ store, … })`. */
  instance(store: TokenStoreUnderTest): TokenInstance;
}

let counter = 0;
/** A key no other case (or earlier run against a shared engine) used. */
function freshKey(name: string): string {
  counter += 1;
  return `contract-${name}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2)}`;
}

const HOUR = 3_600_000;

/**
 * The token-store contract (rcp-oauth's docs/behaviour.md), written once and run against every implementation: get and
 * set with a time to live, a lock with exactly one holder under concurrent calls, stores fenced by
 * the lease, lapsed leases — and provider instances on one store making one fetch for all.
 *
 * @example
 * ```ts
 * describe('the in-memory store', () => {
 *   beforeEach(() => vi.useFakeTimers());
 *   afterEach(() => vi.useRealTimers());
 *   describeTokenStoreContract('createMemoryTokenStore', {
 *     create: () => createMemoryTokenStore(),
 *     elapse: (ms) => vi.advanceTimersByTimeAsync(ms),
 *     ttl: 60_000,
 *     instance: (store) => { const provider = userTokens({ store, … }); return (key, fetch) => … },
 *   });
 * });
 * ```
 */
export function describeTokenStoreContract(name: string, setup: TokenStoreContractSetup): void {
  /** Lets the store's time pass until `promise` settles (waiters look at the store on a timer). */
  async function settle<T>(promise: Promise<T>): Promise<T> {
    let done = false;
    const watched = promise.finally(() => {
      done = true;
    });
    for (let step = 0; step < 1_000 && !done; step++) await setup.elapse(25);
    return watched;
  }

  describe(`the token-store contract: ${name}`, () => {
    it('get gives back what set kept, as plain data; an unknown key is undefined', async () => {
      const store = await setup.create();
      const [key, bare] = [freshKey('set'), freshKey('bare')];
      const token = { accessToken: 'eyJhbGciOi.at-1.sig', renewAt: Date.now() + HOUR / 2, expiresAt: Date.now() + HOUR };
      expect(await store.set(key, token, HOUR)).toBe(true);
      expect(await store.get(key)).toEqual(token);
      await store.set(bare, { accessToken: 'opaque-2' }, HOUR);
      expect(await store.get(bare)).toEqual({ accessToken: 'opaque-2' });
      expect(await store.get(freshKey('unknown'))).toBeUndefined();
    });

    it('a set replaces what the key held; other keys are untouched; what was kept does not change with the object', async () => {
      const store = await setup.create();
      const [first, second] = [freshKey('a'), freshKey('b')];
      const token = { accessToken: 'at-1' } as { accessToken: string };
      await store.set(first, token, HOUR);
      await store.set(second, token, HOUR);
      await store.set(first, { accessToken: 'at-2' }, HOUR);
      token.accessToken = 'changed';
      expect(await store.get(first)).toEqual({ accessToken: 'at-2' });
      expect(await store.get(second)).toEqual({ accessToken: 'at-1' });
    });

    it('a token is gone after its time to live', async () => {
      const store = await setup.create();
      const key = freshKey('expiry');
      await store.set(key, { accessToken: 'at-1' }, setup.ttl);
      expect(await store.get(key)).toBeDefined();
      await setup.elapse(setup.ttl + Math.max(50, setup.ttl / 2));
      expect(await store.get(key)).toBeUndefined();
    });

    it('lock gives one lease; only that lease unlocks; then the lock is free again', async () => {
      const store = await setup.create();
      const key = freshKey('lock');
      const lease = await store.lock(key, HOUR);
      expect(typeof lease).toBe('string');
      expect(await store.lock(key, HOUR)).toBeUndefined();
      expect(await store.unlock(key, 'not-the-lease')).toBe(false);
      expect(await store.lock(key, HOUR)).toBeUndefined();
      expect(await store.unlock(key, lease!)).toBe(true);
      expect(await store.unlock(key, lease!)).toBe(false);
      const next = await store.lock(key, HOUR);
      expect(next).toBeDefined();
      expect(next).not.toBe(lease);
      expect(await store.lock(freshKey('other'), HOUR)).toBeDefined();
    });

    it('of concurrent locks of one key, exactly one gets a lease', async () => {
      const store = await setup.create();
      const key = freshKey('race');
      const leases = await Promise.all(Array.from({ length: 16 }, () => store.lock(key, HOUR)));
      expect(leases.filter((lease) => lease !== undefined)).toHaveLength(1);
    });

    it('a set with a lease stores only while that lease holds the lock', async () => {
      const store = await setup.create();
      const key = freshKey('fenced');
      const lease = (await store.lock(key, HOUR))!;
      expect(await store.set(key, { accessToken: 'at-1' }, HOUR, lease)).toBe(true);
      await store.unlock(key, lease);
      const next = (await store.lock(key, HOUR))!;
      expect(await store.set(key, { accessToken: 'late' }, HOUR, lease)).toBe(false);
      expect(await store.get(key)).toEqual({ accessToken: 'at-1' });
      expect(await store.set(key, { accessToken: 'at-2' }, HOUR, next)).toBe(true);
      expect(await store.get(key)).toEqual({ accessToken: 'at-2' });
    });

    it('a lease lapses after its time to live: the lock is free, and the old lease stores and unlocks nothing', async () => {
      const store = await setup.create();
      const key = freshKey('lapse');
      const lease = (await store.lock(key, setup.ttl))!;
      await setup.elapse(setup.ttl + Math.max(50, setup.ttl / 2));
      const next = await store.lock(key, HOUR);
      expect(next).toBeDefined();
      expect(await store.set(key, { accessToken: 'late' }, HOUR, lease)).toBe(false);
      expect(await store.unlock(key, lease)).toBe(false);
      expect(await store.get(key)).toBeUndefined();
      expect(await store.lock(key, HOUR)).toBeUndefined();
    });

    it('four instances on one store, 16 concurrent calls each: one fetch, and every call gets its token', async () => {
      const store = await setup.create();
      const key = freshKey('single-flight');
      let fetches = 0;
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const fetch = async () => {
        fetches += 1;
        await released;
        return { accessToken: `at-${fetches}`, expiresIn: 600 };
      };
      const instances = Array.from({ length: 4 }, () => setup.instance(store));
      const calls = Promise.all(instances.flatMap((take) => Array.from({ length: 16 }, () => take(key, fetch))));
      // The others are waiting on the holder's lock meanwhile.
      for (let step = 0; step < 4; step++) await setup.elapse(25);
      expect(fetches).toBe(1);
      release();
      expect(new Set(await settle(calls))).toEqual(new Set(['at-1']));
      expect(fetches).toBe(1);
      // A fresh instance later reads the stored token: still one fetch.
      expect(await setup.instance(store)(key, fetch)).toBe('at-1');
      expect(fetches).toBe(1);
    });
  });
}
