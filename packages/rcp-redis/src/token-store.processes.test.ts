import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { SPAWN_TIMEOUT } from 'rcp-test-utils';
import { CLIENT_SECRETS, startAuthorizationServer, type AuthorizationServer, startToolApi, type ToolApi } from 'rcp-test-utils/oauth';
import { type RedisServer, redisTestAvailability, startRedisServer } from 'rcp-test-utils/stores';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const availability = redisTestAvailability();
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const instanceScript = fileURLToPath(new URL('../test/token-instance.mjs', import.meta.url));

/** One agent process (test/token-instance.mjs): its stdout read line by line. */
interface Instance {
  /** Sends `go N` and resolves with what it printed: how many calls succeeded, and the codes of the others. */
  calls(count: number): Promise<{ ok: number; failed: string[] }>;
  exit(): Promise<void>;
}

async function startInstance(env: Record<string, string>): Promise<Instance> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [instanceScript], { cwd: packageDir, env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error(`the instance exited (${child.exitCode}):\n${stderr}`);
    return line.value;
  };
  expect(await next()).toBe('ready');
  return {
    async calls(count) {
      child.stdin.write(`go ${count}\n`);
      return JSON.parse(await next());
    },
    async exit() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.stdin.write('exit\n');
      await exited;
    },
  };
}

// Two real processes, one real redis-server, a real authorization server (oidc-provider, which
// rotates refresh tokens and refuses a spent one) and an API that checks every token with it.
describe.skipIf(availability.skip)('two processes sharing the Redis token store', () => {
  let redis: RedisServer;
  let client: RedisClientType;
  let as: AuthorizationServer;
  let api: ToolApi;
  let instances: Instance[] = [];
  beforeAll(async () => {
    [redis, as] = await Promise.all([startRedisServer(), startAuthorizationServer()]);
    api = await startToolApi(as);
    client = createClient({ url: redis.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.close();
    await Promise.all([redis?.stop(), api?.server.close(), as?.close()]);
  });
  afterEach(async () => {
    as.tokenRequests.splice(0);
    api.tokens.splice(0);
    await Promise.all(instances.map((instance) => instance.exit()));
    instances = [];
  });

  const environment = (prefix: string, extra: Record<string, string>) => ({
    REDIS_URL: redis.url,
    TOKEN_STORE_SECRET: 'the agent app token-store secret, 32+ bytes',
    PREFIX: prefix,
    TOKEN_ENDPOINT: as.tokenEndpoint,
    ISSUER: as.issuer,
    MANIFEST_URL: api.manifestUrl,
    ...extra,
  });
  const both = (count: number) => Promise.all(instances.map((instance) => instance.calls(count)));

  it('clientCredentials: 64 calls across both make one token request; a revoked token is renewed once for both', { timeout: SPAWN_TIMEOUT }, async () => {
    const env = environment('agent-cc:', { GRANT: 'client_credentials', CLIENT_SECRET: CLIENT_SECRETS.basic });
    instances = await Promise.all([startInstance(env), startInstance(env)]);
    expect(await both(32)).toEqual([
      { ok: 32, failed: [] },
      { ok: 32, failed: [] },
    ]);
    expect(as.tokenRequests.map((request) => [request.grantType, request.status])).toEqual([['client_credentials', 200]]);
    expect(api.tokens).toHaveLength(64);
    expect(new Set(api.tokens).size).toBe(1);

    // The token is revoked: every call of both is refused once, and one new token serves them all.
    const [first] = api.tokens;
    await as.revoke(first!);
    api.tokens.splice(0);
    expect((await both(32)).map((result) => result.ok)).toEqual([32, 32]);
    expect(as.tokenRequests).toHaveLength(2);
    const sent = new Set(api.tokens);
    expect(sent.size).toBe(2);
    expect(sent.has(first)).toBe(true);
  });

  it('refresh-token rotation: each renewal spends the stored refresh token once, on one of the two', { timeout: SPAWN_TIMEOUT }, async () => {
    const issued = await as.issueRefreshToken('alice');
    await client.set('app:refresh-token:alice', issued);
    const env = environment('agent-user:', { GRANT: 'refresh_token', CLIENT_SECRET: CLIENT_SECRETS.user });
    instances = await Promise.all([startInstance(env), startInstance(env)]);
    expect((await both(16)).map((result) => result.ok)).toEqual([16, 16]);
    const rotated = await client.get('app:refresh-token:alice');
    expect(rotated).not.toBe(issued);

    await as.revoke(api.tokens[0]!);
    expect((await both(16)).map((result) => result.ok)).toEqual([16, 16]);
    // Two renewals, each with the refresh token the one before stored; none refused as spent.
    expect(as.tokenRequests.map((request) => [request.grantType, request.params.refresh_token, request.status])).toEqual([
      ['refresh_token', issued, 200],
      ['refresh_token', rotated, 200],
    ]);
  });
});
