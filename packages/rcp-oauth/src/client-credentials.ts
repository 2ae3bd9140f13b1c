import { checkClientIdentity } from './client-authentication';
import {
  DEFAULT_REFRESH_BEFORE,
  DEFAULT_TOKEN_TIMEOUT,
  LOCK_MARGIN,
  checkOrigins,
  checkPerCall,
  checkResources,
  checkScopes,
  checkStore,
  checkValues,
  invalid,
  milliseconds,
  optionNamed,
  valuesOf,
} from './options';
import type { RcpOAuthCallInfo, RcpOAuthProvider, RcpOAuthUnauthorizedInfo } from './provider-types';
import { createTokenCache } from './token-cache';
import { checkEndpoint, type RcpTokenClientOptions } from './token-endpoint';
import { requestToken, type TokenEndpointConfig } from './token-request';
import type { RcpTokenStore } from './token-store';

/**
 * Options of {@link clientCredentials}. The token endpoint, the client and what to ask for come
 * from here — the operator's configuration — and never from a manifest. Invalid values throw
 * `RCP_INVALID_OPTIONS` when the provider is created.
 *
 * @example
 * ```ts
 * const options: RcpClientCredentialsOptions = {
 *   tokenEndpoint: 'https://auth.example.com/oauth/token',
 *   clientId: 'notes-agent',
 *   clientSecret: process.env.NOTES_CLIENT_SECRET,
 *   scope: 'notes:read',
 *   resource: 'https://api.example.com',
 * };
 * ```
 */
export interface RcpClientCredentialsOptions<Context = any> extends RcpTokenClientOptions {
  /**
   * The scope to ask for: a space-separated string (`'notes:read notes:write'`, the OAuth form), a
   * list of scope tokens, or a function of the call returning either (tokens are cached per scope).
   * @default undefined (the server's default scope)
   * @example
   * ```ts
   * clientCredentials({ ...options, scope: ({ tool }) => (tool.name.startsWith('update_') ? 'notes:write' : 'notes:read') });
   * ```
   */
  scope?: string | readonly string[] | ((info: RcpOAuthCallInfo<Context>) => string | readonly string[] | undefined);
  /**
   * RFC 8707 resource indicators: the API(s) the token is for, or a function of the call (tokens are cached per resource).
   * @default undefined
   * @example
   * ```ts
   * clientCredentials({ ...options, resource: ({ origin }) => origin });
   * ```
   */
  resource?: string | readonly string[] | ((info: RcpOAuthCallInfo<Context>) => string | readonly string[] | undefined);
  /**
   * The tool origins this token is for; a tool on another origin gets no token from this
   * provider (`RCP_MISSING_CREDENTIALS`, nothing sent).
   * @default undefined (every origin rcp-client would send a credential to)
   */
  origins?: readonly string[];
  /**
   * Milliseconds before `expires_in` runs out at which a new token is fetched (at most half the token's life).
   * @default 60000
   */
  refreshBefore?: number;
  /**
   * Where the tokens are kept, and how instances agree on who fetches the next one (docs/behaviour.md):
   * give every instance the same shared store (rcp-redis's `createRedisTokenStore`) and any number
   * of them make one token request per key; `refreshBefore` and a 401 renew it once for all.
   * @default an in-memory store of this provider
   * @example
   * ```ts
   * clientCredentials({ ...options, store: createRedisTokenStore({ client: redis, secret: process.env.RCP_TOKEN_STORE_SECRET }) });
   * ```
   */
  store?: RcpTokenStore;
}

/**
 * A credentials provider for the OAuth 2 client-credentials grant (RFC 6749 §4.4): the agent
 * acts as itself. It asks the operator's token endpoint for an access token, caches it in its
 * `store` (this instance's memory by default) by (endpoint, client, scope, resource), fetches a new one `refreshBefore` ms before
 * `expires_in` runs out, asks once for any number of concurrent calls, and — through
 * `onUnauthorized` — fetches a new one when a tool answers 401 (rcp-client then retries once).
 * A failing token endpoint is an {@link RcpTokenError} (`RCP_MISSING_CREDENTIALS`) with no secret.
 *
 * @example
 * ```ts
 * import { createRcpClient } from 'rcp-client';
 * import { clientCredentials } from 'rcp-oauth';
 *
 * const client = createRcpClient({
 *   ...clientCredentials({
 *     tokenEndpoint: 'https://auth.example.com/oauth/token',
 *     clientId: 'notes-agent',
 *     clientSecret: process.env.NOTES_CLIENT_SECRET,
 *     scope: 'notes:read',
 *     resource: 'https://api.example.com',
 *   }),
 * });
 * ```
 */
