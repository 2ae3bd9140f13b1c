import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NOTES_TOKEN, startNotesApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { CLIENT_SECRETS, startAuthorizationServer, startToolApi } from 'rcp-test-utils/oauth';
import { redisTestAvailability, startRedisServer, type RedisServer } from 'rcp-test-utils/stores';
import { runRcp, runRcpMcp, startRcpMcp, startRcpMcpHttp, type McpHttpRun } from './fixtures/run-rcp';
import { importForFlag } from './mcp-shared-state';

/**
 * Issue 39, item 6: `rcp-mcp --approval writes|destructive` asks a person through the host (MCP
 * elicitation) and fails closed when the host cannot ask; in `--dynamic` mode the decision is
 * the underlying tool's, one yes per call. The built command line in this process, real MCP SDK
 * clients (v1 on its stdio streams, v2 over HTTP on 127.0.0.1), the notes API on 127.0.0.1,
 * asserting what the API received.
 */
const redisAvailability = redisTestAvailability();
let notes: TestServer;
let manifestUrl: string;
const closers: (() => Promise<unknown>)[] = [];
beforeEach(async () => {
  ({ server: notes, manifestUrl } = await startNotesApi());
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await notes.close();
});

const env = { NOTES_TOKEN };
const served = (...extra: string[]) => [manifestUrl, '--ctx', 'userId=u-1', '--token-env', 'NOTES_TOKEN', ...extra];
type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: unknown };
/** What the model reads: toModelText's JSON. */
const read = (result: unknown) =>
  JSON.parse((result as ToolResult).content[0]!.text) as { ok: boolean; data?: unknown; error?: { code: string; message: string } };
const CANNOT_ASK = "The call needs a person's approval; this MCP host cannot ask (no elicitation support), so it was not made.";

/**
 * A v1 host over the gateway's stdio streams; with `answer` it declares elicitation and answers
 * with it, recording each question and what the API had received when it was asked.
 */
async function stdioHost(args: string[], answer?: (params: ElicitRequest['params']) => ElicitResult) {
  const asked: ElicitRequest['params'][] = [];
  const sentWhenAsked: string[][] = [];
  const run = await startRcpMcp(args, {
    env,
    ...(answer !== undefined && {
      elicit: (params: ElicitRequest['params']) => {
        asked.push(params);
        sentWhenAsked.push(toolRequestLines(notes));
        return answer(params);
      },
    }),
  });
  closers.push(() => run.stop());
  notes.reset();
  return { client: run.client, asked, sentWhenAsked };
}

const yes = (): ElicitResult => ({ action: 'accept', content: { approve: true } });

