/**
 * Issue 39, item 5: the guarantees hold when the app runs as several instances, for real. Real
 * child processes — a `redis-server`, the notes API (rcp-server, idempotency records in Redis),
 * two MCP gateway processes (stateless HTTP) and two processes of the root README's stateless
 * AI SDK 6 chat route (a fresh client and tool set per request) — the gateways and the routes
 * each behind a round-robin proxy, all sharing the one Redis (approval ledger, token store). The
 * API reports what it received and applied; a loopback token endpoint counts its requests; a
 * loopback fake of the OpenAI Responses API is the routes' model. Nothing leaves 127.0.0.1.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ModelMessage } from 'ai';
import type { RcpApprovalRequest } from 'rcp-client';
import { readmeBlock, sendJson, SPAWN_TIMEOUT, startTestServer, type TestServer } from 'rcp-test-utils';
import { type RedisServer, redisTestAvailability, startRedisServer } from 'rcp-test-utils/stores';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScriptedCall, startScriptedModel } from './fake-openai';
import { type Instance, startInstance } from './instances';
import { type RoundRobinProxy, startRoundRobinProxy, UPSTREAM_HEADER } from './proxy';

const availability = redisTestAvailability();
const routeSource = fileURLToPath(new URL('./chat-route.ts', import.meta.url));
const routeModule = fileURLToPath(new URL('../.readme-chat-route.mjs', import.meta.url));
const rootReadme = fileURLToPath(new URL('../../../README.md', import.meta.url));

const ACCESS_TOKEN = 'the-one-access-token';
const GATEWAY_TOKEN = 'the-host-session-token';
const MISMATCH = { ok: false, error: { code: 'RCP_APPROVAL_MISMATCH', message: 'The approval does not cover this call; it was not made.' } };

/** What the API process received and applied (its GET /_received). */
interface Received {
  requests: { method: string; path: string; key: string | null }[];
  applied: { title: string; key: string | null }[];
}

/** The chat route's answer: the new messages of the turn and the reviews of its paused calls. */
interface ChatAnswer {
  messages: ModelMessage[];
  reviews: RcpApprovalRequest[];
}

