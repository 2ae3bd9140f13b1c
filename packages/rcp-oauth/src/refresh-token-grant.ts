import { checkClientIdentity } from './client-authentication';
import { DEFAULT_TOKEN_TIMEOUT, checkResources, checkScopes, checkValues, invalid, milliseconds, optionNamed } from './options';
import { checkEndpoint, type RcpTokenClientOptions } from './token-endpoint';
import { requestToken, type TokenEndpointConfig } from './token-request';

/**
 * Options of {@link refreshTokenGrant}: the operator's token endpoint and the client the
 * refresh tokens were issued to (the same rules as {@link clientCredentials}'s).
 *
 * @example
 * ```ts
 * const options: RcpRefreshTokenGrantOptions = { tokenEndpoint: 'https://auth.example.com/oauth/token', clientId: 'notes-agent', clientSecret: process.env.NOTES_CLIENT_SECRET };
 * ```
 */
export type RcpRefreshTokenGrantOptions = RcpTokenClientOptions;

/**
 * What a token endpoint gave: the access token, its lifetime, and — when the server rotates
 * refresh tokens — the new refresh token, which the application must store in place of the old.
 *
 * @example
 * ```ts
 * const { accessToken, expiresIn, refreshToken } = await refresh(stored.refreshToken);
 * ```
 */
export interface RcpTokenSet {
  readonly accessToken: string;
  /** Seconds the access token lives (`expires_in`), when the server said. */
  readonly expiresIn: number | undefined;
  /** A new refresh token (rotation), when the server sent one. */
  readonly refreshToken: string | undefined;
  /** The granted scope, when the server said. */
  readonly scope: string | undefined;
}

/**
 * Asks for a new access token with a refresh token.
 *
 * @example
 * ```ts
 * const tokens = await refresh(refreshToken, { scope: 'notes:read' });
 * ```
 */
export type RcpRefreshTokenGrant = (
  refreshToken: string,
  request?: { readonly scope?: string | readonly string[]; readonly resource?: string | readonly string[] },
) => Promise<RcpTokenSet>;

/**
 * The refresh-token grant (RFC 6749 §6) for per-user tokens: the application keeps each user's
 * refresh token in its own storage and calls this to turn it into an access token (and the
 * rotated refresh token to store). Usually called from {@link userTokens}' `obtain`, which
 * caches the result and asks once per user at a time — what rotation needs. Failures are
 * {@link RcpTokenError}s that show neither the refresh token nor the client secret.
 *
 * @example
 * ```ts
 * import { refreshTokenGrant } from 'rcp-oauth';
 *
 * const refresh = refreshTokenGrant({ tokenEndpoint: 'https://auth.example.com/oauth/token', clientId: 'notes-agent', clientSecret });
 * const { accessToken, refreshToken } = await refresh(await db.refreshTokenOf(userId));
 * if (refreshToken !== undefined) await db.saveRefreshToken(userId, refreshToken);
 * ```
 */
export function refreshTokenGrant(options: RcpRefreshTokenGrantOptions): RcpRefreshTokenGrant {
  if (typeof options !== 'object' || options === null) throw invalid('refreshTokenGrant() needs an options object');
  const allowPrivateNetwork = options.allowPrivateNetwork ?? false;
  if (typeof allowPrivateNetwork !== 'boolean') throw invalid('Option "allowPrivateNetwork" must be a boolean');
  const endpoint = checkEndpoint(optionNamed('tokenEndpoint'), options.tokenEndpoint, allowPrivateNetwork);
  if (options.issuer !== undefined) checkEndpoint(optionNamed('issuer'), options.issuer, allowPrivateNetwork);
  if (options.fetch !== undefined && typeof options.fetch !== 'function') throw invalid('Option "fetch" must be a function');
  const config: TokenEndpointConfig = {
    endpoint,
    issuer: options.issuer ?? endpoint.href,
    client: checkClientIdentity(options),
    fetch: options.fetch,
    timeout: milliseconds('timeout', options.timeout, DEFAULT_TOKEN_TIMEOUT),
  };
  return async (refreshToken, request = {}) => {
    if (typeof refreshToken !== 'string' || refreshToken === '') throw invalid('refreshTokenGrant: the refresh token must be a non-empty string');
    const parameters = new URLSearchParams();
    const scopes = checkScopes(optionNamed('scope'), request.scope);
    if (scopes.length > 0) parameters.set('scope', scopes.join(' '));
    for (const value of checkResources(checkValues(optionNamed('resource'), request.resource))) parameters.append('resource', value);
    return requestToken(config, 'refresh_token', parameters, refreshToken);
  };
}
