import { REDACTED, RcpError, blankUnsafeText } from 'rcp-errors';

/**
 * What a {@link RcpTokenError} is built from. Text from the authorization server (`error`,
 * `errorDescription`) is untrusted: it is kept short, and the client secret is taken out.
 *
 * @example
 * ```ts
 * const details: RcpTokenErrorDetails = { tokenEndpoint: 'https://auth.example.com/oauth/token', grant: 'client_credentials', status: 401, error: 'invalid_client' };
 * ```
 */
export interface RcpTokenErrorDetails {
  /** The token endpoint, without query. */
  tokenEndpoint: string;
  /** The grant that was asked for. */
  grant: 'client_credentials' | 'refresh_token';
  /** The HTTP status of the token response, whenever one came (an error, a redirect, a 2xx that is not a usable token). */
  status?: number;
  /** The OAuth error code of the response (`invalid_client`, `invalid_scope` ...). */
  error?: string;
  /** The server's `error_description`, bounded. */
  errorDescription?: string;
  /** Why, when there was no OAuth error response (network failure, an unusable response). */
  reason?: string;
  /** Strings that must never be shown (the client secret): replaced by `[redacted]`. */
  secrets?: readonly string[];
}

const MAX_TEXT = 200;
const OAUTH_ERROR = /^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,64}$/;

/**
 * Server text made safe to show: secrets taken out, then controls blanked (in that order: a
 * secret holding a control character would no longer match once blanked), bounded.
 */
function shown(text: string, secrets: readonly string[]): string {
  let out = text;
  // The longest first, so a secret that holds another spelling is taken out whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) if (secret !== '') out = out.split(secret).join(REDACTED);
  out = blankUnsafeText(out);
  return out.length > MAX_TEXT ? `${out.slice(0, MAX_TEXT)}…` : out;
}

/**
 * Thrown by rcp-oauth's providers (code `RCP_MISSING_CREDENTIALS`) when the token endpoint does
 * not give an access token: an OAuth error response (`error`, `status`), a network failure or an
 * unusable answer (`reason`). rcp-client keeps it as the `cause` of the call's own
 * `RCP_MISSING_CREDENTIALS`; nothing was sent to the tool. It never holds a secret, a token or
 * the request body, and has no `cause` of its own (a library error may carry the response).
 *
 * @example
 * ```ts
 * import { isRcpError } from 'rcp-client';
 * const outcome = await client.call(discovery, toolCall);
 * if (!outcome.ok && isRcpError(outcome.error, 'RCP_MISSING_CREDENTIALS') && outcome.error.cause instanceof RcpTokenError) {
 *   console.warn(outcome.error.cause.error); // 'invalid_client'
 * }
 * ```
 */
export class RcpTokenError extends RcpError<'RCP_MISSING_CREDENTIALS'> {
  /** The token endpoint, without query. */
  readonly tokenEndpoint: string;
  /** The grant that was asked for. */
  readonly grant: 'client_credentials' | 'refresh_token';
  /** The HTTP status of the token response, whenever one came; `undefined` only when none did (a network failure, a timeout). */
  readonly status: number | undefined;
  /** The OAuth error code, when the server sent a well-formed one. */
  readonly error: string | undefined;
  /** The server's `error_description`: untrusted text, bounded, controls blanked. */
  readonly errorDescription: string | undefined;

  constructor(details: RcpTokenErrorDetails) {
    const secrets = details.secrets ?? [];
    const error = details.error !== undefined && OAUTH_ERROR.test(details.error) ? details.error : undefined;
    const description = details.errorDescription === undefined ? undefined : shown(details.errorDescription, secrets);
    const status = details.status === undefined ? '' : ` (status ${details.status})`;
    const why =
      error !== undefined
        ? `: ${error}${description === undefined ? '' : ` (${description})`}`
        : details.reason === undefined
          ? ''
          : `: ${shown(details.reason, secrets)}`;
    super('RCP_MISSING_CREDENTIALS', `The token endpoint ${details.tokenEndpoint} gave no access token for the ${details.grant} grant${status}${why}`);
    this.tokenEndpoint = details.tokenEndpoint;
    this.grant = details.grant;
    this.status = details.status;
    this.error = error;
    this.errorDescription = description;
  }
}
