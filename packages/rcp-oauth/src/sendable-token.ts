import { isHeaderValue } from 'rcp-internal';

/**
 * Whether an access token can be sent as the client sends a credential: a header value by
 * rcp-template's rule (no CR, LF or other control character, nothing outside Latin-1, no space
 * at either end) that is not blank. A token that fails it would be refused by the client on every
 * call (`RCP_MISSING_CREDENTIALS`) for as long as it was cached, so it is refused where it is
 * received, and never cached.
 *
 * @example
 * ```ts
 * isSendableToken('eyJhbGciOi.x.y'); // true
 * isSendableToken('abc\r\nX-Admin: 1'); // false
 * isSendableToken('\u00a0');          // false (blank)
 * ```
 */
export function isSendableToken(token: string): boolean {
  return token !== '' && isHeaderValue(token) && token.trim() !== '';
}
