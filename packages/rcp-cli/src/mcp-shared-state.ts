/**
 * The gateway command line's approval and shared-state flags (SPEC §19): `--approval` gives the
 * gateway's client its policy (asked through MCP elicitation by rcp-mcp, failing closed when the
 * host cannot ask); `--redis` / `--redis-env` put what several gateway processes must share in
 * one Redis — the approval ledger (a review made on one process is answered on another, each
 * approval used once among them) and, with `--oauth-env`, the OAuth token — through rcp-redis,
 * with the secrets they share from the environment (`--approval-secret-env`, `--token-secret-env`).
 * Every flag is checked before anything is connected, discovered or served.
 */
import { createRcpClient, isRcpError, type RcpApprovalLedger, type RcpApprovalPolicy } from 'rcp-client';
import type { RcpTokenStore } from 'rcp-oauth';
import type { CommandLineOptions } from './command-line';
import { RcpUsageError } from './command-line';

/**
 * The flags, for `parseCommandLine`.
 *
 * @example
 * ```ts
 * const { values } = parseCommandLine('rcp-mcp', argv, { ...SHARED_STATE_OPTIONS });
 * ```
 */
export const SHARED_STATE_OPTIONS = {
  approval: { type: 'string' },
  'approval-secret-env': { type: 'string' },
  redis: { type: 'string' },
  'redis-env': { type: 'string' },
  'token-secret-env': { type: 'string' },
} satisfies CommandLineOptions;

/**
 * The `--help` lines of {@link SHARED_STATE_OPTIONS}.
 *
 * @example
 * ```ts
 * const HELP = `Usage: rcp-mcp <url|file> [options]\n\n${SHARED_STATE_HELP}`;
 * ```
 */
export const SHARED_STATE_HELP = `  --approval writes|destructive
                          calls that wait for a person's yes, asked through the host (MCP elicitation):
                          writes = every call that is not read-only, destructive = deletes and calls
                          declared destructive. A host that cannot ask gets a refusal and nothing is sent.
                          Default: none (no call asks, as without the flag)
  --redis URL             several gateway processes share one Redis (redis:// or rediss://, no password
                          here: use --redis-env): the approval ledger, so an approval asked on one process
                          is answered on another and used once among them, and with --oauth-env the OAuth
                          token. Needs the packages redis and rcp-redis installed
  --redis-env NAME        the same, the URL from environment variable NAME (for a URL with a password)
  --approval-secret-env NAME
                          with --redis and --approval: the approval secret, at least 32 bytes, from
                          environment variable NAME; the same in every process that shares the Redis
  --token-secret-env NAME with --redis and --oauth-env: the secret the OAuth token is sealed with in Redis,
                          at least 32 bytes, from environment variable NAME; the same in every process
`;

/**
 * What the flags ask for, checked; nothing connected yet.
 *
 * @example
 * ```ts
 * const plan: SharedStatePlan = { approval: 'writes', approvalSecret: undefined, redis: undefined, tokenSecret: undefined };
 * ```
 */
export interface SharedStatePlan {
  readonly approval: RcpApprovalPolicy | undefined;
  readonly approvalSecret: string | undefined;
  /** The Redis URL and where it came from (for messages that never show it). */
  readonly redis: { readonly url: string; readonly flag: string } | undefined;
  readonly tokenSecret: string | undefined;
}

/**
 * The client's policy for `--approval`: the client's own `'writes'` or `'destructive'` (a tool
 * whose effects say destructive: a DELETE, or declared so); absent, none.
 *
 * @example
 * ```ts
 * createRcpClient({ approval: approvalPolicyOf('destructive', 'rcp-mcp') });
 * ```
 */
export function approvalPolicyOf(value: string | undefined, command: string): RcpApprovalPolicy | undefined {
  if (value === undefined) return undefined;
  if (value === 'writes' || value === 'destructive') return value;
  throw new RcpUsageError(`--approval takes writes or destructive, got "${value.slice(0, 20)}"`, { command });
}

type Values = { readonly [Name in keyof typeof SHARED_STATE_OPTIONS]?: string | undefined } & {
  readonly 'oauth-env'?: string | undefined;
};

/** The value of the environment variable a `--…-env NAME` flag names; unset or empty is a usage error. */
function fromEnv(flag: string, name: string, env: Readonly<Record<string, string | undefined>>, command: string): string {
  const value = env[name];
  if (value === undefined || value === '') throw new RcpUsageError(`${flag} ${name}: the environment variable is not set`, { command });
  return value;
}

