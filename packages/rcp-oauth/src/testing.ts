import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { RcpError } from 'rcp-errors';
import { checkResources, checkScopes, invalid } from './options';

/**
 * `rcp-oauth/testing`: an OAuth 2 authorization server on your own machine, for development and
 * tests — so that an agent's client credentials and an API's token check can be tried end to end
 * without a real provider. It is [oidc-provider](https://github.com/panva/node-oidc-provider)
 * (an optional peer dependency: `npm install --save-dev oidc-provider`), listening on 127.0.0.1
 * only, with the client-credentials grant and RFC 9068 JWT access tokens an API verifies with the
 * server's published keys (`jwksUri`). Not for production: its keys and tokens live in memory.
 */

/**
 * One client the local server knows (the agent's `clientId` and `clientSecret`).
 *
 * @example
 * ```ts
 * const agent: LocalOAuthClient = { clientId: 'notes-agent', clientSecret: 'dev-secret', scope: 'notes:read notes:write' };
 * ```
 */
export interface LocalOAuthClient {
  readonly clientId: string;
  readonly clientSecret: string;
  /**
   * The scope the client may ask for: a space-separated string (`'notes:read notes:write'`) or a list.
   * @default none (a token without scope)
   */
  readonly scope?: string | readonly string[];
  /**
   * How the client authenticates at the token endpoint.
   * @default 'client_secret_basic' (what `clientCredentials` sends with a `clientSecret`)
   */
  readonly clientAuthentication?: 'client_secret_basic' | 'client_secret_post';
}

/**
 * Options of {@link startLocalAuthorizationServer}.
 *
 * @example
 * ```ts
 * const options: LocalAuthorizationServerOptions = {
 *   resource: 'http://127.0.0.1:8080',
 *   clients: [{ clientId: 'notes-agent', clientSecret: 'dev-secret', scope: 'notes:read' }],
 * };
 * ```
 */
export interface LocalAuthorizationServerOptions {
  /** The API the tokens are for (RFC 8707): every access token's `aud`, asked for or not. */
  readonly resource: string;
  /** The clients that may ask for tokens (at least one). */
  readonly clients: readonly LocalOAuthClient[];
  /**
   * How long an access token lives, in seconds.
   * @default 600
   */
  readonly accessTokenSeconds?: number;
  /**
   * The port on 127.0.0.1.
   * @default 0 (any free port)
   */
  readonly port?: number;
}

/**
 * A running local authorization server.
 *
 * @example
 * ```ts
 * const auth: LocalAuthorizationServer = await startLocalAuthorizationServer(options);
 * console.log(auth.tokenEndpoint); // http://127.0.0.1:53211/token
 * ```
 */
