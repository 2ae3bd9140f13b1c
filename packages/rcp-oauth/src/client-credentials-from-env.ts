import { clientCredentials } from './client-credentials';
import type { RcpClientAuthenticationMethod } from './client-authentication';
import { checkResources, checkScopes, checkValues, invalid } from './options';
import { checkEndpoint } from './token-endpoint';
import type { RcpOAuthProvider } from './provider-types';
import type { RcpTokenStore } from './token-store';

/** The settings read, by the suffix after `<PREFIX>_`. */
const SETTINGS = ['TOKEN_ENDPOINT', 'CLIENT_ID', 'CLIENT_SECRET', 'SCOPE', 'RESOURCE', 'ISSUER', 'CLIENT_AUTH'] as const;
const PREFIX = /^[A-Z][A-Z0-9_]{0,40}$/;
const AUTH_METHODS: readonly RcpClientAuthenticationMethod[] = ['client_secret_basic', 'client_secret_post'];

/**
 * A client-credentials provider configured from environment variables, for command lines and
 * hosts that start a gateway (a secret belongs in the environment, never in argv, where `ps`
 * and shell history show it). With `prefix` `RCP_OAUTH` it reads `RCP_OAUTH_TOKEN_ENDPOINT`,
 * `RCP_OAUTH_CLIENT_ID` and `RCP_OAUTH_CLIENT_SECRET` (required), and `RCP_OAUTH_SCOPE`,
 * `RCP_OAUTH_RESOURCE` (each space-separated), `RCP_OAUTH_ISSUER` and `RCP_OAUTH_CLIENT_AUTH`
 * (`client_secret_basic`, the default, or `client_secret_post`). A missing or bad setting is
 * `RCP_INVALID_OPTIONS` naming the variable, never its value or a part of it. The endpoint
 * follows `clientCredentials`' network rule. `options.store` is `clientCredentials`' token store
 * (one shared by several instances, such as rcp-redis's `createRedisTokenStore`).
 *
 * @example
 * ```ts
 * import { createRcpClient } from 'rcp-client';
 * import { clientCredentialsFromEnv } from 'rcp-oauth';
 *
 * const client = createRcpClient({ ...clientCredentialsFromEnv('RCP_OAUTH') });
 * ```
 */
export function clientCredentialsFromEnv<Context = any>(
  prefix: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  options: { readonly allowPrivateNetwork?: boolean; readonly store?: RcpTokenStore } = {},
): RcpOAuthProvider<Context> {
  if (typeof prefix !== 'string' || !PREFIX.test(prefix)) {
    throw invalid('The environment prefix must be upper-case letters, digits and "_" (e.g. RCP_OAUTH)');
  }
  const read = (name: (typeof SETTINGS)[number]): string | undefined => {
    const value = env[`${prefix}_${name}`];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const required = (name: (typeof SETTINGS)[number]): string => {
    const value = read(name);
    if (value === undefined) throw invalid(`${prefix}_${name} is not set (client credentials from the environment)`);
    return value;
  };
  const tokenEndpoint = required('TOKEN_ENDPOINT');
  const clientId = required('CLIENT_ID');
  const clientSecret = required('CLIENT_SECRET');
  const clientAuth = read('CLIENT_AUTH');
  if (clientAuth !== undefined && !AUTH_METHODS.includes(clientAuth as RcpClientAuthenticationMethod)) {
    throw invalid(`${prefix}_CLIENT_AUTH must be one of ${AUTH_METHODS.join(', ')}`);
  }
  const scope = read('SCOPE');
  const resource = read('RESOURCE')?.split(/\s+/);
  const issuer = read('ISSUER');
  // Each value is checked here by clientCredentials' own rules, named by its variable (the rules'
  // errors never show a value), so no error below can name an option the operator never wrote.
  const allowPrivateNetwork = options.allowPrivateNetwork === true;
  checkEndpoint(`${prefix}_TOKEN_ENDPOINT`, tokenEndpoint, allowPrivateNetwork);
  if (issuer !== undefined) checkEndpoint(`${prefix}_ISSUER`, issuer, allowPrivateNetwork);
  if (scope !== undefined) checkScopes(`${prefix}_SCOPE`, scope);
  if (resource !== undefined) checkResources(checkValues(`${prefix}_RESOURCE`, resource), `${prefix}_RESOURCE`);
  return clientCredentials<Context>({
    tokenEndpoint,
    clientId,
    clientSecret,
    ...(clientAuth !== undefined && { clientAuthentication: clientAuth as RcpClientAuthenticationMethod }),
    ...(scope !== undefined && { scope }),
    ...(resource !== undefined && { resource: resource.length === 1 ? resource[0]! : resource }),
    ...(issuer !== undefined && { issuer }),
    ...(allowPrivateNetwork && { allowPrivateNetwork: true }),
    ...(options.store !== undefined && { store: options.store }),
  });
}
