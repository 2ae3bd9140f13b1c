import { ClientSecretBasic, ClientSecretPost, PrivateKeyJwt, type ClientAuth } from 'oauth4webapi';
import { RcpError } from 'rcp-errors';
import type { webcrypto } from 'node:crypto';

type CryptoKey = webcrypto.CryptoKey;

/**
 * How the client authenticates at the token endpoint: its secret by HTTP Basic
 * (`client_secret_basic`, RFC 6749 §2.3.1) or in the request body (`client_secret_post`), or a
 * JWT assertion signed with its private key (`private_key_jwt`, RFC 7523).
 *
 * @example
 * ```ts
 * const method: RcpClientAuthenticationMethod = 'client_secret_post';
 * ```
 */
export type RcpClientAuthenticationMethod = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';

/**
 * The private key of a `private_key_jwt` client: a `CryptoKey` (RS256, PS256, ES256, EdDSA ...),
 * or one with the `kid` the authorization server knows it by.
 *
 * @example
 * ```ts
 * const privateKey: RcpClientPrivateKey = { key: keyPair.privateKey, kid: 'agent-key-1' };
 * ```
 */
export type RcpClientPrivateKey = CryptoKey | { readonly key: CryptoKey; readonly kid?: string };

/** The client's identity and proof, as the options give them. */
export interface ClientIdentityOptions {
  clientId?: unknown;
  clientSecret?: unknown;
  privateKey?: unknown;
  clientAuthentication?: unknown;
}

/** The client, checked: its id, the oauth4webapi authentication, and what must never be shown. */
export interface ClientIdentity {
  readonly clientId: string;
  readonly method: RcpClientAuthenticationMethod;
  readonly authentication: ClientAuth;
  /** The client secret in each spelling it may come back in, and its Basic credentials, when there is one (redacted from every error). */
  readonly secrets: readonly string[];
}

function invalid(message: string): RcpError<'RCP_INVALID_OPTIONS'> {
  return new RcpError('RCP_INVALID_OPTIONS', message);
}

function isCryptoKey(value: unknown): value is CryptoKey {
  const cryptoKeyClass = (globalThis as { CryptoKey?: abstract new () => unknown }).CryptoKey;
  return typeof cryptoKeyClass === 'function' && value instanceof cryptoKeyClass;
}

/** Checks the client's options once, when the provider is created (`RCP_INVALID_OPTIONS`). */
export function checkClientIdentity(options: ClientIdentityOptions): ClientIdentity {
  const { clientId, clientSecret, privateKey, clientAuthentication } = options;
  if (typeof clientId !== 'string' || clientId === '') throw invalid('Option "clientId" must be a non-empty string');
  if (clientSecret !== undefined && (typeof clientSecret !== 'string' || clientSecret === '')) {
    throw invalid('Option "clientSecret" must be a non-empty string');
  }
  if (clientSecret !== undefined && privateKey !== undefined) {
    throw invalid('Give either "clientSecret" or "privateKey", not both');
  }
  const fallback: RcpClientAuthenticationMethod = privateKey !== undefined ? 'private_key_jwt' : 'client_secret_basic';
  const method = clientAuthentication ?? fallback;
  if (method !== 'client_secret_basic' && method !== 'client_secret_post' && method !== 'private_key_jwt') {
    throw invalid('Option "clientAuthentication" must be "client_secret_basic", "client_secret_post" or "private_key_jwt"');
  }
  if (method === 'private_key_jwt') {
    const key: { key?: unknown; kid?: unknown } | undefined = isCryptoKey(privateKey)
      ? { key: privateKey }
      : (privateKey as { key?: unknown; kid?: unknown } | undefined);
    if (key === undefined || typeof key !== 'object' || key === null || !isCryptoKey(key.key) || key.key.type !== 'private') {
      throw invalid('"private_key_jwt" needs option "privateKey": a private CryptoKey, or { key, kid }');
    }
    if (key.kid !== undefined && (typeof key.kid !== 'string' || key.kid === '')) {
      throw invalid('Option "privateKey.kid" must be a non-empty string');
    }
    // oauth4webapi types the key with the DOM's CryptoKey: the same object as Node's webcrypto one.
    const signingKey = (key.kid === undefined ? key.key : { key: key.key, kid: key.kid }) as Parameters<typeof PrivateKeyJwt>[0];
    const authentication = PrivateKeyJwt(signingKey);
    return { clientId, method, authentication, secrets: [] };
  }
  if (typeof clientSecret !== 'string') throw invalid(`"${method}" needs option "clientSecret"`);
  const authentication = method === 'client_secret_basic' ? ClientSecretBasic(clientSecret) : ClientSecretPost(clientSecret);
  // With its Basic credentials, whichever the method: the server may quote a header it was never sent.
  const secrets = [...secretSpellings(clientSecret), btoa(`${formUrlEncoded(clientId)}:${formUrlEncoded(clientSecret)}`)];
  return { clientId, method, authentication, secrets };
}

/**
 * A form-encoded value as RFC 6749 §2.3.1 has the client's id and secret written in HTTP Basic
 * credentials, and as oauth4webapi writes them: percent-encoded, a space as `+`, and
 * `-_.!~*'()` escaped too.
 */
function formUrlEncoded(value: string): string {
  return encodeURIComponent(value)
    .replace(/%20/g, '+')
    .replace(/[-_.!~*'()]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The spellings of the client secret a token endpoint may echo in its `error_description`: as
 * written; percent-encoded (`%20` for a space); form-encoded as a request body carries it
 * (`+` for a space, as `URLSearchParams` writes it) and as the Basic credentials carry it
 * ({@link formUrlEncoded}); each percent-encoded spelling with its hex digits in either case.
 */
function secretSpellings(secret: string): string[] {
  const percent = encodeURIComponent(secret);
  const form = new URLSearchParams([['', secret]]).toString().slice(1);
  const spellings = new Set([secret, percent, form, formUrlEncoded(secret)]);
  for (const spelling of [...spellings]) spellings.add(spelling.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
  return [...spellings];
}