describe('rcp-mcp --approval, a 2025-era host over stdio (the v1 SDK client)', () => {
  it('writes: a write waits for the person, who sees the exact request; yes sends exactly it, once; a read goes straight', async () => {
    const { client, asked, sentWhenAsked } = await stdioHost(served('--approval', 'writes'), yes);
    const created = (await client.callTool({ name: 'create_note', arguments: { title: 'Plan', text: 'eggs' } })) as ToolResult;
    expect(created.isError).not.toBe(true);
    expect(created.structuredContent).toEqual({ id: 'n-2', title: 'Plan', text: 'eggs' });
    expect(asked).toHaveLength(1);
    expect(sentWhenAsked).toEqual([[]]); // nothing reached the API while the person was asked
    const { message } = asked[0] as { message: string };
    expect(message).toContain('create_note needs your approval (the call changes data (approval: "writes"))');
    expect(message).toContain(`"url": "${notes.url('/users/u-1/notes')}"`);
    expect(message).not.toContain(NOTES_TOKEN);
    expect(toolRequestLines(notes)).toEqual(['POST /users/u-1/notes']);
    expect(notes.requests[0]!.json).toEqual({ title: 'Plan', text: 'eggs' });
    await client.callTool({ name: 'get_note', arguments: { noteId: 'n-1' } });
    expect(asked).toHaveLength(1);
    expect(toolRequestLines(notes)).toEqual(['POST /users/u-1/notes', 'GET /users/u-1/notes/n-1']);
  });

  it('writes, the person declines: the model reads the denial, nothing sent', async () => {
    const { client, asked } = await stdioHost(served('--approval', 'writes'), () => ({ action: 'decline' }));
    const result = await client.callTool({ name: 'delete_note', arguments: { noteId: 'n-1' } });
    expect(asked).toHaveLength(1);
    expect(read(result).error!.code).toBe('RCP_APPROVAL_DENIED');
    expect(toolRequestLines(notes)).toEqual([]);
  });

  it('writes, a host that cannot ask (no elicitation): fails closed with a refusal the model reads, nothing sent', async () => {
    const { client } = await stdioHost(served('--approval', 'writes'));
    const result = (await client.callTool({ name: 'create_note', arguments: { title: 'Plan' } })) as ToolResult;
    expect(result.isError).toBe(true);
    expect(read(result).error).toEqual({ code: 'RCP_APPROVAL_REQUIRED', message: CANNOT_ASK });
    expect(toolRequestLines(notes)).toEqual([]);
    // A read needs no one, even here.
    expect(read(await client.callTool({ name: 'get_note', arguments: { noteId: 'n-1' } })).ok).toBe(true);
  });

  it('destructive: a DELETE waits for the person; a POST goes straight', async () => {
    const { client, asked } = await stdioHost(served('--approval', 'destructive'), yes);
    expect(read(await client.callTool({ name: 'create_note', arguments: { title: 'Plan' } })).ok).toBe(true);
    expect(asked).toHaveLength(0);
    expect(read(await client.callTool({ name: 'delete_note', arguments: { noteId: 'n-1' } })).ok).toBe(true);
    expect(asked).toHaveLength(1);
    expect((asked[0] as { message: string }).message).toContain('the call may delete or overwrite data (approval: "destructive")');
    expect(toolRequestLines(notes)).toEqual(['POST /users/u-1/notes', 'DELETE /users/u-1/notes/n-1']);
  });

  it('without --approval (the default, as before the flag): nothing asks', async () => {
    const { client, asked } = await stdioHost(served(), yes);
    expect(read(await client.callTool({ name: 'delete_note', arguments: { noteId: 'n-1' } })).ok).toBe(true);
    expect(asked).toHaveLength(0);
    expect(toolRequestLines(notes)).toEqual(['DELETE /users/u-1/notes/n-1']);
  });
});

describe('rcp-mcp --approval writes --dynamic: the decision is the underlying tool’s, one yes per call', () => {
  it('stdio: a read through call_tool goes straight; each write through it asks on its own', async () => {
    const answers = [yes(), { action: 'decline' } as ElicitResult];
    const { client, asked } = await stdioHost(served('--approval', 'writes', '--dynamic'), () => answers.shift()!);
    const callTool = (name: string, args: Record<string, unknown>) => client.callTool({ name: 'call_tool', arguments: { name, arguments: args } });
    expect(read(await callTool('get_note', { noteId: 'n-1' })).ok).toBe(true);
    expect(asked).toHaveLength(0);
    notes.reset();
    expect(read(await callTool('create_note', { title: 'Plan' })).ok).toBe(true);
    expect(asked).toHaveLength(1);
    expect((asked[0] as { message: string }).message).toContain('create_note needs your approval');
    // The yes for that write covers no other: the next write is asked again (and declined: nothing sent).
    expect(read(await callTool('delete_note', { noteId: 'n-1' })).error!.code).toBe('RCP_APPROVAL_DENIED');
    expect(asked).toHaveLength(2);
    expect((asked[1] as { message: string }).message).toContain('delete_note needs your approval');
    expect(toolRequestLines(notes)).toEqual(['POST /users/u-1/notes']);
  });

  it('HTTP, a 2026-07-28 host: the answer to one write, replayed with other arguments or for another tool, is refused; nothing more sent', async () => {
    const gateway = await startHttpGateway(served('--approval', 'writes', '--dynamic'));
    const { host, answers } = await modernHost(gateway.endpoint);
    const created = await host.callTool({ name: 'call_tool', arguments: { name: 'create_note', arguments: { title: 'Plan' } } });
    expect(read(created).ok).toBe(true);
    expect(toolRequestLines(notes)).toEqual(['POST /users/u-1/notes']);
    const answer = answers[0]!;
    const replays: [string, (params: { arguments: { name: string; arguments: Record<string, unknown> } }) => void][] = [
      ['as it was', () => {}],
      ['with another title', (params) => (params.arguments.arguments = { title: 'Other' })],
      ['for another tool', (params) => (params.arguments = { name: 'delete_note', arguments: { noteId: 'n-1' } })],
    ];
    for (const [_how, edit] of replays) expect(await replay(gateway.endpoint, answer, edit)).toContain('RCP_APPROVAL_MISMATCH');
    expect(toolRequestLines(notes)).toEqual(['POST /users/u-1/notes']);
  });
});