export interface LocalAuthorizationServer {
  /** The issuer (`iss` of its tokens): `http://127.0.0.1:<port>`. */
  readonly issuer: string;
  /** Where `clientCredentials` asks for tokens. */
  readonly tokenEndpoint: string;
  /** The server's public keys (JWKS), what an API verifies access tokens with. */
  readonly jwksUri: string;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/**
 * Starts a local OAuth 2 authorization server (oidc-provider on 127.0.0.1) for development and
 * tests: the client-credentials grant for the given clients, and JWT access tokens (RFC 9068,
 * ES256, `typ: at+jwt`) whose `aud` is `resource`, `iss` the server, `client_id` and `scope` the
 * client's — what an API checks with `jose`'s `jwtVerify` against `jwksUri`. Bad options are
 * `RCP_INVALID_OPTIONS` before anything listens; without oidc-provider installed,
 * `RCP_INVALID_OPTIONS` says so.
 *
 * @example
 * ```ts
 * import { clientCredentials } from 'rcp-oauth';
 * import { startLocalAuthorizationServer } from 'rcp-oauth/testing';
 *
 * const auth = await startLocalAuthorizationServer({
 *   resource: 'http://127.0.0.1:8080',
 *   clients: [{ clientId: 'notes-agent', clientSecret: 'dev-secret', scope: 'notes:read' }],
 * });
 * const tokens = clientCredentials({ tokenEndpoint: auth.tokenEndpoint, clientId: 'notes-agent', clientSecret: 'dev-secret', scope: 'notes:read' });
 * // … createRcpClient({ ...tokens }); finally:
 * await auth.close();
 * ```
 */
export async function startLocalAuthorizationServer(options: LocalAuthorizationServerOptions): Promise<LocalAuthorizationServer> {
  const settings = checkOptions(options);
  const { default: Provider, errors } = await loadProvider();
  const keys = await signingKeys();
  const listening = await listenOnLoopback(settings.port);
  try {
    const issuer = listening.origin;
    const provider = new Provider(issuer, providerConfiguration(settings, keys, errors.InvalidTarget));
    listening.serve(provider.callback());
    return Object.freeze({ issuer, tokenEndpoint: `${issuer}/token`, jwksUri: `${issuer}/jwks`, close: listening.close });
  } catch (error) {
    await listening.close();
    throw error;
  }
}

interface CheckedOptions {
  readonly resource: string;
  readonly clients: readonly { readonly clientId: string; readonly clientSecret: string; readonly scopes: readonly string[]; readonly method: string }[];
  readonly ttl: number;
  readonly port: number;
}

function checkOptions(options: LocalAuthorizationServerOptions): CheckedOptions {
  if (typeof options !== 'object' || options === null) throw invalid('startLocalAuthorizationServer() needs an options object');
  const [resource] = checkResources([typeof options.resource === 'string' ? options.resource : ''], 'Option "resource"');
  if (!Array.isArray(options.clients) || options.clients.length === 0) throw invalid('Option "clients" must list at least one client');
  const clients = options.clients.map((client, index) => {
    const at = `Option "clients[${index}]"`;
    if (typeof client?.clientId !== 'string' || client.clientId === '') throw invalid(`${at}.clientId must be a non-empty string`);
    if (typeof client.clientSecret !== 'string' || client.clientSecret === '') throw invalid(`${at}.clientSecret must be a non-empty string`);
    const method = client.clientAuthentication ?? 'client_secret_basic';
    if (method !== 'client_secret_basic' && method !== 'client_secret_post') {
      throw invalid(`${at}.clientAuthentication must be client_secret_basic or client_secret_post`);
    }
    return { clientId: client.clientId, clientSecret: client.clientSecret, scopes: checkScopes(`${at}.scope`, client.scope), method };
  });
  const ttl = options.accessTokenSeconds ?? 600;
  if (!Number.isSafeInteger(ttl) || ttl < 1) throw invalid('Option "accessTokenSeconds" must be a whole number of seconds ≥ 1');
  const port = options.port ?? 0;
  if (!Number.isSafeInteger(port) || port < 0 || port > 65_535) throw invalid('Option "port" must be a port number (0 for any free port)');
  return { resource: resource!, clients, ttl, port };
}

/** oidc-provider, an optional peer dependency: loaded when a server starts, so `rcp-oauth` itself never needs it. */
async function loadProvider(): Promise<OidcProviderModule> {
  // A specifier in a variable: oidc-provider ships no types, and the import stays a run-time one.
  const specifier = 'oidc-provider';
  try {
    return (await import(specifier)) as OidcProviderModule;
  } catch (error) {
    throw new RcpError('RCP_INVALID_OPTIONS', 'rcp-oauth/testing needs oidc-provider: npm install --save-dev oidc-provider', { cause: error });
  }
}

/** What this file uses of oidc-provider (it ships no types): the class, and its OAuth error for an unknown resource. */
interface OidcProviderModule {
  readonly default: new (issuer: string, configuration: object) => { callback(): (request: IncomingMessage, response: ServerResponse) => void };
  readonly errors: { readonly InvalidTarget: new () => Error };
}

/** The server's signing key pair (ES256), made for this server only, as a private JWK. */
async function signingKeys(): Promise<Record<string, unknown>> {
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  // Without key_ops (WebCrypto's ["sign"]), which the published public key would keep and verifiers refuse.
  const { key_ops: _operations, ext: _extractable, ...jwk } = await crypto.subtle.exportKey('jwk', pair.privateKey);
  return { ...jwk, kid: 'local-signing-key', use: 'sig', alg: 'ES256' };
}

/** oidc-provider's configuration: client credentials only, JWT access tokens for the one resource. */
function providerConfiguration(settings: CheckedOptions, signingKey: Record<string, unknown>, InvalidTarget: new () => Error): object {
  const scopes = [...new Set(settings.clients.flatMap((client) => client.scopes))];
  return {
    clients: settings.clients.map((client) => ({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: client.method,
      scope: client.scopes.join(' '),
    })),
    jwks: { keys: [signingKey] },
    // The one signing key is ES256; oidc-provider's default for ID tokens would need an RS256 key.
    clientDefaults: { id_token_signed_response_alg: 'ES256' },
    scopes,
    features: {
      clientCredentials: { enabled: true },
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource still gets a token for the API (its `aud`).
        defaultResource: () => settings.resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_context: unknown, resourceIndicator: string) => {
          if (resourceIndicator !== settings.resource) throw new InvalidTarget(); // invalid_target (RFC 8707)
          return {
            scope: scopes.join(' '),
            audience: settings.resource,
            accessTokenTTL: settings.ttl,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
    ttl: { ClientCredentials: settings.ttl },
  };
}

/** An HTTP server on 127.0.0.1 whose handler is set once its origin is known; `close` drops open sockets. */
async function listenOnLoopback(port: number): Promise<{
  origin: string;
  serve: (handler: (request: IncomingMessage, response: ServerResponse) => void) => void;
  close: () => Promise<void>;
}> {
  let handler: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  const server = createServer((request, response) => {
    if (handler === undefined) response.writeHead(503).end();
    else handler(request, response);
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'EADDRINUSE' ? invalid(`Option "port": 127.0.0.1:${port} is in use`) : error));
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    serve: (next) => {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