/** A Redis URL the gateway may connect to: redis: or rediss:, and (on argv) no password. */
function redisUrlOf(url: string, flag: string, command: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RcpUsageError(`${flag} takes a redis:// or rediss:// URL`, { command });
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw new RcpUsageError(`${flag} takes a redis:// or rediss:// URL`, { command });
  if (flag === '--redis' && parsed.password !== '') {
    // Never echoed: argv is what `ps` and shell history show.
    throw new RcpUsageError(
      '--redis: the URL holds a password, which ps and shell history show; put the URL in an environment variable and give --redis-env NAME',
      {
        command,
      },
    );
  }
  return url;
}

/**
 * Reads and checks the approval and shared-state flags (no I/O): each problem a usage error
 * naming the flag, never a secret or the Redis URL. The rules: `--redis` (or `--redis-env`)
 * shares the approval ledger when `--approval` is on, and then needs `--approval-secret-env` (an
 * approval made on one process verifies on another only under the same secret); it shares the
 * OAuth token when `--oauth-env` is given, and then needs `--token-secret-env`; with neither it
 * would share nothing and is refused. A shared secret without the shared ledger is refused too:
 * with a ledger per process, one approval could be used once in each (or again after a restart).
 *
 * @example
 * ```ts
 * const plan = sharedStatePlan({ approval: 'writes' }, process.env, 'rcp-mcp');
 * ```
 */
export function sharedStatePlan(values: Values, env: Readonly<Record<string, string | undefined>>, command: string): SharedStatePlan {
  const approval = approvalPolicyOf(values.approval, command);
  const oauth = values['oauth-env'] !== undefined;
  if (values.redis !== undefined && values['redis-env'] !== undefined) throw new RcpUsageError('give --redis or --redis-env, not both', { command });
  const redis =
    values.redis !== undefined
      ? { url: redisUrlOf(values.redis, '--redis', command), flag: '--redis' }
      : values['redis-env'] !== undefined
        ? {
            url: redisUrlOf(fromEnv('--redis-env', values['redis-env'], env, command), `--redis-env ${values['redis-env']}`, command),
            flag: `--redis-env ${values['redis-env']}`,
          }
        : undefined;
  const secretEnv = values['approval-secret-env'];
  const tokenSecretEnv = values['token-secret-env'];
  if (secretEnv !== undefined && approval === undefined) {
    throw new RcpUsageError('--approval-secret-env signs approvals, and no --approval is given', { command });
  }
  if (secretEnv !== undefined && redis === undefined) {
    throw new RcpUsageError(
      '--approval-secret-env shares approvals between gateway processes, which needs the ledger they share: give --redis URL (or --redis-env NAME) too',
      { command },
    );
  }
  if (tokenSecretEnv !== undefined && (redis === undefined || !oauth)) {
    throw new RcpUsageError('--token-secret-env seals the OAuth token kept in Redis: give it with --redis and --oauth-env', { command });
  }
  if (redis !== undefined) {
    if (approval === undefined && !oauth) {
      throw new RcpUsageError(`${redis.flag} shares approvals (--approval) and OAuth tokens (--oauth-env) between gateway processes, and neither is on`, {
        command,
      });
    }
    if (approval !== undefined && secretEnv === undefined) {
      throw new RcpUsageError(
        `${redis.flag} with --approval: the processes must share the approval secret, or an approval made on one fails on another; ` +
          'give --approval-secret-env NAME (the same 32 or more bytes in every process)',
        { command },
      );
    }
    if (oauth && tokenSecretEnv === undefined) {
      throw new RcpUsageError(
        `${redis.flag} with --oauth-env: the OAuth token is kept in Redis sealed with a secret the processes share; give --token-secret-env NAME (32 or more bytes)`,
        { command },
      );
    }
  }
  return {
    approval,
    approvalSecret: secretEnv === undefined ? undefined : fromEnv('--approval-secret-env', secretEnv, env, command),
    redis,
    tokenSecret: tokenSecretEnv === undefined ? undefined : fromEnv('--token-secret-env', tokenSecretEnv, env, command),
  };
}

/**
 * What the gateway's client gets from a plan, and how to connect it and let go of it.
 *
 * @example
 * ```ts
 * const state: SharedState = await prepareSharedState(plan, 'rcp-mcp', console.error);
 * ```
 */
export interface SharedState {
  /** The client's approval options: the policy, and with Redis the secret and the ledger. */
  readonly clientOptions: { approval?: RcpApprovalPolicy; approvalSecret?: string; approvalLedger?: RcpApprovalLedger };
  /** The OAuth token store, with Redis and `--oauth-env`. */
  readonly tokenStore: RcpTokenStore | undefined;
  /** Connects to Redis, if any; fails at once (exit code 1) when it cannot. */
  connect(): Promise<void>;
  /** Closes the Redis connection, if any. */
  close(): Promise<void>;
}

