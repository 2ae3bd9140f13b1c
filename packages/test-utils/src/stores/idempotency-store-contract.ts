import { describe, expect, it } from 'vitest';

/**
 * The shape of rcp-server's `RcpIdempotencyStore`, written here by shape: rcp-server's own tests
 * use this package, so it cannot depend on rcp-server. A store that is an `RcpIdempotencyStore`
 * is one of these (the type check of every caller holds the two together).
 */
export interface IdempotencyStoreUnderTest {
  begin(
    key: string,
    record: { readonly fingerprint: string; readonly lease: string },
    ttl: number,
  ): Promise<
    | { readonly state: 'in-flight'; readonly fingerprint: string; readonly lease: string }
    | { readonly state: 'completed'; readonly fingerprint: string; readonly response: string }
    | undefined
  >;
  complete(key: string, lease: string, record: { readonly fingerprint: string; readonly response: string }, ttl: number): Promise<boolean>;
  release(key: string, lease: string): Promise<boolean>;
}

/** How the contract suite gets a store and lets time pass for it. */
export interface IdempotencyStoreContractSetup {
  /** A store with no records (a fresh one, or one whose records the test will not meet: keys are unique per test). */
  create(): IdempotencyStoreUnderTest | Promise<IdempotencyStoreUnderTest>;
  /** Lets `ms` milliseconds pass on the store's clock: fake timers for an in-memory store, a real wait for a real engine's TTL. */
  elapse(ms: number): Promise<void>;
  /** The time to live the expiry cases give, in ms: anything for a fake clock, short (a few hundred ms) for a real one. */
  readonly ttl: number;
}

let counter = 0;
/** A key no other case (or earlier run against a shared engine) used. */
function freshKey(name: string): string {
  counter += 1;
  return `contract-${name}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2)}`;
}

const DAY = 86_400_000;

/**
 * The idempotency-store contract (rcp-server's docs/behaviour.md), written once and run against every
 * implementation: begin, complete, replay, release, atomicity under concurrent calls, expiry.
 *
 * @example
 * ```ts
 * describe('the in-memory store', () => {
 *   beforeEach(() => vi.useFakeTimers());
 *   afterEach(() => vi.useRealTimers());
 *   describeIdempotencyStoreContract('createMemoryIdempotencyStore', {
 *     create: () => createMemoryIdempotencyStore(),
 *     elapse: (ms) => vi.advanceTimersByTimeAsync(ms),
 *     ttl: 60_000,
 *   });
 * });
 * ```
 */
