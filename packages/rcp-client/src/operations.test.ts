/**
 * Long-running operations (SPEC §20.8): a 202 followed to its result within the call's deadline,
 * a pending operation handed back as a sealed handle, and `resume` — in another client sharing the
 * secret — for the same caller only.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestServer, sendJson, type TestServer } from 'rcp-test-utils';
import {
  CHECK_OPERATION_TOOL,
  checkOperation,
  checkOperationOffer,
  createRcpClient,
  RcpResponseError,
  toModelResult,
  toModelText,
  type RcpClientOptions,
} from 'rcp-client';
import { rejectsWith, serveManifest } from './internal/testing';

let api: TestServer;
let other: TestServer;
beforeEach(async () => {
  api = await startTestServer();
  other = await startTestServer();
});
afterEach(async () => {
  vi.useRealTimers();
  await api.close();
  await other.close();
});

type Json = Record<string, unknown>;
type Ctx = { user: string; tenant: string };

const SECRET = 'the render service operation secret, 32+ bytes';
const TOKENS: Record<string, string> = { ada: 'tok-ada-31337', bob: 'tok-bob-4242' };

function clientFor(options: RcpClientOptions<Ctx> = {}) {
  return createRcpClient<Ctx>({
    retry: 0,
    approvalSecret: SECRET,
    resolvers: { tenant: (ctx) => ctx.tenant },
    credentials: ({ ctx }) => TOKENS[ctx.user],
    ...options,
  });
}

async function discover(operation: Json, options: RcpClientOptions<Ctx> = {}, extra: Json = {}, version = '0.4') {
  const client = clientFor(options);
  const discovery = await client.discover(
    serveManifest(api, {
      rcpVersion: version,
      auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
      tools: [
        {
          name: 'render',
          description: 'Renders a video.',
          method: 'POST',
          url: '/renders',
          params: [
            { name: 'prompt', required: true },
            { name: 'tenant', required: true },
          ],
          headers: { 'X-Tenant': '{{tenant}}' },
          body: { prompt: '{{prompt}}' },
          operation,
          ...extra,
        },
      ],
    }),
  );
  api.reset();
  return { client, discovery, tool: discovery.tool('render') };
}

const ADA: Ctx = { user: 'ada', tenant: 't-1' };

/** The POST answers 202 with a Location; each GET of the job answers the next status in turn. */
function job(statuses: readonly { status?: number; body: unknown; headers?: Record<string, string> }[], location = '/jobs/j-1') {
  let polled = 0;
  api.route('POST /renders', (_request, res) => sendJson(res, 202, { id: 'j-1', status: 'queued' }, { location }));
  api.route('GET /jobs/j-1', (_request, res) => {
    const next = statuses[Math.min(polled++, statuses.length - 1)]!;
    sendJson(res, next.status ?? 200, next.body, next.headers ?? {});
  });
}

const STATE = { statusUrl: 'header:Location', state: '@status', done: ['succeeded'], failed: ['failed', 'cancelled'], result: '@output', pollSeconds: 0 };