/**
 * A package the command line loads only for a flag that needs it (`--redis`: redis and
 * rcp-redis, optional peer dependencies), by `load` (a literal `import()`, which bundlers and
 * scans see). Not installed is a usage error saying what to install.
 *
 * @example
 * ```ts
 * const { createClient } = await importForFlag(() => import('redis'), 'redis', '--redis', 'rcp-mcp');
 * ```
 */
export async function importForFlag<Module>(load: () => Promise<Module>, name: string, flag: string, command: string): Promise<Module> {
  try {
    return await load();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    const missing = (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String((error as Error).message).includes(`'${name}'`);
    if (!missing) throw error;
    throw new RcpUsageError(`${flag} needs the package "${name}", which is not installed: npm install redis rcp-redis`, { command });
  }
}

/** The core's refusal of a secret (`RCP_INVALID_OPTIONS`: too short), as a usage error naming the flag; never the value. */
function secretRefused(error: unknown, flag: string, command: string): unknown {
  if (!isRcpError(error, 'RCP_INVALID_OPTIONS')) return error;
  const rule = error.message.replace(/^(Option )?"\w+"/, 'the value');
  return new RcpUsageError(`${flag}: ${rule}`, { command });
}

/** Where the Redis of a plan is, for a message: host and port only (never a password or a path). */
function whereOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '6379'}`;
}

/**
 * Prepares what a plan names, connecting nothing yet: with Redis, the packages loaded, the secrets
 * checked by their owners' rules (usage errors naming the flags), one node-redis client and
 * rcp-redis's approval ledger and token store on it, under their default key prefixes
 * (`rcp:approval:`, `rcp:oauth:`) so that an application's own clients may share them. `connect`
 * fails at once when Redis cannot be reached, and reconnects once it was up; `warn` gets one line
 * when a live connection fails.
 *
 * @example
 * ```ts
 * const state = await prepareSharedState(plan, 'rcp-mcp', (line) => process.stderr.write(`${line}\n`));
 * await state.connect();
 * const client = createRcpClient({ ...state.clientOptions });
 * ```
 */
export async function prepareSharedState(plan: SharedStatePlan, command: string, warn: (line: string) => void): Promise<SharedState> {
  const approval = plan.approval === undefined ? {} : { approval: plan.approval };
  const redis = plan.redis;
  if (redis === undefined) return { clientOptions: approval, tokenStore: undefined, connect: async () => {}, close: async () => {} };
  const { createClient } = await importForFlag(() => import('redis'), 'redis', redis.flag, command);
  const stores = await importForFlag(() => import('rcp-redis'), 'rcp-redis', redis.flag, command);
  let connected = false;
  const client = createClient({
    url: redis.url,
    socket: {
      connectTimeout: 5_000,
      // Before the first connection a failure ends the start (nothing is served); after it, retry.
      reconnectStrategy: (retries, cause) => (connected ? Math.min(100 * 2 ** retries, 5_000) : cause),
    },
  });
  client.on('error', (error: unknown) => {
    if (connected) warn(`${redis.flag}: the Redis connection failed (${(error as NodeJS.ErrnoException).code ?? 'error'}); reconnecting`);
  });
  // The secrets are checked by their owners' own rules before anything is connected: the
  // approval secret by rcp-client's (a client made for nothing else), the token secret by rcp-redis's.
  try {
    if (plan.approvalSecret !== undefined) createRcpClient({ approvalSecret: plan.approvalSecret });
  } catch (error) {
    throw secretRefused(error, '--approval-secret-env', command);
  }
  let tokenStore: RcpTokenStore | undefined;
  try {
    if (plan.tokenSecret !== undefined) tokenStore = stores.createRedisTokenStore({ client, secret: plan.tokenSecret });
  } catch (error) {
    throw secretRefused(error, '--token-secret-env', command);
  }
  const approvalLedger = plan.approval === undefined ? undefined : stores.createRedisApprovalLedger({ client });
  return {
    clientOptions: {
      ...approval,
      ...(plan.approvalSecret !== undefined && { approvalSecret: plan.approvalSecret }),
      ...(approvalLedger !== undefined && { approvalLedger }),
    },
    tokenStore,
    connect: async () => {
      try {
        await client.connect();
      } catch (error) {
        // node-redis wraps the socket's error when the reconnect strategy gives up.
        const failure = error as NodeJS.ErrnoException & { originalError?: NodeJS.ErrnoException };
        const code = failure.originalError?.code ?? failure.code;
        throw new RcpUsageError(`${redis.flag}: cannot connect to Redis at ${whereOf(redis.url)}${code === undefined ? '' : ` (${code})`}`, { exitCode: 1 });
      }
      connected = true;
    },
    close: async () => {
      if (!connected) return;
      connected = false;
      await client.close();
    },
  };
}
