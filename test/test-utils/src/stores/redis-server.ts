import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * What to install when `redis-server` is missing (the tests use a real one, never a fake).
 *
 * @example
 * ```ts
 * console.warn(`install redis-server: ${REDIS_SERVER_INSTALL}`);
 * ```
 */
export const REDIS_SERVER_INSTALL = 'apt-get install redis-server (Debian and Ubuntu), or brew install redis';

/**
 * The `redis-server` binary: `$REDIS_SERVER` when set, else the first on `PATH` (Debian's is
 * `/usr/bin/redis-server`); `undefined` when there is none.
 *
 * @example
 * ```ts
 * findRedisServer(); // '/usr/bin/redis-server'
 * ```
 */
export function findRedisServer(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const given = env['REDIS_SERVER'];
  const candidates =
    given !== undefined && given !== ''
      ? [given]
      : (env['PATH'] ?? '')
          .split(delimiter)
          .filter((dir) => dir !== '')
          .map((dir) => join(dir, 'redis-server'));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not there, or not executable: the next one
    }
  }
  return undefined;
}

/**
 * Whether the Redis tests of this run are skipped. Outside CI a missing `redis-server` skips them
 * with a visible notice saying what to install; with `CI=true` nothing is skipped, so
 * {@link startRedisServer} fails the tests instead of letting a run pass without them.
 *
 * @example
 * ```ts
 * const redis = redisTestAvailability();
 * describe.skipIf(redis.skip)('the Redis store', () => { … });
 * ```
 */
export function redisTestAvailability(env: NodeJS.ProcessEnv = process.env): { skip: boolean; notice?: string } {
  if (findRedisServer(env) !== undefined) return { skip: false };
  const notice = `redis-server was not found: the Redis tests need a real one (${REDIS_SERVER_INSTALL}).`;
  if (env['CI'] === 'true') return { skip: false, notice };
  console.warn(`[rcp-test-utils] SKIPPED: ${notice}`);
  return { skip: true, notice };
}

/** A real `redis-server` on loopback, started by {@link startRedisServer}. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Stops the server (nothing is saved) and removes its working folder. */
  stop(): Promise<void>;
}

/** A TCP port free on 127.0.0.1 right now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Resolves once the server says it accepts connections; rejects with its output if it exits first or never does. */
function ready(child: ChildProcess, limitMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => finish(new Error(`redis-server did not start within ${limitMs} ms:\n${output}`)), limitMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) finish();
    };
    const onExit = (code: number | null) => finish(new Error(`redis-server exited (${code}) before accepting connections:\n${output}`));
    const finish = (error?: Error) => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      if (error === undefined) resolve();
      else reject(error);
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

/**
 * Starts Debian's `redis-server` on a free port of 127.0.0.1 (bound there only), with no
 * persistence (`--save ''`, `--appendonly no`) in a temporary folder, and resolves once it
 * accepts connections. Throws, saying what to install, when the binary is missing.
 *
 * @example
 * ```ts
 * let redis: RedisServer;
 * beforeAll(async () => { redis = await startRedisServer(); });
 * afterAll(() => redis.stop());
 * ```
 */
export async function startRedisServer(options: { readyTimeoutMs?: number } = {}): Promise<RedisServer> {
  const binary = findRedisServer();
  if (binary === undefined) throw new Error(`redis-server was not found: the Redis tests need a real one (${REDIS_SERVER_INSTALL}).`);
  const dir = mkdtempSync(join(tmpdir(), 'rcp-redis-'));
  let lastError: unknown;
  // A port found free can be taken before the server binds it: try a few.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const child = spawn(
      binary,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no', '--loglevel', 'notice'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stderr?.resume();
    try {
      await ready(child, options.readyTimeoutMs ?? 30_000);
    } catch (error) {
      lastError = error;
      child.kill('SIGKILL');
      continue;
    }
    child.stdout?.resume();
    return {
      url: `redis://127.0.0.1:${port}`,
      port,
      stop: async () => {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
          child.kill('SIGTERM');
          await exited;
        }
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  rmSync(dir, { recursive: true, force: true });
  throw lastError;
}