describe('a 202 followed within the deadline', () => {
  it('polls the Location with GET, the credential and the resolver-rendered headers, until done: the result path, then the mappings', async () => {
    job([{ body: { status: 'running' } }, { body: { status: 'running' } }, { body: { status: 'succeeded', output: { url: '/v/1.mp4', seconds: 12 } } }]);
    const { client, tool } = await discover(STATE, {}, { responseMappings: { video: '@url' } });
    const result = await client.execute(tool, { prompt: 'a lighthouse' }, ADA);
    expect(result).toEqual({ status: 200, data: { video: '/v/1.mp4' }, contentType: 'application/json' });
    expect(api.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /renders', 'GET /jobs/j-1', 'GET /jobs/j-1', 'GET /jobs/j-1']);
    for (const poll of api.requests.slice(1)) {
      expect(poll.headers.authorization).toBe('Bearer tok-ada-31337');
      expect(poll.headers['x-tenant']).toBe('t-1');
      expect(poll.headers['content-type']).toBeUndefined();
      expect(poll.body).toBe('');
    }
  });

  it('without a state: 202 is pending, another 2xx is done (the whole answer)', async () => {
    job([{ status: 202, body: { progress: 0.5 }, headers: { 'retry-after': '0' } }, { body: { frames: 240 } }]);
    const { client, tool } = await discover({ statusUrl: 'header:Location', pollSeconds: 0 });
    expect(await client.execute(tool, { prompt: 'x' }, ADA)).toEqual({ status: 200, data: { frames: 240 }, contentType: 'application/json' });
    expect(api.requests).toHaveLength(3);
  });

  it('a status answer’s Retry-After is the next wait: one past the deadline is not waited for (pending, check after it)', async () => {
    job([{ body: { status: 'running' }, headers: { 'retry-after': '30' } }]);
    const { client, tool } = await discover(STATE, { timeout: 5_000 });
    const result = await client.execute(tool, { prompt: 'x' }, ADA);
    expect(result.pending?.checkAfterSeconds).toBe(30);
    expect(result.data).toEqual({ status: 'running' });
    expect(api.requests).toHaveLength(2);
  });

  it('reads a status URL from the 202 JSON, relative to the URL that answered', async () => {
    api.route('POST /renders', (_request, res) => sendJson(res, 202, { links: { status: 'jobs/j-1' } }));
    api.route('GET /jobs/j-1', (_request, res) => sendJson(res, 200, { status: 'succeeded', output: 'ok' }));
    const { client, tool } = await discover({ ...STATE, statusUrl: '@links.status' });
    expect((await client.execute(tool, { prompt: 'x' }, ADA)).data).toBe('ok');
  });

  it('a failed state is RCP_OPERATION_FAILED: the state cleaned in the message, a fixed sentence for the model', async () => {
    job([{ body: { status: 'failed', error: 'out of credits' } }]);
    const { client, tool } = await discover(STATE);
    const error = await rejectsWith(client.execute(tool, { prompt: 'x' }, ADA), 'RCP_OPERATION_FAILED');
    expect(error.message).toBe('Tool "render": the operation failed (state "failed")');
    expect(toModelResult(error)).toEqual({ ok: false, error: { code: 'RCP_OPERATION_FAILED', message: "The tool's operation failed." } });
  });

  it('a 2xx other than 202 is the result as today: no poll', async () => {
    api.route('POST /renders', (_request, res) => sendJson(res, 201, { id: 'j-1', status: 'succeeded' }));
    const { client, tool } = await discover(STATE);
    expect((await client.execute(tool, { prompt: 'x' }, ADA)).data).toEqual({ id: 'j-1', status: 'succeeded' });
    expect(api.requests).toHaveLength(1);
  });

  it('a 401 while polling is the error: the accepted request is never sent again (onUnauthorized is not asked)', async () => {
    job([{ status: 401, body: { error: 'expired' } }]);
    const onUnauthorized = vi.fn(() => true);
    const { client, tool } = await discover(STATE, { onUnauthorized });
    const error = await rejectsWith(client.execute(tool, { prompt: 'x' }, ADA), 'RCP_HTTP_ERROR');
    expect(error.status).toBe(401);
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(api.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });
});

describe('the status URL', () => {
  it('on another origin is refused like a cross-origin redirect: RCP_ORIGIN_NOT_ALLOWED, nothing sent there', async () => {
    other.route('GET /jobs/j-1', (_request, res) => sendJson(res, 200, { status: 'succeeded' }));
    job([], other.url('/jobs/j-1'));
    const { client, tool } = await discover(STATE);
    const error = await rejectsWith(client.execute(tool, { prompt: 'x' }, ADA), 'RCP_ORIGIN_NOT_ALLOWED');
    expect(error.message).toContain('status URL on another origin');
    expect(other.requests).toHaveLength(0);
    expect(api.requests).toHaveLength(1);
  });

  it('missing, or not a URL: RcpResponseError no-status-location', async () => {
    api.route('POST /renders', (_request, res) => sendJson(res, 202, {}));
    const { client, tool } = await discover(STATE);
    const error = await rejectsWith(client.execute(tool, { prompt: 'x' }, ADA), 'RCP_INVALID_RESPONSE');
    expect(error).toBeInstanceOf(RcpResponseError);
    expect((error as RcpResponseError).problem).toBe('no-status-location');
  });

  it('is ignored in a 0.3 manifest (with a warning at discovery): the 202 body is the result', async () => {
    job([]);
    const { client, tool } = await discover(STATE, {}, {}, '0.3');
    expect((await client.execute(tool, { prompt: 'x' }, ADA)).data).toEqual({ id: 'j-1', status: 'queued' });
    expect(api.requests).toHaveLength(1);
  });
});

describe('past the deadline', () => {
  /** A job still running when the call's deadline comes: pollSeconds 60 does not fit in it. */
  async function pendingCall() {
    let done = false;
    api.route('POST /renders', (_request, res) => sendJson(res, 202, { id: 'j-1', status: 'queued' }, { location: '/jobs/j-1' }));
    api.route('GET /jobs/j-1', (_request, res) => sendJson(res, 200, done ? { status: 'succeeded', output: { url: '/v/1.mp4' } } : { status: 'running' }));
    const setup = await discover({ ...STATE, pollSeconds: 60 }, { timeout: 5_000 });
    const result = await setup.client.execute(setup.tool, { prompt: 'a lighthouse' }, ADA);
    return { ...setup, result, finish: () => (done = true) };
  }

  it('returns pending: the last status, a sealed handle (no URL, no tenant, no token in it), when to check', async () => {
    const { result } = await pendingCall();
    expect(result).toMatchObject({ status: 202, data: { id: 'j-1', status: 'queued' }, pending: { checkAfterSeconds: 60 } });
    const handle = result.pending!.handle;
    expect(handle).toMatch(/^rcp1\.[A-Za-z0-9_-]+$/);
    for (const secret of ['jobs', 't-1', 'tok-ada', 'render', '127.0.0.1']) expect(handle).not.toContain(secret);
    expect(api.requests).toHaveLength(1);
    expect(toModelResult(result)).toEqual({ ok: true, data: { id: 'j-1', status: 'queued' }, pending: { handle, checkAfterSeconds: 60 } });
    expect(toModelText(toModelResult(result))).toContain(handle);
  });

  it('resume in another client sharing the secret completes it: a fresh credential, the sealed headers', async () => {
    const { discovery, result, finish } = await pendingCall();
    finish();
    api.reset();
    const later = clientFor({ credentials: () => 'tok-ada-31337' });
    const second = await later.discover(discovery.manifestUrl);
    api.reset();
    const done = await later.resume(second, result.pending!.handle, ADA);
    expect(done).toEqual({ status: 200, data: { url: '/v/1.mp4' }, contentType: 'application/json' });
    expect(api.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /jobs/j-1']);
    expect(api.requests[0]!.headers.authorization).toBe('Bearer tok-ada-31337');
    expect(api.requests[0]!.headers['x-tenant']).toBe('t-1');
  });

  it('resume while still running: pending again, with a fresh handle', async () => {
    const { client, discovery, result } = await pendingCall();
    const again = await client.resume(discovery, result.pending!.handle, ADA);
    expect(again.pending!.handle).not.toBe(result.pending!.handle);
    expect(again.data).toEqual({ status: 'running' });
  });

  it('refuses another user, another tenant, an altered handle, another secret and an expired one: RCP_INVALID_HANDLE, nothing sent', async () => {
    const { client, discovery, result } = await pendingCall();
    api.reset();
    const handle = result.pending!.handle;
    const bob = await rejectsWith(client.resume(discovery, handle, { user: 'bob', tenant: 't-1' }), 'RCP_INVALID_HANDLE');
    expect(bob.message).toBe('The operation handle cannot be resumed: it was issued for another caller; nothing was sent');
    await rejectsWith(client.resume(discovery, handle, { user: 'ada', tenant: 't-2' }), 'RCP_INVALID_HANDLE');
    const flipped = handle.slice(0, -2) + (handle.at(-2) === 'A' ? 'B' : 'A') + handle.slice(-1);
    await rejectsWith(client.resume(discovery, `${flipped}`, ADA), 'RCP_INVALID_HANDLE');
    await rejectsWith(client.resume(discovery, 'rcp1.not-a-handle', ADA), 'RCP_INVALID_HANDLE');
    const stranger = clientFor({ approvalSecret: 'another operator secret, also 32+ bytes' });
    await rejectsWith(stranger.resume(await stranger.discover(discovery.manifestUrl), handle, ADA), 'RCP_INVALID_HANDLE');
    const unkeyed = createRcpClient<Ctx>({ resolvers: { tenant: (ctx) => ctx.tenant }, credentials: ({ ctx }) => TOKENS[ctx.user] });
    await rejectsWith(unkeyed.resume(await unkeyed.discover(discovery.manifestUrl), handle, ADA), 'RCP_INVALID_HANDLE');
    api.reset();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 86_400_001);
    const expired = await rejectsWith(client.resume(discovery, handle, ADA), 'RCP_INVALID_HANDLE');
    expect(expired.message).toContain('it has expired');
    expect(toModelResult(expired).ok).toBe(false);
    expect(api.requests).toHaveLength(0);
  });

  it('refuses a source that does not hold the tool', async () => {
    const { client, result } = await pendingCall();
    await rejectsWith(client.resume([], result.pending!.handle, ADA), 'RCP_INVALID_HANDLE');
  });
});

describe('the model-facing check (checkOperation)', () => {
  it('answers the result for the pending handle, and the model-safe error for a bad one, never throwing', async () => {
    let done = false;
    api.route('POST /renders', (_request, res) => sendJson(res, 202, { status: 'queued' }, { location: '/jobs/j-1' }));
    api.route('GET /jobs/j-1', (_request, res) => sendJson(res, 200, done ? { status: 'succeeded', output: 'ok' } : { status: 'running' }));
    const { client, discovery, tool } = await discover({ ...STATE, pollSeconds: 60 }, { timeout: 5_000 });
    const first = toModelResult(await client.execute(tool, { prompt: 'x' }, ADA));
    expect(first.ok && first.pending !== undefined).toBe(true);
    const handle = first.ok ? first.pending!.handle : '';
    done = true;
    expect(await checkOperation(client, discovery, JSON.stringify({ handle }), ADA)).toEqual({ ok: true, data: 'ok' });
    expect(await checkOperation(client, discovery, { handle }, { user: 'bob', tenant: 't-1' })).toMatchObject({
      ok: false,
      error: { code: 'RCP_INVALID_HANDLE' },
    });
    expect(await checkOperation(client, discovery, '{}', ADA)).toMatchObject({ ok: false, error: { code: 'RCP_INVALID_ARGUMENTS' } });
    expect(CHECK_OPERATION_TOOL.inputSchema.required).toEqual(['handle']);
  });
});

describe('checkOperationOffer: the one rule of when a stack offers the check', () => {
  it('offers it beside a long-running tool, not without one, and not when a tool has its name (with the warning)', async () => {
    const { discovery } = await discover(STATE);
    const entries = discovery.tools.map((tool) => ({ name: tool.name, tool }));
    expect(checkOperationOffer(entries)).toEqual({ offer: true, warning: undefined });
    expect(checkOperationOffer([])).toEqual({ offer: false, warning: undefined });
    const taken = checkOperationOffer([...entries, { name: 'check_operation', tool: entries[0]!.tool }]);
    expect(taken.offer).toBe(false);
    expect(taken.warning).toContain('a tool of the set has this name');
  });
});
