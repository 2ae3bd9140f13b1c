import type { RcpAuthChallenge } from 'rcp-errors';

/**
 * What rcp-oauth's providers read of a call (a subset of rcp-client's `RcpCredentialsInfo`):
 * the context, where the credential goes and for which tool.
 *
 * @example
 * ```ts
 * const info: RcpOAuthCallInfo<{ userId: string }> = { ctx: { userId: 'u-1' }, origin: 'https://api.example.com', manifestUrl: 'https://api.example.com/rcp/manifest', tool: { name: 'list_notes' } };
 * ```
 */
export interface RcpOAuthCallInfo<Context = any> {
  readonly ctx: Context;
  /** The origin the token will be sent to. */
  readonly origin: string;
  /** The URL the tool was discovered from. */
  readonly manifestUrl: string;
  /** The tool being called. */
  readonly tool: { readonly name: string };
}

/**
 * What rcp-client's `onUnauthorized` option passes: the call, and the tool's parsed challenge.
 *
 * @example
 * ```ts
 * const onUnauthorized = (info: RcpOAuthUnauthorizedInfo) => info.challenge?.error === 'invalid_token';
 * ```
 */
export interface RcpOAuthUnauthorizedInfo<Context = any> extends RcpOAuthCallInfo<Context> {
  /** The tool's `WWW-Authenticate` challenge, when it sent one. */
  readonly challenge?: RcpAuthChallenge | undefined;
  /**
   * Whether a token is the one the refused request carried (rcp-client gives this, never the
   * token): a provider renews only a token that was refused, so calls refused together share
   * one renewal.
   */
  readonly wasSent?: ((credential: string) => boolean) | undefined;
}

/**
 * What every rcp-oauth provider returns: the two client options it fills. Spread it into
 * `createRcpClient`: `credentials` gives the access token, `onUnauthorized` renews it when a
 * tool answers 401 (the client then sends the request once more).
 *
 * @example
 * ```ts
 * const client = createRcpClient({ ...clientCredentials({ tokenEndpoint, clientId, clientSecret }), resolvers });
 * ```
 */
export interface RcpOAuthProvider<Context = any> {
  /** rcp-client's `credentials` option: the access token for a call (synchronously when a fresh one is cached). */
  readonly credentials: (info: RcpOAuthCallInfo<Context>) => string | undefined | Promise<string | undefined>;
  /** rcp-client's `onUnauthorized` option: renews the token a tool refused; `true` when there is a new one. */
  readonly onUnauthorized: (info: RcpOAuthUnauthorizedInfo<Context>) => Promise<boolean>;
}
