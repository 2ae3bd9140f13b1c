import { describe, expect, it } from 'vitest';

/**
 * A review as a ledger keeps it, by shape (rcp-client's `RcpApprovalRequest`): rcp-client's own
 * tests use this package, so it cannot depend on rcp-client.
 */
export interface ApprovalLedgerReview {
  readonly tool: string;
  readonly manifestUrl: string;
  readonly decision: string;
  readonly reason?: string;
  readonly request: { readonly method: string; readonly url: string; readonly headers: Readonly<Record<string, string>>; readonly body?: unknown };
  readonly caller: string;
  readonly expiresAt: number;
  readonly digest: string;
  readonly id: string;
}

/**
 * The shape of rcp-client's `RcpApprovalLedger`, written here by shape (see
 * {@link ApprovalLedgerReview}); the type check of every caller holds the two together.
 */
export interface ApprovalLedgerUnderTest {
  save(key: string, review: ApprovalLedgerReview, ttl: number): Promise<void>;
  load(key: string): Promise<ApprovalLedgerReview | undefined>;
  claim(id: string, ttl: number): Promise<boolean>;
}

/** How the contract suite gets a ledger and lets time pass for it. */
export interface ApprovalLedgerContractSetup {
  /** A ledger (a fresh one, or a shared engine: keys are unique per case). */
  create(): ApprovalLedgerUnderTest | Promise<ApprovalLedgerUnderTest>;
  /** Lets `ms` milliseconds pass on the ledger's clock: fake timers in memory, a real wait for a real engine's TTL. */
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

const HOUR = 3_600_000;

/** A review with the fields a client writes (the contract never looks inside, it keeps and gives back). */
function reviewFor(id: string, url = 'https://api.example.com/users/u-1/notes/n-1'): ApprovalLedgerReview {
  return {
    tool: 'delete_note',
    manifestUrl: 'https://api.example.com/rcp/manifest',
    decision: 'user-approval',
    reason: 'the call changes data',
    request: { method: 'DELETE', url, headers: { Authorization: 'Bearer [redacted]' }, body: { nested: [1, 'two', null] } },
    caller: 'c'.repeat(64),
    expiresAt: Date.now() + HOUR,
    digest: 'd'.repeat(64),
    id: `${id}.${Date.now() + HOUR}`,
  };
}

/**
 * The approval-ledger contract (SPEC §19; rcp-client's docs/behaviour.md), written once and run against every implementation:
 * save and load, replacing, single use of `claim` under concurrent calls, expiry of reviews and
 * of used ids.
 *
 * @example
 * ```ts
 * describe('the in-memory ledger', () => {
 *   beforeEach(() => vi.useFakeTimers());
 *   afterEach(() => vi.useRealTimers());
 *   describeApprovalLedgerContract('createMemoryApprovalLedger', {
 *     create: () => createMemoryApprovalLedger(),
 *     elapse: (ms) => vi.advanceTimersByTimeAsync(ms),
 *     ttl: 60_000,
 *   });
 * });
 * ```
 */
export function describeApprovalLedgerContract(name: string, setup: ApprovalLedgerContractSetup): void {
  describe(`the approval-ledger contract: ${name}`, () => {
    it('load gives back what save kept, as plain data; an unknown key is undefined', async () => {
      const ledger = await setup.create();
      const key = freshKey('save');
      const review = reviewFor(freshKey('id'));
      await ledger.save(key, review, HOUR);
      expect(await ledger.load(key)).toEqual(review);
      expect(await ledger.load(freshKey('unknown'))).toBeUndefined();
    });

    it('a save replaces what the key held; other keys are untouched', async () => {
      const ledger = await setup.create();
      const [first, second] = [freshKey('a'), freshKey('b')];
      const one = reviewFor(freshKey('id'));
      const two = reviewFor(freshKey('id'), 'https://api.example.com/users/u-1/notes/n-2');
      await ledger.save(first, one, HOUR);
      await ledger.save(second, one, HOUR);
      await ledger.save(first, two, HOUR);
      expect(await ledger.load(first)).toEqual(two);
      expect(await ledger.load(second)).toEqual(one);
    });

    it('what was kept does not change when the saved object does', async () => {
      const ledger = await setup.create();
      const key = freshKey('copy');
      const review = structuredClone(reviewFor(freshKey('id'))) as { request: { url: string } } & ApprovalLedgerReview;
      await ledger.save(key, review, HOUR);
      review.request.url = 'https://evil.example/';
      expect((await ledger.load(key))?.request.url).toBe('https://api.example.com/users/u-1/notes/n-1');
    });

    it('claim is true once per id, false for every later claim; other ids are free', async () => {
      const ledger = await setup.create();
      const id = freshKey('claim');
      expect(await ledger.claim(id, HOUR)).toBe(true);
      expect(await ledger.claim(id, HOUR)).toBe(false);
      expect(await ledger.claim(id, HOUR)).toBe(false);
      expect(await ledger.claim(freshKey('other'), HOUR)).toBe(true);
    });

    it('of concurrent claims of one id, exactly one wins', async () => {
      const ledger = await setup.create();
      const id = freshKey('race');
      const results = await Promise.all(Array.from({ length: 16 }, () => ledger.claim(id, HOUR)));
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('a review expires after its time to live', async () => {
      const ledger = await setup.create();
      const key = freshKey('review-expiry');
      await ledger.save(key, reviewFor(freshKey('id')), setup.ttl);
      expect(await ledger.load(key)).toBeDefined();
      await setup.elapse(setup.ttl + Math.max(50, setup.ttl / 2));
      expect(await ledger.load(key)).toBeUndefined();
    });

    it('a used id is remembered for its time to live, then forgotten (the approval it marks has expired by then)', async () => {
      const ledger = await setup.create();
      const id = freshKey('claim-expiry');
      expect(await ledger.claim(id, setup.ttl)).toBe(true);
      expect(await ledger.claim(id, setup.ttl)).toBe(false);
      await setup.elapse(setup.ttl + Math.max(50, setup.ttl / 2));
      expect(await ledger.claim(id, setup.ttl)).toBe(true);
    });
  });
}