/** The `rcp-mcp --http` run, stopped after the test; hosts send `Bearer mcp-secret`. */
async function startHttpGateway(args: string[], extraEnv: Record<string, string> = {}): Promise<McpHttpRun> {
  const run = await startRcpMcpHttp([...args, '--http', '--port', '0', '--auth-token-env', 'MCP_TOKEN'], {
    env: { ...env, MCP_TOKEN: 'mcp-secret', ...extraEnv },
  });
  closers.push(() => run.stop());
  notes.reset();
  return run;
}

/** One request a host sent: its headers and body, to send again. */
interface SentRequest {
  readonly headers: Headers;
  readonly body: string;
}

/**
 * A 2026-07-28 host (the v2 SDK client pinned to it) that answers yes to every question; the
 * round that carries the answer (our `requestState`) is recorded and sent to `answerTo` when given
 * (another gateway process) instead of `endpoint`.
 */
async function modernHost(endpoint: string, answerTo?: string): Promise<{ host: ClientV2; answers: SentRequest[] }> {
  const answers: SentRequest[] = [];
  const routing: typeof fetch = (input, init) => {
    const body = typeof init?.body === 'string' ? init.body : '';
    if (!body.includes('requestState')) return fetch(input, init);
    answers.push({ headers: new Headers(init?.headers), body });
    return fetch(answerTo ?? input, init);
  };
  const host = new ClientV2({ name: 'host-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: {} } });
  host.setRequestHandler('elicitation/create', () => yes());
  await host.connect(new HttpTransportV2(new URL(endpoint), { fetch: routing, requestInit: { headers: { authorization: 'Bearer mcp-secret' } } }));
  closers.push(() => host.close());
  return { host, answers };
}

/** Sends a recorded answer again to `endpoint`, its tool call edited, and answers the response's text. */
async function replay(endpoint: string, answer: SentRequest, edit: (params: any) => void = () => {}): Promise<string> {
  const message = JSON.parse(answer.body) as { params: Record<string, unknown> };
  edit(message.params);
  const response = await fetch(endpoint, { method: 'POST', headers: answer.headers, body: JSON.stringify(message) });
  return response.text();
}

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('rcp-mcp approval and shared-state flags: usage errors before anything is connected, discovered or sent', () => {
  const SECRET = randomBytes(32).toString('hex');
  const flagsEnv = { ...env, APPROVAL_SECRET: SECRET, SHORT_SECRET: 'too-short-7f3e', REDIS_URL: 'redis://:pw-9c1d@127.0.0.1:1/0' };
  const redis = 'redis://127.0.0.1:1';
  it.each([
    [['--approval', 'reads'], '--approval takes writes or destructive, got "reads"'],
    [['--approval', 'writes', '--redis', redis, '--redis-env', 'REDIS_URL'], 'give --redis or --redis-env, not both'],
    [
      ['--approval', 'writes', '--redis', 'redis://:pw-9c1d@127.0.0.1:1', '--approval-secret-env', 'APPROVAL_SECRET'],
      '--redis: the URL holds a password, which ps and shell history show; put the URL in an environment variable and give --redis-env NAME',
    ],
    [['--approval', 'writes', '--redis', 'http://127.0.0.1:1', '--approval-secret-env', 'APPROVAL_SECRET'], '--redis takes a redis:// or rediss:// URL'],
    [['--approval', 'writes', '--redis-env', 'NO_SUCH_VAR'], '--redis-env NO_SUCH_VAR: the environment variable is not set'],
    [['--redis', redis], '--redis shares approvals (--approval) and OAuth tokens (--oauth-env) between gateway processes, and neither is on'],
    [
      ['--approval', 'writes', '--redis', redis],
      '--redis with --approval: the processes must share the approval secret, or an approval made on one fails on another; ' +
        'give --approval-secret-env NAME (the same 32 or more bytes in every process)',
    ],
    [
      ['--approval', 'writes', '--redis-env', 'REDIS_URL'],
      '--redis-env REDIS_URL with --approval: the processes must share the approval secret, or an approval made on one fails on another; ' +
        'give --approval-secret-env NAME (the same 32 or more bytes in every process)',
    ],
    [
      ['--approval', 'writes', '--approval-secret-env', 'APPROVAL_SECRET'],
      '--approval-secret-env shares approvals between gateway processes, which needs the ledger they share: give --redis URL (or --redis-env NAME) too',
    ],
    [['--approval-secret-env', 'APPROVAL_SECRET', '--redis', redis], '--approval-secret-env signs approvals, and no --approval is given'],
    [['--approval', 'writes', '--redis', redis, '--approval-secret-env', 'UNSET'], '--approval-secret-env UNSET: the environment variable is not set'],
    [['--approval', 'writes', '--redis', redis, '--approval-secret-env', 'SHORT_SECRET'], '--approval-secret-env: the value must be at least 32 bytes long'],
    [
      ['--approval', 'writes', '--redis', redis, '--approval-secret-env', 'APPROVAL_SECRET', '--token-secret-env', 'APPROVAL_SECRET'],
      '--token-secret-env seals the OAuth token kept in Redis: give it with --redis and --oauth-env',
    ],
  ])('%j: one line naming the flag; nothing requested', async (flags, line) => {
    const { code, stdout, stderr } = await runRcpMcp([manifestUrl, '--ctx', 'userId=u-1', ...flags], { env: flagsEnv });
    expect([code, stderr.trim()]).toEqual([2, `rcp-mcp: ${line} (see rcp-mcp --help)`]);
    expect(stdout).toBe('');
    // No secret, no Redis password, ever shown.
    expect(stderr).not.toContain(SECRET);
    expect(stderr).not.toMatch(/too-short-7f3e|pw-9c1d/);
    expect(notes.count).toBe(0);
  });

  it('--redis with --oauth-env needs --token-secret-env (the token is sealed in Redis with a secret the processes share)', async () => {
    const oauthEnv = { GW_OAUTH_TOKEN_ENDPOINT: 'https://auth.rcp-test/token', GW_OAUTH_CLIENT_ID: 'c', GW_OAUTH_CLIENT_SECRET: 's' };
    const { code, stderr } = await runRcpMcp([manifestUrl, '--ctx', 'userId=u-1', '--oauth-env', 'GW_OAUTH', '--redis', redis], { env: oauthEnv });
    expect([code, stderr.trim()]).toEqual([
      2,
      'rcp-mcp: --redis with --oauth-env: the OAuth token is kept in Redis sealed with a secret the processes share; give --token-secret-env NAME (32 or more bytes) (see rcp-mcp --help)',
    ]);
    expect(notes.count).toBe(0);
  });

  it('a Redis that cannot be reached: one line (exit code 1) with its host and port only, nothing served or discovered', async () => {
    const port = await closedPort();
    const { code, stderr } = await runRcpMcp(
      [manifestUrl, '--ctx', 'userId=u-1', '--approval', 'writes', '--redis-env', 'REDIS_URL', '--approval-secret-env', 'S'],
      {
        env: { ...env, S: SECRET, REDIS_URL: `redis://:pw-9c1d@127.0.0.1:${port}` },
      },
    );
    expect([code, stderr.trim()]).toEqual([1, `rcp-mcp: --redis-env REDIS_URL: cannot connect to Redis at 127.0.0.1:${port} (ECONNREFUSED)`]);
    expect(stderr).not.toContain('pw-9c1d');
    expect(notes.count).toBe(0);
  });

  it('`rcp-mcp --help` and `rcp mcp --help` list the flags', async () => {
    for (const help of [(await runRcpMcp(['--help'])).stdout, (await runRcp(['mcp', '--help'])).stdout]) {
      for (const flag of ['--approval writes|destructive', '--redis URL', '--redis-env NAME', '--approval-secret-env NAME', '--token-secret-env NAME']) {
        expect(help).toContain(flag);
      }
      expect(help).toContain('Default: none (no call asks, as without the flag)');
    }
  });

  it('a package a flag needs that is not installed: a usage error saying what to install', async () => {
    const missing = 'rcp-redis-not-installed';
    const error = await importForFlag(() => import(missing), missing, '--redis', 'rcp-mcp').catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      name: 'RcpUsageError',
      exitCode: 2,
      message: '--redis needs the package "rcp-redis-not-installed", which is not installed: npm install redis rcp-redis',
    });
  });
});

