/**
 * The commands rcp-redis's stores send, as a node-redis client (`createClient()`, `createCluster()`)
 * has them. Any object with these methods will do, so a store takes the client you already
 * connected (its URL, TLS, credentials and reconnection are yours), and this package never opens
 * a connection itself.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import type { RedisCommands } from 'rcp-redis';
 *
 * const client: RedisCommands = await createClient({ url: process.env.REDIS_URL }).connect();
 * ```
 */
export interface RedisCommands {
  /** `SET key value [NX] PX ms [GET]`: with `GET`, the value the key had (`null`: none). */
  set(
    key: string,
    value: string,
    options: { readonly condition?: 'NX'; readonly expiration: { readonly type: 'PX'; readonly value: number }; readonly GET?: true },
  ): Promise<unknown>;
  /** `GET key`: its value, `null` when there is none. */
  get(key: string): Promise<unknown>;
  /** `EVAL script numkeys key… arg…`: a Lua script, run atomically. */
  eval(script: string, options: { readonly keys: string[]; readonly arguments: string[] }): Promise<unknown>;
}
