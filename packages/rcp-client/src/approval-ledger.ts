import { RcpError } from 'rcp-errors';
import type { RcpApprovalRequest } from './approval';

/**
 * Where a client keeps the state of its approvals (SPEC §19; docs/behaviour.md): the reviews of calls waiting on a
 * person, by a key the caller chooses (an agent stack's tool call id), and the ids of the
 * approvals already used. Every entry has a time to live (the approval's expiry), so nothing
 * grows without bound. Give the clients of several processes one shared ledger (and one
 * `approvalSecret`) and a review made in one is approved in another, once: `rcp-redis`'s
 * `createRedisApprovalLedger` is one.
 *
 * Atomicity: `claim` is the one operation that must be atomic across every client sharing the
 * ledger — of any number of concurrent claims of one id, exactly one answers `true`. `save` and
 * `load` need only be last-writer-wins. What is stored is a review as a person is shown it (the
 * credential `[redacted]`, never its value); the client verifies every review it loads against
 * its keyed digest, so a ledger that is written by someone else can make a call fail, never send
 * another request.
 *
 * @example
 * ```ts
 * const ledger: RcpApprovalLedger = createMemoryApprovalLedger();
 * const client = createRcpClient({ approval: 'writes', approvalLedger: ledger });
 * ```
 */
export interface RcpApprovalLedger {
  /** Keeps `review` under `key` for `ttl` milliseconds (replacing what the key held). */
  save(key: string, review: RcpApprovalRequest, ttl: number): Promise<void>;
  /** The review kept under `key`, or `undefined` when there is none (or it expired). */
  load(key: string): Promise<RcpApprovalRequest | undefined>;
  /**
   * Marks the approval `id` used, for `ttl` milliseconds: `true` for the first claim of the id,
   * `false` for every later one while the mark lives — atomically, across every client sharing
   * the ledger.
   */
  claim(id: string, ttl: number): Promise<boolean>;
}

/**
 * Options of {@link createMemoryApprovalLedger}.
 *
 * @example
 * ```ts
 * const options: RcpMemoryApprovalLedgerOptions = { maxEntries: 10_000 };
 * ```
 */
export interface RcpMemoryApprovalLedgerOptions {
  /**
   * The most reviews kept at once: past it, the ones closest to expiring are dropped first (a
   * dropped review fails closed: its call is refused). Used ids are never dropped before their
   * approval expires (that would let it be used again); they are bounded by the expiry alone.
   * @default 100_000
   */
  readonly maxEntries?: number;
}

interface Entry<Value> {
  readonly value: Value;
  readonly expiresAt: number;
}

/** One map of entries that expire: read lazily, swept as it is written (amortised, no timer). */
class ExpiringMap<Value> {
  readonly #entries = new Map<string, Entry<Value>>();
  readonly #maxEntries: number;
  #writesSinceSweep = 0;

  constructor(maxEntries: number) {
    this.#maxEntries = maxEntries;
  }

  get(key: string, now: number): Value | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: Value, expiresAt: number, now: number): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt });
    this.#writesSinceSweep += 1;
    // A sweep costs one pass over the entries, paid for by as many writes.
    if (this.#writesSinceSweep >= Math.max(64, this.#entries.size / 2) || this.#entries.size > this.#maxEntries) this.#sweep(now);
  }

  #sweep(now: number): void {
    this.#writesSinceSweep = 0;
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
    if (this.#entries.size <= this.#maxEntries) return;
    const byExpiry = [...this.#entries].sort(([, a], [, b]) => a.expiresAt - b.expiresAt);
    for (const [key] of byExpiry.slice(0, this.#entries.size - this.#maxEntries)) this.#entries.delete(key);
  }
}

/** A time to live the ledger takes: a finite number of milliseconds above 0. */
function checkTtl(ttl: unknown, what: string): number {
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0)
    throw new RcpError('RCP_INVALID_OPTIONS', `${what}: the time to live must be a number of milliseconds above 0`);
  return ttl;
}

/**
 * The in-memory approval ledger: what a client uses when it is given none, owned by that client
 * (or by whoever creates it — pass one to several clients of a process to share it). Entries
 * expire on the clock `Date.now()` reads; expired ones are dropped as the ledger is written, so
 * it never grows past what is live (and `maxEntries`). Single use holds among the clients that
 * share this object only: across processes, use a shared ledger (`rcp-redis`).
 *
 * @example
 * ```ts
 * import { createMemoryApprovalLedger, createRcpClient } from 'rcp-client';
 *
 * const approvalLedger = createMemoryApprovalLedger();
 * const first = createRcpClient({ approval: 'writes', approvalSecret, approvalLedger });
 * const second = createRcpClient({ approval: 'writes', approvalSecret, approvalLedger });
 * ```
 */
export function createMemoryApprovalLedger(options: RcpMemoryApprovalLedgerOptions = {}): RcpApprovalLedger {
  const maxEntries = options?.maxEntries ?? 100_000;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) throw new RcpError('RCP_INVALID_OPTIONS', 'Option "maxEntries" must be a whole number above 0');
  const reviews = new ExpiringMap<RcpApprovalRequest>(maxEntries);
  const claimed = new ExpiringMap<true>(Number.POSITIVE_INFINITY);
  return Object.freeze({
    async save(key: string, review: RcpApprovalRequest, ttl: number): Promise<void> {
      const now = Date.now();
      // A copy: what is kept is what was saved, whatever the caller does with its object later.
      reviews.set(String(key), structuredClone(review), now + checkTtl(ttl, 'save()'), now);
    },
    async load(key: string): Promise<RcpApprovalRequest | undefined> {
      const review = reviews.get(String(key), Date.now());
      return review === undefined ? undefined : structuredClone(review);
    },
    async claim(id: string, ttl: number): Promise<boolean> {
      const now = Date.now();
      const expiresAt = now + checkTtl(ttl, 'claim()');
      // Synchronous from the read to the write: no other claim runs in between.
      if (claimed.get(String(id), now) !== undefined) return false;
      claimed.set(String(id), true, expiresAt, now);
      return true;
    },
  });
}