export function clientCredentials<Context = any>(options: RcpClientCredentialsOptions<Context>): RcpOAuthProvider<Context> {
  if (typeof options !== 'object' || options === null) throw invalid('clientCredentials() needs an options object');
  const allowPrivateNetwork = options.allowPrivateNetwork ?? false;
  if (typeof allowPrivateNetwork !== 'boolean') throw invalid('Option "allowPrivateNetwork" must be a boolean');
  const endpoint = checkEndpoint(optionNamed('tokenEndpoint'), options.tokenEndpoint, allowPrivateNetwork);
  if (options.issuer !== undefined) checkEndpoint(optionNamed('issuer'), options.issuer, allowPrivateNetwork);
  const client = checkClientIdentity(options);
  const scope = checkPerCall<Context>('scope', options.scope, checkScopes);
  const resource = checkPerCall<Context>('resource', options.resource);
  if (typeof resource !== 'function' && resource !== undefined) checkResources(resource as readonly string[]);
  const origins = checkOrigins(options.origins);
  const fetch = options.fetch;
  if (fetch !== undefined && typeof fetch !== 'function') throw invalid('Option "fetch" must be a function');
  const config: TokenEndpointConfig = {
    endpoint,
    // The issuer as given (oauth4webapi compares it exactly); without one, the token endpoint URL.
    issuer: options.issuer ?? endpoint.href,
    client,
    fetch,
    timeout: milliseconds('timeout', options.timeout, DEFAULT_TOKEN_TIMEOUT),
  };
  const cache = createTokenCache({
    refreshBefore: milliseconds('refreshBefore', options.refreshBefore, DEFAULT_REFRESH_BEFORE, true),
    store: checkStore(options.store),
    // The lease outlives the token request, which is aborted at `timeout`.
    lockTtl: config.timeout + LOCK_MARGIN,
  });

  /** The cache key and the grant's parameters for one call's scope and resource values. */
  function requestOf(scopeValues: readonly string[], resourceValues: readonly string[]): { key: string; parameters: URLSearchParams } {
    const scopes = [...new Set(scopeValues)].sort();
    const resources = checkResources([...new Set(resourceValues)].sort());
    const parameters = new URLSearchParams();
    if (scopes.length > 0) parameters.set('scope', scopes.join(' '));
    for (const value of resources) parameters.append('resource', value);
    return { key: JSON.stringify([endpoint.href, config.issuer, client.clientId, scopes, resources]), parameters };
  }
  // Fixed scope and resource (the usual case): one request, computed once.
  const fixed =
    typeof scope !== 'function' && typeof resource !== 'function'
      ? requestOf(checkScopes(optionNamed('scope'), scope), checkValues(optionNamed('resource'), resource))
      : undefined;

  /** The request for a call, or undefined when this provider does not serve its origin. */
  function requestFor(info: RcpOAuthCallInfo<Context>): { key: string; parameters: URLSearchParams } | undefined {
    if (origins !== undefined && !origins.has(info.origin)) return undefined;
    return fixed ?? requestOf(valuesOf('scope', scope, info, checkScopes), valuesOf('resource', resource, info));
  }

  return Object.freeze({
    credentials(info: RcpOAuthCallInfo<Context>): string | undefined | Promise<string | undefined> {
      const request = requestFor(info);
      if (request === undefined) return undefined;
      // A fresh cached token is returned as is: the client then takes its synchronous path.
      return cache.peek(request.key) ?? cache.get(request.key, () => requestToken(config, 'client_credentials', request.parameters));
    },
    async onUnauthorized(info: RcpOAuthUnauthorizedInfo<Context>): Promise<boolean> {
      const request = requestFor(info);
      if (request === undefined) return false;
      return cache.renew(request.key, () => requestToken(config, 'client_credentials', request.parameters), info.wasSent);
    },
  });
}
