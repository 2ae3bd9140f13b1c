/**
 * Why an attempt failed, as a retry `delay` function sees it: an HTTP status (with the wait
 * its `Retry-After` asks for, in ms, when it gives one) or a network error.
 *
 * @example
 * ```ts
 * const reason: RcpRetryReason = { status: 503, retryAfter: 2_000 };
 * ```
 */
export type RcpRetryReason = { readonly status: number; readonly retryAfter?: number } | { readonly error: unknown };

/**
 * The `retry` option as an object (ky and TanStack's shape): every field optional.
 *
 * @example
 * ```ts
 * createRcpClient({ retry: { limit: 4, statusCodes: [429, 503], delay: (attempt) => 250 * attempt } });
 * ```
 */
export interface RcpRetryOptions {
  /**
   * Retries after the first attempt.
   * @default 2
   */
  readonly limit?: number;
  /**
   * Methods that may be retried (upper case). Only list a non-idempotent one (POST, PATCH) for an
   * API that deduplicates retried requests.
   * @default ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']
   */
  readonly methods?: readonly string[];
  /**
   * Statuses that are retried (network errors always are, for the listed methods).
   * @default [408, 429, 502, 503, 504]
   */
  readonly statusCodes?: readonly number[];
  /**
   * Milliseconds to wait before retry number `attempt` (1-based). A server's `Retry-After` (up to
   * 10 s) is honoured first; one asking for longer means no retry.
   * @default min(100 · 2^(attempt−1), 1000)
   */
  readonly delay?: (attempt: number, reason: RcpRetryReason) => number;
}
