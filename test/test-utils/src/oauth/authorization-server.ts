/// <reference path="./oidc-provider.d.ts" />
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { generateKeyPairSync, verify, type KeyObject, type webcrypto } from 'node:crypto';
import type { AddressInfo, Socket } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OAuth 2 authorization server for the tests: oidc-provider on 127.0.0.1:0, with the
 * client-credentials grant, RFC 8707 resource indicators (opaque or JWT access tokens), the
 * three client authentication methods and refresh-token rotation. Every token request is
 * recorded (its path, Authorization header and parsed parameters).
 */

export const RESOURCE = 'https://notes.example/api';
export const SCOPES = 'notes:read notes:write';

export interface TokenRequestRecord {
  readonly grantType: string | undefined;
  readonly authorization: string | undefined;
  readonly params: Record<string, unknown>;
  readonly status: number;
}

export interface AuthorizationServer {
  readonly issuer: string;
  readonly tokenEndpoint: string;
  readonly provider: Provider;
  /** Every request to the token endpoint, in order. */
  readonly tokenRequests: TokenRequestRecord[];
  /** Access token lifetime in seconds for new tokens. */
  ttl: number;
  /** The private key of `jwt-client` (its public JWK is registered). */
  readonly clientKey: webcrypto.CryptoKey;
  /** The server's own signing key (for JWT access tokens). */
  readonly signingKey: KeyObject;
  /** The access token `value`, if the server knows it and it is valid now: its claims. */
  introspect(value: string): Promise<{ clientId: string; scope: string | undefined; aud: unknown; accountId?: string; jwt?: boolean } | undefined>;
  revoke(value: string): Promise<void>;
  /** A refresh token for `accountId`, as an authorization-code login would have left the application. */
  issueRefreshToken(accountId: string): Promise<string>;
  close(): Promise<void>;
}

export const CLIENT_SECRETS = {
  basic: 'basic-secret-0f9a8e7d6c5b4a39281706f5e4d3c2b1',
  post: 'post-secret-a1b2c3d4e5f60718293a4b5c6d7e8f90',
  user: 'user-secret-99887766554433221100ffeeddccbbaa',
} as const;

