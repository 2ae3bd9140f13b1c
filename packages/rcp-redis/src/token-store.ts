import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import { RcpError } from 'rcp-errors';
import type { RcpStoredToken, RcpTokenStore } from 'rcp-oauth';
import type { RedisCommands } from './redis-commands';

/**
 * Options of {@link createRedisTokenStore}.
 *
 * @example
 * ```ts
 * const options: RedisTokenStoreOptions = { client, secret: process.env.RCP_TOKEN_STORE_SECRET!, prefix: 'notes-agent:oauth:' };
 * ```
 */
export interface RedisTokenStoreOptions {
  /** A connected node-redis client (`await createClient({ url }).connect()`), or a cluster. */
  readonly client: RedisCommands;
  /**
   * The operator's secret, the same in every instance, at least 32 bytes: the access tokens are
   * sealed with AES-256-GCM under a key derived from it, and the key names are keyed hashes made
   * with another. Whoever reads the Redis without it reads no token, client id, scope or user.
   */
  readonly secret: string | Uint8Array;
  /**
   * What every key of this store starts with, so that several apps (or stores) can share one
   * Redis: tokens are `<prefix>token:<hash>`, locks `<prefix>lock:<hash>`.
   * @default 'rcp:oauth:'
   */
  readonly prefix?: string;
}

/** `set` with a lease: writes the token only while ARGV[1] is the lease in the lock KEYS[2]. */
const FENCED_SET = `if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`;

/** `unlock`: deletes the lock KEYS[1] only while it holds the lease ARGV[1]. */
const UNLOCK = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1`;

/** A time to live Redis takes: a whole number of milliseconds, at least one. */
function milliseconds(ttl: number): number {
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0) {
    throw new RcpError('RCP_INVALID_OPTIONS', 'rcp-redis: the time to live must be a number of milliseconds above 0');
  }
  return Math.max(1, Math.ceil(ttl));
}

/** The secret's bytes, checked (never shown). */
function secretBytes(secret: unknown): Uint8Array {
  const bytes = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret instanceof Uint8Array ? secret : undefined;
  if (bytes === undefined || bytes.length < 32) {
    throw new RcpError('RCP_INVALID_OPTIONS', '"secret" must be a string or bytes of at least 32 bytes (the same in every instance)');
  }
  return bytes;
}

/** A stored value as a token, or undefined when it is not one (the cache then fetches and stores a new one). */
function tokenOf(value: unknown): RcpStoredToken | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { accessToken, renewAt, expiresAt } = value as Record<string, unknown>;
  if (typeof accessToken !== 'string' || accessToken === '') return undefined;
  if (renewAt !== undefined && typeof renewAt !== 'number') return undefined;
  if (expiresAt !== undefined && typeof expiresAt !== 'number') return undefined;
  return { accessToken, ...(renewAt !== undefined && { renewAt }), ...(expiresAt !== undefined && { expiresAt }) };
}

/**
 * rcp-oauth's token store on Redis, for an agent run as several instances or as stateless routes:
 * every instance given the same Redis, `secret` and `prefix` shares one access token per key, so
 * any number of them make one token request, renew it once before it expires or after a 401, and
 * run `userTokens`' `obtain` for a user on one instance at a time (a rotating refresh token is
 * spent once). Atomic by Redis itself:
 *
 * - `lock` is one `SET <prefix>lock:<hash> <lease> NX PX ttl`: of any number of concurrent locks
 *   of one key, on any instances, exactly one gets the lease; it lapses after `ttl`;
 * - `set` with a lease and `unlock` are Lua scripts that compare the lease and write (or delete) in
 *   one step, so a holder whose lease lapsed can no longer overwrite a later holder's token.
 *
 * Every key has a TTL (a token's: until it expires; a token without `expires_in`: a day). Nothing
 * is in clear: key names are an HMAC-SHA-256 of rcp-oauth's key (token endpoint, client id,
 * scope, resource — or the user), values the token sealed with AES-256-GCM bound to its key name.
 * A value that does not open under the secret (another secret, or written by someone else) is no
 * token: a new one is fetched and stored over it.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { createRcpClient } from 'rcp-client';
 * import { clientCredentials } from 'rcp-oauth';
 * import { createRedisTokenStore } from 'rcp-redis';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const client = createRcpClient({
 *   ...clientCredentials({
 *     tokenEndpoint: 'https://auth.example.com/oauth/token',
 *     clientId: 'notes-agent',
 *     clientSecret: process.env.NOTES_CLIENT_SECRET,
 *     store: createRedisTokenStore({ client: redis, secret: process.env.RCP_TOKEN_STORE_SECRET!, prefix: 'notes-agent:oauth:' }),
 *   }),
 * });
 * ```
 */
export function createRedisTokenStore(options: RedisTokenStoreOptions): RcpTokenStore {
  const client = options?.client;
  if (typeof client?.set !== 'function' || typeof client.get !== 'function' || typeof client.eval !== 'function') {
    throw new RcpError('RCP_INVALID_OPTIONS', '"client" must be a connected node-redis client (createClient(…).connect())');
  }
  const secret = secretBytes(options.secret);
  const prefix = options.prefix ?? 'rcp:oauth:';
  if (typeof prefix !== 'string') throw new RcpError('RCP_INVALID_OPTIONS', '"prefix" must be a string');
  const derive = (purpose: string) => Buffer.from(hkdfSync('sha256', secret, 'rcp-redis token store', purpose, 32));
  const sealing = derive('access tokens (AES-256-GCM)');
  const naming = derive('key names (HMAC-SHA-256)');

  const hashOf = (key: string) => createHmac('sha256', naming).update(key).digest('base64url');
  const tokenName = (key: string) => `${prefix}token:${hashOf(key)}`;
  const lockName = (key: string) => `${prefix}lock:${hashOf(key)}`;

  function seal(name: string, token: RcpStoredToken): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', sealing, iv).setAAD(Buffer.from(name));
    const sealed = Buffer.concat([cipher.update(JSON.stringify(tokenOf(token)), 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `v1.${iv.toString('base64url')}.${sealed.toString('base64url')}`;
  }

  function open(name: string, value: unknown): RcpStoredToken | undefined {
    const [version, iv, sealed] = typeof value === 'string' ? value.split('.') : [];
    if (version !== 'v1' || iv === undefined || sealed === undefined) return undefined;
    try {
      const bytes = Buffer.from(sealed, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', sealing, Buffer.from(iv, 'base64url')).setAAD(Buffer.from(name));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      const text = Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8');
      return tokenOf(JSON.parse(text));
    } catch {
      return undefined;
    }
  }

  return Object.freeze({
    async get(key: string) {
      const name = tokenName(key);
      return open(name, await client.get(name));
    },
    async set(key: string, token: RcpStoredToken, ttl: number, lease?: string) {
      const name = tokenName(key);
      const value = seal(name, token);
      if (lease === undefined) {
        await client.set(name, value, { expiration: { type: 'PX', value: milliseconds(ttl) } });
        return true;
      }
      return Number(await client.eval(FENCED_SET, { keys: [name, lockName(key)], arguments: [lease, value, String(milliseconds(ttl))] })) === 1;
    },
    async lock(key: string, ttl: number) {
      const lease = randomUUID();
      const answer = await client.set(lockName(key), lease, { condition: 'NX', expiration: { type: 'PX', value: milliseconds(ttl) } });
      return answer === null || answer === undefined ? undefined : lease;
    },
    async unlock(key: string, lease: string) {
      return Number(await client.eval(UNLOCK, { keys: [lockName(key)], arguments: [lease] })) === 1;
    },
  });
}