describe.skipIf(redisAvailability.skip)('rcp-mcp --redis: gateway processes that share a real redis-server (loopback)', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  const SHARED = randomBytes(32).toString('hex');
  const sharing = (secret = SHARED) => ({
    args: served('--http', '--approval', 'writes', '--redis', redis.url, '--approval-secret-env', 'APPROVAL_SECRET'),
    env: { APPROVAL_SECRET: secret },
  });

  it("a question asked on one gateway is answered on another: sent once; the answer replayed on either is refused; another secret's gateway refuses it", async () => {
    const [a, b, other] = [sharing(), sharing(), sharing(randomBytes(32).toString('hex'))];
    const gatewayA = await startHttpGateway(a.args, a.env);
    const gatewayB = await startHttpGateway(b.args, b.env);
    const gatewayOther = await startHttpGateway(other.args, other.env);
    // The host asks gateway A; its answer (the round with our requestState) lands on gateway B.
    const { host, answers } = await modernHost(gatewayA.endpoint, gatewayB.endpoint);
    const created = await host.callTool({ name: 'create_note', arguments: { title: 'Plan', text: 'eggs' } });
    expect(read(created)).toMatchObject({ ok: true, data: { id: 'n-2', title: 'Plan' } });
    expect(toolRequestLines(notes)).toEqual(['POST /users/u-1/notes']);
    // Used once among every gateway that shares the ledger: the same answer, the same request and
    // caller (its digest verifies), is refused by its claim — on A too, which never took it.
    for (const endpoint of [gatewayA.endpoint, gatewayB.endpoint]) expect(await replay(endpoint, answers[0]!)).toContain('RCP_APPROVAL_MISMATCH');
    // A gateway with another approval secret cannot verify a review made under the shared one.
    const { host: crossing } = await modernHost(gatewayA.endpoint, gatewayOther.endpoint);
    const refused = await crossing.callTool({ name: 'create_note', arguments: { title: 'Other' } });
    expect(read(refused).error!.code).toBe('RCP_APPROVAL_MISMATCH');
    expect(toolRequestLines(notes)).toEqual(['POST /users/u-1/notes']);
  });

  it('--oauth-env: two gateway processes make one token request between them (the token sealed in Redis)', async () => {
    const as = await startAuthorizationServer();
    const api = await startToolApi(as);
    closers.push(
      () => api.server.close(),
      () => as.close(),
    );
    const oauthEnv = {
      GW_OAUTH_TOKEN_ENDPOINT: as.tokenEndpoint,
      GW_OAUTH_CLIENT_ID: 'basic-client',
      GW_OAUTH_CLIENT_SECRET: CLIENT_SECRETS.basic,
      TOKEN_SECRET: randomBytes(32).toString('hex'),
    };
    const before = as.tokenRequests.length;
    for (let instance = 0; instance < 2; instance += 1) {
      const run = await startRcpMcp([api.manifestUrl, '--oauth-env', 'GW_OAUTH', '--redis', redis.url, '--token-secret-env', 'TOKEN_SECRET'], {
        env: oauthEnv,
      });
      closers.push(() => run.stop());
      const result = (await run.client.callTool({ name: 'list_notes', arguments: {} })) as ToolResult;
      expect(result.structuredContent).toMatchObject({ client: 'basic-client' });
    }
    expect(as.tokenRequests.length - before).toBe(1);
    expect(api.tokens.slice(-2)).toEqual([api.tokens.at(-1), api.tokens.at(-1)]);
  });
});
