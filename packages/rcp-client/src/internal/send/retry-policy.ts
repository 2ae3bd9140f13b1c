/**
 * The retry policy: which calls are retried, how often, and how long to wait. One file, so the
 * rule is written once (SPEC §11, "Retries").
 */
import type { RcpRetryOptions, RcpRetryReason } from '../../retry-options';

export type { RcpRetryOptions, RcpRetryReason };

/** Longest `Retry-After` honoured; a server asking for more is not retried (its error is returned). */
export const MAX_RETRY_AFTER_MS = 10_000;
/** Idempotent methods: the only ones retried unless the operator lists others. */
export const DEFAULT_RETRY_METHODS: readonly string[] = Object.freeze(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
/** Statuses that say "try again": request timeout, too many requests, bad gateway, unavailable, gateway timeout. */
export const DEFAULT_RETRY_STATUS_CODES: readonly number[] = Object.freeze([408, 429, 502, 503, 504]);

/** The checked policy a sender applies. */
export interface RetryPolicy {
  readonly limit: number;
  /** True when a call with `method` may be retried at all. */
  retries(method: string): boolean;
  /** True when `status` is one to retry. */
  retriesStatus(status: number): boolean;
  /** The wait before retry `attempt`, or `undefined` when the reason says not to retry. */
  delay(attempt: number, reason: RcpRetryReason): number | undefined;
}

/** Wait before retry number `retry` (1-based) when the server gives no `Retry-After`: 100, 200, 400, 800, 1000, 1000 ms... */
export function retryBackoff(retry: number): number {
  return Math.min(100 * 2 ** (retry - 1), 1_000);
}

/**
 * Milliseconds a `Retry-After` header asks to wait: delay-seconds or an HTTP date (a date in
 * the past is 0). `undefined` when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1_000;
  // An HTTP date always names a day or month; this keeps Date.parse's leniency ("1.5") out.
  if (!/[a-z]/i.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** The policy for a checked `retry` option (see `resolve-options.ts`). */
export function createRetryPolicy(options: Required<Pick<RcpRetryOptions, 'limit' | 'methods' | 'statusCodes'>> & Pick<RcpRetryOptions, 'delay'>): RetryPolicy {
  const methods = new Set(options.methods);
  const statuses = new Set(options.statusCodes);
  const { limit, delay: customDelay } = options;
  return {
    limit,
    retries: (method) => limit > 0 && methods.has(method),
    retriesStatus: (status) => statuses.has(status),
    delay(attempt, reason) {
      const asked = 'status' in reason ? reason.retryAfter : undefined;
      if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) return undefined;
      if (asked !== undefined) return asked;
      const wait = customDelay === undefined ? retryBackoff(attempt) : customDelay(attempt, reason);
      return Number.isFinite(wait) && wait >= 0 ? wait : retryBackoff(attempt);
    },
  };
}