describe.skipIf(availability.skip)('several instances sharing one Redis (issue 39)', () => {
  let redis: RedisServer;
  let tokenEndpoint: TestServer;
  let model: TestServer;
  let apiProxy: RoundRobinProxy;
  let gatewayProxy: RoundRobinProxy;
  let chatProxy: RoundRobinProxy;
  let host: Client;
  const instances: Instance[] = [];

  // One start for the file. Six processes on a loaded 2-core machine: each imports its SDKs
  // (the AI SDK, the MCP SDK, node-redis) before it listens, which can take well over vitest's
  // 10 s hook default there; SPAWN_TIMEOUT is far above the worst start seen.
  beforeAll(async () => {
    // The route the processes serve is the README's, as written: its types erased, nothing else changed.
    writeFileSync(
      routeModule,
      ts.transpileModule(readFileSync(routeSource, 'utf8'), {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      }).outputText,
    );
    [redis, tokenEndpoint, model] = await Promise.all([
      startRedisServer(),
      startTestServer({
        'POST /token': (_request, res) => sendJson(res, 200, { access_token: ACCESS_TOKEN, token_type: 'Bearer', expires_in: 3600 }),
      }),
      startScriptedModel(),
    ]);
    const api = await startInstance('api-instance', { REDIS_URL: redis.url, ACCESS_TOKEN });
    instances.push(api);
    apiProxy = await startRoundRobinProxy([api.url]);
    const env = {
      REDIS_URL: redis.url,
      NOTES_MANIFEST_URL: `${apiProxy.url}/rcp/manifest`,
      TOKEN_ENDPOINT: tokenEndpoint.url('/token'),
      CLIENT_SECRET: 'the notes-agent client secret',
      TOKEN_STORE_SECRET: 'the notes app token-store secret, 32+ bytes',
      APPROVAL_SECRET: 'the notes app approval secret, 32+ bytes',
      GATEWAY_TOKEN,
      OPENAI_BASE_URL: model.url('/v1'),
      OPENAI_API_KEY: 'sk-test',
      CHAT_ROUTE_MODULE: routeModule,
    };
    const started = await Promise.all([
      startInstance('gateway-instance', env),
      startInstance('gateway-instance', env),
      startInstance('chat-instance', env),
      startInstance('chat-instance', env),
    ]);
    instances.push(...started);
    gatewayProxy = await startRoundRobinProxy([started[0]!.url, started[1]!.url]);
    chatProxy = await startRoundRobinProxy([started[2]!.url, started[3]!.url]);
    host = new Client({ name: 'host', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: {} } });
    host.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { approve: true } }));
    await host.connect(
      new StreamableHTTPClientTransport(new URL(`${gatewayProxy.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${GATEWAY_TOKEN}` } } }),
    );
  }, SPAWN_TIMEOUT);

  afterAll(async () => {
    await host?.close();
    await Promise.all(instances.map((instance) => instance.stop()));
    await Promise.all([apiProxy?.close(), gatewayProxy?.close(), chatProxy?.close(), tokenEndpoint?.close(), model?.close(), redis?.stop()]);
    rmSync(routeModule, { force: true });
  }, SPAWN_TIMEOUT);

  /** What the API process received and applied, read from it directly (the proxy's log stays the tools' traffic). */
  const received = async (): Promise<Received> => (await (await fetch(`${instances[0]!.url}/_received`)).json()) as Received;
  const writes = async () => (await received()).requests.filter((request) => request.method === 'POST');

  /** One request to the chat route, through the proxy; with the instance that served it. */
  async function chat(messages: ModelMessage[]): Promise<ChatAnswer & { upstream: number }> {
    const response = await fetch(`${chatProxy.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages }),
    });
    const answer = (await response.json()) as ChatAnswer & { error?: string };
    expect(answer.error, 'the route threw').toBeUndefined();
    expect(response.status).toBe(200);
    return { ...answer, upstream: Number(response.headers.get(UPSTREAM_HEADER)) };
  }
  const prompt = (call: ScriptedCall): ModelMessage[] => [{ role: 'user', content: JSON.stringify(call) }];

  /** The result the model was given for `callId` in a turn's messages (rcp-ai-sdk's model result). */
  function resultOf(answer: ChatAnswer, callId: string): unknown {
    const part = answer.messages
      .flatMap((message) => (message.role === 'tool' ? message.content : []))
      .find((item) => item.type === 'tool-result' && item.toolCallId === callId);
    if (part?.type !== 'tool-result') throw new Error(`no result for ${callId}`);
    const { output } = part;
    if (output.type === 'json') return output.value;
    return output.type === 'text' || output.type === 'error-text' ? (JSON.parse(output.value) as unknown) : output;
  }

  /** A first turn that pauses on its write, and the history the browser sends back with the person's yes. */
  async function pausedThenApproved(call: ScriptedCall): Promise<{ paused: ChatAnswer & { upstream: number }; approved: ModelMessage[] }> {
    const paused = await chat(prompt(call));
    const request = paused.messages
      .flatMap((message) => (message.role === 'assistant' && Array.isArray(message.content) ? message.content : []))
      .find((part) => part.type === 'tool-approval-request');
    if (request?.type !== 'tool-approval-request') throw new Error('the call did not pause');
    const approved: ModelMessage[] = [
      ...prompt(call),
      ...paused.messages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] },
    ];
    return { paused, approved };
  }

  // The tests below wait on six processes' work, each on a loaded 2-core machine: they take the
  // same far-from-reached limit as a process start (SPAWN_TIMEOUT), never a measured duration.
  it('the instances serve the root README route as written', () => {
    expect(readmeBlock(rootReadme, 'snippet:deploy-route')).toBe(readFileSync(routeSource, 'utf8'));
  });

  it('64 calls across the four instances (two gateways, two routes) make one token request', { timeout: SPAWN_TIMEOUT }, async () => {
    const [answers, results] = await Promise.all([
      Promise.all(Array.from({ length: 32 }, (_, index) => chat(prompt({ call: `call-read-${index}`, tool: 'list_notes', arguments: {} })))),
      Promise.all(Array.from({ length: 32 }, () => host.callTool({ name: 'list_notes', arguments: {} }))),
    ]);
    answers.forEach((answer, index) => expect(resultOf(answer, `call-read-${index}`)).toMatchObject({ ok: true }));
    for (const result of results) expect(result.isError).not.toBe(true);
    expect(new Set(answers.map((answer) => answer.upstream))).toEqual(new Set([0, 1]));
    expect(new Set(gatewayProxy.log.map((request) => request.upstream))).toEqual(new Set([0, 1]));
    // One token request for all of them, and the API saw that one token on every call.
    expect(tokenEndpoint.requests.map((request) => request.body)).toEqual([expect.stringContaining('grant_type=client_credentials')]);
    expect((await received()).requests.filter((request) => request.method === 'GET' && request.path === '/notes')).toHaveLength(64);
  });

  it('MCP: a write paused on one gateway is approved on the other and sent once; a replay on either, or other arguments, is refused with nothing sent', {
    timeout: SPAWN_TIMEOUT,
  }, async () => {
    const at = gatewayProxy.log.length;
    const result = await host.callTool({ name: 'create_note', arguments: { title: 'Plan' } });
    expect(result.isError).not.toBe(true);
    expect(result.structuredContent).toMatchObject({ title: 'Plan' });
    const rounds = gatewayProxy.log.slice(at).filter((request) => request.body.includes('"tools/call"'));
    expect(rounds).toHaveLength(2);
    expect(rounds[0]!.body).not.toContain('requestState');
    expect(rounds[1]!.body).toContain('requestState');
    expect(rounds[1]!.upstream).not.toBe(rounds[0]!.upstream); // asked on one, approved on the other
    expect((await writes()).map((request) => request.path)).toEqual(['/notes']);

    // The approving round replayed as the host sent it: once to each gateway (round robin), and with other arguments.
    const retry = rounds[1]!;
    const replay = async (edit: (message: { params: { arguments: Record<string, unknown> } }) => void) => {
      const message = JSON.parse(retry.body) as { params: { arguments: Record<string, unknown> } };
      edit(message);
      const headers = Object.fromEntries(Object.entries(retry.headers).filter(([name]) => !['host', 'content-length', 'connection'].includes(name))) as Record<
        string,
        string
      >;
      const response = await fetch(`${gatewayProxy.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(message) });
      return { upstream: Number(response.headers.get(UPSTREAM_HEADER)), text: await response.text() };
    };
    const replays = [
      await replay(() => undefined),
      await replay(() => undefined),
      await replay((message) => (message.params.arguments = { title: 'Pay Mallory' })),
    ];
    expect(new Set(replays.slice(0, 2).map((answer) => answer.upstream))).toEqual(new Set([0, 1]));
    for (const { text } of replays) expect(text).toContain('RCP_APPROVAL_MISMATCH');
    expect((await writes()).map((request) => request.path)).toEqual(['/notes']); // nothing more sent
    expect((await received()).applied.map((note) => note.title)).toEqual(['Plan']);
  });

  it('a stateless chat route: a call paused on one instance is approved on the other and sent once; the replayed history is refused on both', {
    timeout: SPAWN_TIMEOUT,
  }, async () => {
    const before = (await writes()).length;
    const { paused, approved } = await pausedThenApproved({ call: 'call-milk', tool: 'create_note', arguments: { title: 'Milk' } });
    // What the person is shown: the exact request, the credential redacted; nothing sent yet.
    expect(paused.reviews).toHaveLength(1);
    expect(paused.reviews[0]!.request).toMatchObject({ method: 'POST', url: `${apiProxy.url}/notes`, body: { title: 'Milk' } });
    expect(JSON.stringify(paused.reviews)).not.toContain(ACCESS_TOKEN);
    expect(await writes()).toHaveLength(before);

    const resumed = await chat(approved);
    expect(resumed.upstream).not.toBe(paused.upstream);
    expect(resultOf(resumed, 'call-milk')).toMatchObject({ ok: true, data: { title: 'Milk' } });
    const replays = [await chat(approved), await chat(approved)];
    expect(new Set(replays.map((answer) => answer.upstream))).toEqual(new Set([0, 1]));
    for (const replay of replays) expect(resultOf(replay, 'call-milk')).toEqual(MISMATCH);
    expect((await writes()).slice(before).map((request) => request.path)).toEqual(['/notes']);
    expect((await received()).applied.filter((note) => note.title === 'Milk')).toHaveLength(1);
  });

  it('a stateless chat route: a tampered history (the approved call given other input) is refused, nothing sent', { timeout: SPAWN_TIMEOUT }, async () => {
    const before = (await writes()).length;
    const { paused, approved } = await pausedThenApproved({ call: 'call-eggs', tool: 'create_note', arguments: { title: 'Eggs' } });
    const tampered = approved.map((message) =>
      message.role === 'assistant' && Array.isArray(message.content)
        ? { ...message, content: message.content.map((part) => (part.type === 'tool-call' ? { ...part, input: { title: 'Pay Mallory' } } : part)) }
        : message,
    ) as ModelMessage[];
    const resumed = await chat(tampered);
    expect(resumed.upstream).not.toBe(paused.upstream);
    expect(resultOf(resumed, 'call-eggs')).toEqual(MISMATCH);
    expect(await writes()).toHaveLength(before);
  });

  it('a write whose answer is lost after the API applied it is retried with the same key and applied once', { timeout: SPAWN_TIMEOUT }, async () => {
    const before = (await writes()).length;
    const { approved } = await pausedThenApproved({ call: 'call-bread', tool: 'create_note', arguments: { title: 'Bread' } });
    apiProxy.loseNextAnswer((request) => request.method === 'POST');
    const resumed = await chat(approved);
    expect(resultOf(resumed, 'call-bread')).toMatchObject({ ok: true, data: { title: 'Bread' } });
    // The API received the write twice, with one key; it applied it once and answered the retry with the first answer.
    const sent = (await writes()).slice(before);
    expect(sent).toHaveLength(2);
    expect(sent[0]!.key).toMatch(/^"[0-9a-f]+"$/);
    expect(sent[1]!.key).toBe(sent[0]!.key);
    expect(
      apiProxy.log
        .filter((request) => request.method === 'POST')
        .slice(-2)
        .map((request) => request.status),
    ).toEqual(['lost', 201]);
    const bread = (await received()).applied.filter((note) => note.title === 'Bread');
    expect(bread).toEqual([{ title: 'Bread', key: sent[0]!.key }]);
    expect((resultOf(resumed, 'call-bread') as { data: { id: string } }).data.id).toBe(`n-${(await received()).applied.length + 1}`);
  });

  it('every call of every instance in this file used the one token', () => {
    expect(tokenEndpoint.count).toBe(1);
  });
});
