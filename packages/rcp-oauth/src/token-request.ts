import {
  ResponseBodyError,
  WWWAuthenticateChallengeError,
  allowInsecureRequests,
  clientCredentialsGrantRequest,
  customFetch,
  processClientCredentialsResponse,
  processRefreshTokenResponse,
  refreshTokenGrantRequest,
  type AuthorizationServer,
  type TokenEndpointRequestOptions,
  type TokenEndpointResponse,
} from 'oauth4webapi';
import { isRcpError } from 'rcp-errors';
import type { ClientIdentity } from './client-authentication';
import { isSendableToken } from './sendable-token';
import { RcpTokenError } from './token-error';
import { isInsecureLoopback } from './token-endpoint';

/** Everything a token request needs, fixed when the provider is created. */
export interface TokenEndpointConfig {
  readonly endpoint: URL;
  /** The authorization server's issuer identifier (the `aud` of a client assertion). */
  readonly issuer: string;
  readonly client: ClientIdentity;
  readonly fetch: typeof globalThis.fetch | undefined;
  /** Milliseconds for the whole token request. */
  readonly timeout: number;
}

/** A token endpoint answer, reduced to what rcp-oauth uses. */
export interface TokenSet {
  readonly accessToken: string;
  readonly expiresIn: number | undefined;
  readonly refreshToken: string | undefined;
  readonly scope: string | undefined;
}

/** A short, value-free reason for a failure with no OAuth error response. */
function reasonOf(error: unknown, timeout: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `no answer within ${timeout} ms`;
  let current: unknown = error;
  for (let depth = 0; depth < 3 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z0-9_]{2,40}$/.test(code)) return `network error (${code})`;
    current = current.cause;
  }
  if (error instanceof TypeError) return 'network error';
  return error instanceof Error ? error.message : 'unknown failure';
}

/** The token request of one grant, sent and processed by oauth4webapi; every failure an {@link RcpTokenError}. */
export async function requestToken(
  config: TokenEndpointConfig,
  grant: 'client_credentials' | 'refresh_token',
  parameters: URLSearchParams,
  refreshToken?: string,
): Promise<TokenSet> {
  const as: AuthorizationServer = { issuer: config.issuer, token_endpoint: config.endpoint.href };
  const client = { client_id: config.client.clientId };
  const tokenEndpoint = config.endpoint.origin + config.endpoint.pathname;
  const secrets = refreshToken === undefined ? config.client.secrets : [...config.client.secrets, refreshToken];
  const options: TokenEndpointRequestOptions = { signal: AbortSignal.timeout(config.timeout) };
  if (isInsecureLoopback(config.endpoint)) options[allowInsecureRequests] = true;
  const fetch = config.fetch;
  if (fetch !== undefined) options[customFetch] = (url, init) => fetch(url, init as RequestInit);
  let response: TokenEndpointResponse;
  // The status of whatever answer came, for every error below (a 3xx or 5xx has no OAuth error to carry it).
  let status: number | undefined;
  const unusable = (reason: string) => new RcpTokenError({ tokenEndpoint, grant, ...(status !== undefined && { status }), reason, secrets });
  try {
    if (grant === 'client_credentials') {
      const answer = await clientCredentialsGrantRequest(as, client, config.client.authentication, parameters, options);
      status = answer.status;
      response = await processClientCredentialsResponse(as, client, answer);
    } else {
      options.additionalParameters = parameters;
      const answer = await refreshTokenGrantRequest(as, client, config.client.authentication, refreshToken!, options);
      status = answer.status;
      response = await processRefreshTokenResponse(as, client, answer);
    }
  } catch (error) {
    if (isRcpError(error)) throw error;
    if (error instanceof ResponseBodyError) {
      throw new RcpTokenError({
        tokenEndpoint,
        grant,
        status: error.status,
        error: error.error,
        ...(error.error_description !== undefined && { errorDescription: error.error_description }),
        secrets,
      });
    }
    if (error instanceof WWWAuthenticateChallengeError) {
      const parameters = error.cause[0]?.parameters;
      throw new RcpTokenError({
        tokenEndpoint,
        grant,
        status: error.status,
        ...(parameters?.error !== undefined && { error: parameters.error }),
        ...(parameters?.error_description !== undefined && { errorDescription: parameters.error_description }),
        secrets,
      });
    }
    throw unusable(reasonOf(error, config.timeout));
  }
  if (response.token_type !== 'bearer') throw unusable('the token type is not Bearer');
  // Cached, such a token would fail every call until it expired: refused here, so nothing is cached. It is never shown.
  if (!isSendableToken(response.access_token)) {
    throw unusable('the access token cannot be sent in a header (a control character such as CR or LF, a character outside Latin-1, or only blanks)');
  }
  return {
    accessToken: response.access_token,
    expiresIn: typeof response.expires_in === 'number' && response.expires_in >= 0 ? response.expires_in : undefined,
    refreshToken: response.refresh_token,
    scope: response.scope,
  };
}
