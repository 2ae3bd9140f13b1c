import { RcpError, type RcpAuthChallenge } from 'rcp-errors';

/**
 * What an {@link RcpHttpError} is built from.
 *
 * @example
 * ```ts
 * const details: RcpHttpErrorDetails = { status: 404, url: 'https://api.example.com/items/7', bodyExcerpt: 'not found' };
 * ```
 */
export interface RcpHttpErrorDetails {
  /** The HTTP status of the final response (after redirects). */
  status: number;
  /** The URL that answered, without query or fragment. */
  url: string;
  /** The start of the response body as text, already bounded and redacted. */
  bodyExcerpt: string;
  /** The request method, shown in the message. */
  method?: string;
  /** The status text the server sent, shown in the message. */
  statusText?: string;
  /** A 401's or 403's parsed `WWW-Authenticate` challenge, already redacted. */
  challenge?: RcpAuthChallenge | undefined;
  /** The seconds the server's `Retry-After` asked to wait, when it sent one. */
  retryAfterSeconds?: number | undefined;
  /** The underlying error, kept on `error.cause`. */
  cause?: unknown;
}

/**
 * Thrown (code `RCP_HTTP_ERROR`) when a tool's server answers with a status outside 2xx, after
 * redirects and retries. `bodyExcerpt` holds the start of the server's answer (at most 1,024
 * characters, with the call's credentials replaced by `[redacted]`) so an agent can read the
 * server's own explanation; `url` never contains the query string. On a 401 or 403, `challenge`
 * holds the server's parsed `WWW-Authenticate` challenge (`error`, `scope`,
 * `resourceMetadata` ...), for step-up or "connect your account" flows.
 *
 * @example
 * ```ts
 * import { isRcpError } from 'rcp-client';
 * try {
 *   await client.execute(tool, { query: 'algebra' });
 * } catch (error) {
 *   if (isRcpError(error, 'RCP_HTTP_ERROR')) console.log(error.status, error.bodyExcerpt);
 *   // 404 '{"error":"no such course"}'
 * }
 * ```
 */
export class RcpHttpError extends RcpError<'RCP_HTTP_ERROR'> {
  /** The HTTP status of the final response. */
  readonly status: number;
  /** The start of the response body as text: at most 1,024 characters, credentials redacted. */
  readonly bodyExcerpt: string;
  /** The URL that answered, without query or fragment. */
  readonly url: string;
  /**
   * A 401's or 403's `WWW-Authenticate` challenge (the Bearer one first), its values the server's
   * text, bounded and redacted; `undefined` when there was none.
   * @example
   * ```ts
   * if (error.status === 403 && error.challenge?.error === 'insufficient_scope') requestScope(error.challenge.scope);
   * ```
   */
  readonly challenge: RcpAuthChallenge | undefined;
  /**
   * How many seconds the server asked to wait before trying again (`Retry-After`, as seconds or
   * an HTTP date, rounded up; 0 for a date already past), when the final answer carried one —
   * typically a 429 or 503 whose wait was longer than the client's own (SPEC §11, Retries).
   * The model reads it too (`toModelResult`'s `error.retryAfterSeconds`).
   * @example
   * ```ts
   * if (isRcpError(error, 'RCP_HTTP_ERROR') && error instanceof RcpHttpError && error.retryAfterSeconds !== undefined) {
   *   scheduleRetry(error.retryAfterSeconds * 1000);
   * }
   * ```
   */
  readonly retryAfterSeconds: number | undefined;

  constructor(details: RcpHttpErrorDetails) {
    const statusText = details.statusText ? ` ${details.statusText}` : '';
    const method = details.method ? `${details.method} ` : '';
    super(
      'RCP_HTTP_ERROR',
      `Request failed with status ${details.status}${statusText}: ${method}${details.url}`,
      'cause' in details ? { cause: details.cause } : {},
    );
    this.status = details.status;
    this.bodyExcerpt = details.bodyExcerpt;
    this.url = details.url;
    this.challenge = details.challenge;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}