export async function startAuthorizationServer(options: { accessTokenFormat?: 'opaque' | 'jwt' } = {}): Promise<AuthorizationServer> {
  const loopback = await listenLoopback();
  const issuer = loopback.origin;
  const keys = await generateKeys();
  const state = { ttl: 600 };
  const provider = new Provider(issuer, providerConfiguration(keys, state, options.accessTokenFormat ?? 'opaque'));
  provider.on('server_error', (_ctx: unknown, error: unknown) => console.error('oidc-provider server_error', error));
  const tokenRequests = recordTokenRequests(provider);
  loopback.serve(provider.callback());

  return {
    issuer,
    tokenEndpoint: `${issuer}/token`,
    provider,
    tokenRequests,
    get ttl() {
      return state.ttl;
    },
    set ttl(value: number) {
      state.ttl = value;
    },
    clientKey: keys.client.privateKey,
    signingKey: keys.signing.publicKey,
    async introspect(value) {
      if (value.split('.').length === 3) return verifyJwt(value, keys.signing.publicKey, issuer);
      const token = await findAccessToken(provider, value);
      if (token === undefined || token.isExpired) return undefined;
      return {
        clientId: token.clientId as string,
        scope: token.scope as string | undefined,
        aud: token.aud,
        ...('accountId' in token && { accountId: token.accountId as string }),
      };
    },
    async revoke(value) {
      await (await findAccessToken(provider, value))?.destroy();
    },
    issueRefreshToken: (accountId) => issueRefreshToken(provider, accountId),
    close: loopback.close,
  };
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** An HTTP server on 127.0.0.1:0 whose listener is set once its origin is known; `close` drops open sockets. */
async function listenLoopback(): Promise<{ origin: string; serve: (listener: RequestListener) => void; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let listener: RequestListener | undefined;
  const server: Server = createServer((req, res) => listener!(req, res));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    serve: (next) => {
      listener = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

interface TestKeys {
  /** `jwt-client`'s key pair and its public JWK. */
  readonly client: webcrypto.CryptoKeyPair;
  readonly clientJwk: Record<string, unknown>;
  /** The server's own RS256 signing key pair and its private JWK. */
  readonly signing: { readonly publicKey: KeyObject; readonly privateKey: KeyObject };
  readonly signingJwk: Record<string, unknown>;
}

async function generateKeys(): Promise<TestKeys> {
  const client = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const clientJwk = { ...(await crypto.subtle.exportKey('jwk', client.publicKey)), kid: 'jwt-client-key', use: 'sig', alg: 'ES256' };
  const signing = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingJwk = { ...signing.privateKey.export({ format: 'jwk' }), kid: 'server-key', use: 'sig', alg: 'RS256' };
  return { client, clientJwk, signing, signingJwk };
}

/** The registered clients: one per client authentication method, plus a user client with refresh tokens. */
function clients(clientJwk: Record<string, unknown>) {
  const common = { redirect_uris: [], response_types: [], scope: SCOPES };
  return [
    {
      ...common,
      client_id: 'basic-client',
      client_secret: CLIENT_SECRETS.basic,
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
    {
      ...common,
      client_id: 'post-client',
      client_secret: CLIENT_SECRETS.post,
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'client_secret_post',
    },
    {
      ...common,
      client_id: 'jwt-client',
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: 'ES256',
      jwks: { keys: [clientJwk] },
    },
    {
      client_id: 'user-client',
      client_secret: CLIENT_SECRETS.user,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: ['http://127.0.0.1/callback'],
      scope: `openid offline_access ${SCOPES}`,
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ];
}

/** oidc-provider's configuration; access tokens live `state.ttl` seconds, read when each is issued. */
function providerConfiguration(keys: TestKeys, state: { ttl: number }, format: 'opaque' | 'jwt') {
  return {
    clients: clients(keys.clientJwk),
    jwks: { keys: [keys.signingJwk as never] },
    scopes: ['openid', 'offline_access', 'notes:read', 'notes:write'],
    findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id }) }),
    features: {
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined as never,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: SCOPES,
          audience: RESOURCE,
          accessTokenTTL: state.ttl,
          accessTokenFormat: format,
          ...(format === 'jwt' && { jwt: { sign: { alg: 'RS256' } } }),
        }),
      },
    },
    ttl: {
      ClientCredentials: () => state.ttl,
      AccessToken: () => state.ttl,
      RefreshToken: () => 14 * 24 * 3600,
      Grant: () => 14 * 24 * 3600,
      IdToken: () => 3600,
    },
    rotateRefreshToken: true,
  };
}

/** Records every request to the token endpoint (after it is answered), in order. */
function recordTokenRequests(provider: Provider): TokenRequestRecord[] {
  const tokenRequests: TokenRequestRecord[] = [];
  provider.use(async (ctx: any, next: () => Promise<void>) => {
    await next();
    if (ctx.path === '/token') {
      const params = { ...((ctx.oidc?.params as Record<string, unknown> | undefined) ?? {}) };
      tokenRequests.push({
        grantType: params.grant_type as string | undefined,
        authorization: ctx.get('authorization') || undefined,
        params,
        status: ctx.status,
      });
    }
  });
  return tokenRequests;
}

/** An opaque access token the server issued, by either grant. */
async function findAccessToken(provider: Provider, value: string) {
  return (await provider.ClientCredentials.find(value)) ?? (await provider.AccessToken.find(value));
}

/** A refresh token for `accountId`, as an authorization-code login would have left the application. */
async function issueRefreshToken(provider: Provider, accountId: string): Promise<string> {
  const userClient = await provider.Client.find('user-client');
  const grant = new provider.Grant({ accountId, clientId: 'user-client' });
  grant.addOIDCScope('openid offline_access');
  grant.addResourceScope(RESOURCE, SCOPES);
  const grantId = await grant.save();
  const refreshToken = new provider.RefreshToken({
    accountId,
    client: userClient!,
    grantId,
    scope: 'openid offline_access',
    resource: RESOURCE,
    gty: 'authorization_code',
    authTime: Math.floor(Date.now() / 1000),
  } as never);
  return refreshToken.save();
}

/** A JWT access token (RFC 9068) checked as a resource server would with the issuer's key: signature, iss, exp. */
function verifyJwt(value: string, key: KeyObject, issuer: string) {
  const [header, payload, signature] = value.split('.') as [string, string, string];
  const ok = verify('sha256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url'));
  if (!ok) return undefined;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  if (claims.iss !== issuer || typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) return undefined;
  return { clientId: claims.client_id as string, scope: claims.scope as string | undefined, aud: claims.aud, jwt: true };
}
