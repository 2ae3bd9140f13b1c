import type { RcpClientOptions } from 'rcp-client';
import { clientCredentialsFromEnv, type RcpTokenStore } from 'rcp-oauth';
import type { CommandLineOptions } from './parse-command-line';
import { RcpUsageError } from './usage-error';

/**
 * The credential flags: `--token-env NAME` (a static credential from the environment variable
 * NAME) or `--oauth-env PREFIX` (OAuth 2 client credentials from `PREFIX_*` variables, rcp-oauth).
 * Secrets come from the environment only, never argv, where `ps` and shell history show them.
 *
 * @example
 * ```ts
 * const { values } = parseCommandLine('rcp call', argv, { ...CREDENTIAL_OPTIONS });
 * createRcpClient({ ...credentialsOf(values, 'rcp call', process.env) });
 * ```
 */
export const CREDENTIAL_OPTIONS = {
  'token-env': { type: 'string' },
  'oauth-env': { type: 'string' },
} satisfies CommandLineOptions;

/**
 * The client's credential options from the credential flags (`{}` without either), read from
 * `env` (the run's environment, not necessarily the process's): one provider per run, so an
 * OAuth token cache serves every call. Both flags, or a `--token-env` variable that is not
 * set, are usage errors naming the flag. `tokenStore` keeps the OAuth token (one shared by
 * several processes: `rcp-mcp --redis`); without it, the provider's own memory.
 *
 * @example
 * ```ts
 * const client = createRcpClient({ ...credentialsOf({ 'token-env': 'NOTES_TOKEN' }, 'rcp call', process.env) });
 * ```
 */
export function credentialsOf<Context = any>(
  values: { readonly 'token-env'?: string | undefined; readonly 'oauth-env'?: string | undefined },
  command: string,
  env: Readonly<Record<string, string | undefined>>,
  tokenStore?: RcpTokenStore,
): Pick<RcpClientOptions<Context>, 'credentials' | 'onUnauthorized'> {
  const tokenEnv = values['token-env'];
  const oauthEnv = values['oauth-env'];
  if (tokenEnv !== undefined && oauthEnv !== undefined) throw new RcpUsageError('give --token-env or --oauth-env, not both', { command });
  if (oauthEnv !== undefined) return clientCredentialsFromEnv<Context>(oauthEnv, env, tokenStore === undefined ? {} : { store: tokenStore });
  if (tokenEnv === undefined) return {};
  const token = env[tokenEnv];
  if (token === undefined || token === '') throw new RcpUsageError(`--token-env ${tokenEnv}: the environment variable is not set`, { command });
  return { credentials: () => token };
}

/**
 * The flags that widen where tools may go: `--allow-private-network` is the client's
 * `allowPrivateNetwork: true` (SPEC §12.1 — lifts the "as private as the manifest" rule, never
 * the link-local one); `--trusted-origin ORIGIN` (repeatable) adds to its `trustedOrigins`
 * (SPEC §12 — where a credential and resolver values may be sent besides the manifest's own
 * origin). Nothing in a manifest widens either.
 *
 * @example
 * ```ts
 * const { values } = parseCommandLine('rcp call', argv, { ...NETWORK_OPTIONS });
 * createRcpClient({ ...networkOf(values) });
 * ```
 */
export const NETWORK_OPTIONS = {
  'allow-private-network': { type: 'boolean', default: false },
  'trusted-origin': { type: 'string', multiple: true, default: [] as string[] },
} satisfies CommandLineOptions;

/**
 * Client options from {@link NETWORK_OPTIONS}.
 *
 * @example
 * ```ts
 * networkOf({ 'allow-private-network': true, 'trusted-origin': ['http://127.0.0.1:3000'] });
 * // { allowPrivateNetwork: true, trustedOrigins: ['http://127.0.0.1:3000'] }
 * ```
 */
export function networkOf(values: { readonly 'allow-private-network': boolean; readonly 'trusted-origin': readonly string[] }): {
  allowPrivateNetwork?: true;
  trustedOrigins?: string[];
} {
  return {
    ...(values['allow-private-network'] && { allowPrivateNetwork: true as const }),
    ...(values['trusted-origin'].length > 0 && { trustedOrigins: [...values['trusted-origin']] }),
  };
}

/**
 * The `--help` lines of {@link NETWORK_OPTIONS}, the same on every command that takes them.
 *
 * @example
 * ```ts
 * const HELP = `Usage: rcp call <url|file> <tool> [options]\n\n${NETWORK_HELP}`;
 * ```
 */
export const NETWORK_HELP = `  --allow-private-network let tools target private and loopback addresses the manifest's own address does
                          not cover (a manifest from a public address whose tools are internal); a manifest
                          file is a local source and needs no flag; link-local stays refused
  --trusted-origin ORIGIN an origin (http://127.0.0.1:3000) that may receive the credential and --ctx values
                          besides the manifest's own (a manifest file has none: its tools' origins need this);
                          repeatable
`;
