import { classifyHost } from 'rcp-client';
import { invalid } from './options';
import type { RcpClientAuthenticationMethod, RcpClientPrivateKey } from './client-authentication';

/*
 * The network rule for an operator's token endpoint, the same one rcp-client applies to tools
 * (docs/behaviour.md), with rcp-client's own classifier (`classifyHost`, the network boundary's one
 * definition): `https:`, or `http:` to loopback only; link-local addresses and the cloud metadata
 * names (where metadata services answer, however an address is spelt: IPv4-mapped, NAT64, 6to4)
 * refused; a private address or private-only name (`.internal`, `.local` …) only when the operator
 * says so. It looks at the host as written; a public name that resolves to a private address is
 * the connect-time check's business, which a token request sent with `fetch` does not get.
 */

/**
 * The operator's token endpoint, checked once when the provider is created
 * (`RCP_INVALID_OPTIONS`): an absolute URL without credentials or fragment, on the rule above.
 * `subject` names the setting in errors (`Option "tokenEndpoint"`, or the environment
 * variable it came from); no error shows the value or a part of it.
 */
export function checkEndpoint(subject: string, value: unknown, allowPrivateNetwork: boolean): URL {
  if (typeof value !== 'string' && !(value instanceof URL)) throw invalid(`${subject} must be an absolute URL`);
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw invalid(`${subject} must be an absolute URL`);
  }
  if (url.username !== '' || url.password !== '') throw invalid(`${subject} must not carry a user name or password`);
  if (url.hash !== '') throw invalid(`${subject} must not have a fragment`);
  const hostClass = classifyHost(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && hostClass === 'local')) {
    throw invalid(`${subject} must be an https: URL (http: only to a loopback address)`);
  }
  if (hostClass === 'link-local') {
    throw invalid(`${subject} is a link-local address (where cloud metadata services answer): refused`);
  }
  if (hostClass === 'private' && !allowPrivateNetwork) {
    throw invalid(`${subject} is a private-network address: refused unless "allowPrivateNetwork" is true`);
  }
  return url;
}

/** Whether oauth4webapi must be told that this endpoint may be plain http (loopback only). */
export function isInsecureLoopback(url: URL): boolean {
  return url.protocol === 'http:';
}

/**
 * The token endpoint and the client, as `clientCredentials` and `refreshTokenGrant`
 * both take them: the operator's configuration, never a manifest's.
 *
 * @example
 * ```ts
 * const endpoint: RcpTokenClientOptions = { tokenEndpoint: 'https://auth.example.com/oauth/token', clientId: 'notes-agent', clientSecret: process.env.NOTES_CLIENT_SECRET };
 * ```
 */
export interface RcpTokenClientOptions {
  /** The authorization server's token endpoint: `https:` (`http:` only to loopback). */
  tokenEndpoint: string | URL;
  /** The client's identifier at the authorization server. */
  clientId: string;
  /** The client secret (for `client_secret_basic`, the default, or `client_secret_post`). */
  clientSecret?: string | undefined;
  /** The private key of a `private_key_jwt` client (then the default method). */
  privateKey?: RcpClientPrivateKey | undefined;
  /**
   * How the client authenticates.
   * @default 'client_secret_basic' with a secret, 'private_key_jwt' with a private key
   */
  clientAuthentication?: RcpClientAuthenticationMethod;
  /**
   * The expected issuer identifier of the authorization server: the audience of a
   * `private_key_jwt` assertion, part of the cache key, and checked by oauth4webapi wherever a
   * response carries one.
   * @default the token endpoint URL
   */
  issuer?: string;
  /**
   * Milliseconds for one token request.
   * @default 10000
   */
  timeout?: number;
  /**
   * Allow a token endpoint on a private-network address (RFC 1918, ULA ...). Link-local ones are always refused.
   * @default false
   */
  allowPrivateNetwork?: boolean;
  /**
   * The `fetch` used for token requests.
   * @default globalThis.fetch
   */
  fetch?: typeof globalThis.fetch;
}