export function describeIdempotencyStoreContract(name: string, setup: IdempotencyStoreContractSetup): void {
  describe(`the idempotency-store contract: ${name}`, () => {
    it('begin takes a free key (undefined); a second begin changes nothing and gets the live in-flight record', async () => {
      const store = await setup.create();
      const key = freshKey('begin');
      expect(await store.begin(key, { fingerprint: 'f-1', lease: 'lease-1' }, DAY)).toBeUndefined();
      expect(await store.begin(key, { fingerprint: 'f-2', lease: 'lease-2' }, DAY)).toEqual({ state: 'in-flight', fingerprint: 'f-1', lease: 'lease-1' });
      expect(await store.begin(freshKey('other'), { fingerprint: 'f-3', lease: 'lease-3' }, DAY)).toBeUndefined();
    });

    it('complete by the lease holder stores the response, which every later begin gets (the replay)', async () => {
      const store = await setup.create();
      const key = freshKey('complete');
      const response = `sealed-${'x'.repeat(100_000)}`;
      await store.begin(key, { fingerprint: 'f-1', lease: 'lease-1' }, DAY);
      expect(await store.complete(key, 'lease-1', { fingerprint: 'f-1', response }, DAY)).toBe(true);
      for (let attempt = 0; attempt < 2; attempt++) {
        expect(await store.begin(key, { fingerprint: 'f-2', lease: `lease-${attempt + 2}` }, DAY)).toEqual({
          state: 'completed',
          fingerprint: 'f-1',
          response,
        });
      }
      // Completed is final: the lease no longer holds anything.
      expect(await store.complete(key, 'lease-1', { fingerprint: 'f-1', response: 'other' }, DAY)).toBe(false);
      expect(await store.release(key, 'lease-1')).toBe(false);
      expect(await store.begin(key, { fingerprint: 'f-3', lease: 'lease-9' }, DAY)).toEqual({ state: 'completed', fingerprint: 'f-1', response });
    });

    it('only the lease holder completes or releases; another lease, or a free key, changes nothing', async () => {
      const store = await setup.create();
      const key = freshKey('lease');
      expect(await store.complete(key, 'lease-1', { fingerprint: 'f-1', response: 'r' }, DAY)).toBe(false);
      expect(await store.release(key, 'lease-1')).toBe(false);
      expect(await store.begin(key, { fingerprint: 'f-1', lease: 'lease-1' }, DAY)).toBeUndefined();
      expect(await store.complete(key, 'lease-2', { fingerprint: 'f-1', response: 'r' }, DAY)).toBe(false);
      expect(await store.release(key, 'lease-2')).toBe(false);
      expect(await store.begin(key, { fingerprint: 'f-9', lease: 'lease-9' }, DAY)).toEqual({ state: 'in-flight', fingerprint: 'f-1', lease: 'lease-1' });
    });

    it('release gives the key back: the next begin takes it', async () => {
      const store = await setup.create();
      const key = freshKey('release');
      await store.begin(key, { fingerprint: 'f-1', lease: 'lease-1' }, DAY);
      expect(await store.release(key, 'lease-1')).toBe(true);
      expect(await store.release(key, 'lease-1')).toBe(false);
      expect(await store.begin(key, { fingerprint: 'f-2', lease: 'lease-2' }, DAY)).toBeUndefined();
      expect(await store.begin(key, { fingerprint: 'f-3', lease: 'lease-3' }, DAY)).toEqual({ state: 'in-flight', fingerprint: 'f-2', lease: 'lease-2' });
    });

    it('of concurrent begins of one key, exactly one takes it, and all the others see that one', async () => {
      const store = await setup.create();
      const key = freshKey('race');
      const results = await Promise.all(
        Array.from({ length: 16 }, (_, index) => store.begin(key, { fingerprint: `f-${index}`, lease: `lease-${index}` }, DAY)),
      );
      const winners = results.flatMap((result, index) => (result === undefined ? [index] : []));
      expect(winners).toHaveLength(1);
      const winner = winners[0]!;
      for (const result of results) {
        if (result !== undefined) expect(result).toEqual({ state: 'in-flight', fingerprint: `f-${winner}`, lease: `lease-${winner}` });
      }
    });

    it('of a concurrent complete and release by the holder, exactly one happens', async () => {
      const store = await setup.create();
      const key = freshKey('settle');
      await store.begin(key, { fingerprint: 'f-1', lease: 'lease-1' }, DAY);
      const [completed, released] = await Promise.all([
        store.complete(key, 'lease-1', { fingerprint: 'f-1', response: 'r' }, DAY),
        store.release(key, 'lease-1'),
      ]);
      expect([completed, released].filter(Boolean)).toHaveLength(1);
      const after = await store.begin(key, { fingerprint: 'f-2', lease: 'lease-2' }, DAY);
      expect(after).toEqual(completed ? { state: 'completed', fingerprint: 'f-1', response: 'r' } : undefined);
    });

    it('an in-flight record expires after its time to live: the key is free, and the old lease completes nothing', async () => {
      const store = await setup.create();
      const key = freshKey('in-flight-expiry');
      await store.begin(key, { fingerprint: 'f-1', lease: 'lease-1' }, setup.ttl);
      expect(await store.begin(key, { fingerprint: 'f-2', lease: 'lease-2' }, setup.ttl)).toMatchObject({ lease: 'lease-1' });
      await setup.elapse(setup.ttl + Math.max(50, setup.ttl / 2));
      expect(await store.complete(key, 'lease-1', { fingerprint: 'f-1', response: 'late' }, DAY)).toBe(false);
      expect(await store.begin(key, { fingerprint: 'f-3', lease: 'lease-3' }, DAY)).toBeUndefined();
      expect(await store.release(key, 'lease-1')).toBe(false);
      expect(await store.begin(key, { fingerprint: 'f-4', lease: 'lease-4' }, DAY)).toMatchObject({ state: 'in-flight', lease: 'lease-3' });
    });

    it('a completed record lives for the time to live complete gave, then the key runs again', async () => {
      const store = await setup.create();
      const key = freshKey('completed-expiry');
      await store.begin(key, { fingerprint: 'f-1', lease: 'lease-1' }, DAY);
      await store.complete(key, 'lease-1', { fingerprint: 'f-1', response: 'r' }, setup.ttl);
      expect(await store.begin(key, { fingerprint: 'f-2', lease: 'lease-2' }, DAY)).toMatchObject({ state: 'completed' });
      await setup.elapse(setup.ttl + Math.max(50, setup.ttl / 2));
      expect(await store.begin(key, { fingerprint: 'f-3', lease: 'lease-3' }, DAY)).toBeUndefined();
    });
  });
}
