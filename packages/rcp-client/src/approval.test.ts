/**
 * Approval as data (issue 21): the operator's policy decides per call; a call that needs a person
 * is stopped with the exact request it will send; an approval lets exactly that request go, once;
 * a denial is a result the model reads. Real servers on 127.0.0.1, asserting what they received.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import { approve, createRcpClient, isRcpError, toModelResult, type RcpApprovalRequest, type RcpClientOptions } from 'rcp-client';
import { rejectsWith, serveManifest } from './internal/testing';

const TOKEN = 'tok_approval_SECRET';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
  server.route('GET /users/u-1/notes', (_request, res) => sendJson(res, 200, { notes: [{ id: 'n-1' }, { id: 'n-2' }] }));
  server.route('* /users/u-1/notes/n-1', (_request, res) => sendJson(res, 200, { deleted: 'n-1' }));
  server.route('* /users/u-2/notes/n-1', (_request, res) => sendJson(res, 200, { deleted: 'n-1 of u-2' }));
  server.route('* /users/u-1/notes/n-2', (_request, res) => sendJson(res, 200, { deleted: 'n-2' }));
});
afterEach(async () => {
  await server.close();
});

const manifest = {
  rcpVersion: '0.1',
  auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
  tools: [
    { name: 'list_notes', description: 'Lists.', method: 'GET', url: '/users/{{userId}}/notes', params: [{ name: 'userId', required: true }] },
    {
      name: 'delete_note',
      description: 'Deletes.',
      method: 'DELETE',
      url: '/users/{{userId}}/notes/{{noteId}}',
      params: [
        { name: 'userId', required: true },
        { name: 'noteId', required: true },
      ],
    },
  ],
};

async function setup(options: RcpClientOptions<{ userId: string }> = {}) {
  const client = createRcpClient<{ userId: string }>({ resolvers: { userId: (ctx) => ctx.userId }, credentials: () => TOKEN, retry: 0, ...options });
  const discovery = await client.discover(serveManifest(server, manifest));
  server.reset();
  return { client, discovery };
}
const calls = () => server.requests.map((request) => `${request.method} ${request.path}`);
const deleteN1 = { name: 'delete_note', arguments: { noteId: 'n-1' } };
const u1 = { userId: 'u-1' };

describe('the policy decides per call', () => {
  it('by default nothing needs approval', async () => {
    const { client, discovery } = await setup();
    expect((await client.call(discovery, deleteN1, u1)).ok).toBe(true);
    expect(calls()).toEqual(['DELETE /users/u-1/notes/n-1']);
  });

  it('"destructive": a read goes, a DELETE pauses with its reason and nothing is sent (the rule the gateway bin\'s --approval destructive uses)', async () => {
    const { client, discovery } = await setup({ approval: 'destructive' });
    expect((await client.call(discovery, { name: 'list_notes', arguments: {} }, u1)).ok).toBe(true);
    const paused = await client.call(discovery, deleteN1, u1);
    const error = !paused.ok ? paused.error : undefined;
    expect(isRcpError(error, 'RCP_APPROVAL_REQUIRED')).toBe(true);
    expect((error as unknown as { approval: RcpApprovalRequest }).approval).toMatchObject({
      tool: 'delete_note',
      decision: 'user-approval',
      reason: 'the call may delete or overwrite data (approval: "destructive")',
    });
    expect(calls()).toEqual(['GET /users/u-1/notes']);
  });

  it('"writes": a read goes, a write pauses with the exact request (resolver value in, credential redacted) and nothing sent', async () => {
    const { client, discovery } = await setup({ approval: 'writes' });
    expect((await client.call(discovery, { name: 'list_notes', arguments: {} }, u1)).ok).toBe(true);
    const paused = await client.call(discovery, deleteN1, u1);
    expect(paused.ok).toBe(false);
    const error = !paused.ok ? paused.error : undefined;
    expect(isRcpError(error, 'RCP_APPROVAL_REQUIRED')).toBe(true);
    const review = (error as unknown as { approval: RcpApprovalRequest }).approval;
    expect(review).toMatchObject({
      tool: 'delete_note',
      decision: 'user-approval',
      request: { method: 'DELETE', url: `${server.origin}/users/u-1/notes/n-1`, headers: { Authorization: 'Bearer [redacted]' } },
    });
    expect(review.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(review)).not.toContain(TOKEN);
    expect(toModelResult(paused)).toEqual({
      ok: false,
      error: { code: 'RCP_APPROVAL_REQUIRED', message: "The call is waiting for a person's approval; it was not made." },
    });
    expect(calls()).toEqual(['GET /users/u-1/notes']);
  });

  it('a map per tool and a function of effects, arguments and context; a throwing policy fails closed', async () => {
    const byName = await setup({ approval: { delete_note: { decision: 'denied', reason: 'deletes are off today' } } });
    const denied = await byName.client.call(byName.discovery, deleteN1, u1);
    expect(toModelResult(denied)).toEqual({ ok: false, error: { code: 'RCP_APPROVAL_DENIED', message: 'The call was denied: deletes are off today' } });
    const seen: unknown[] = [];
    const byFunction = await setup({
      approval: ({ tool, effects, args, ctx }) => {
        seen.push({ tool: tool.name, destructive: effects.destructive, args: { ...args }, ctx });
        return args.noteId === 'n-2' ? 'approved' : 'user-approval';
      },
    });
    expect((await byFunction.client.call(byFunction.discovery, { name: 'delete_note', arguments: { noteId: 'n-2' } }, u1)).ok).toBe(true);
    expect(seen).toEqual([{ tool: 'delete_note', destructive: true, args: { noteId: 'n-2' }, ctx: u1 }]); // the model's arguments only
    expect(calls()).toEqual(['DELETE /users/u-1/notes/n-2']);
    const throwing = await setup({
      approval: () => {
        throw new Error('policy store down');
      },
    });
    expect(toModelResult(await throwing.client.call(throwing.discovery, deleteN1, u1))).toMatchObject({ error: { code: 'RCP_APPROVAL_DENIED' } });
    expect(calls()).toEqual([]);
    expect(() => createRcpClient({ approval: { x: 'maybe' as never } })).toThrow(/Option "approval"/);
    expect(() => createRcpClient({ approval: 7 as never })).toThrow(/Option "approval"/);
  });
});

describe('an approval binds the exact request, once', () => {
  async function reviewed(options: RcpClientOptions<{ userId: string }> = {}) {
    const setupDone = await setup({ approval: 'writes', ...options });
    const review = await setupDone.client.review(setupDone.discovery.tool('delete_note'), { noteId: 'n-1' }, u1);
    expect(server.count).toBe(0); // reviewing sends nothing
    return { ...setupDone, review };
  }

  it('approve → exactly the previewed request reaches the server', async () => {
    const { client, discovery, review } = await reviewed();
    const outcome = await client.call(discovery, deleteN1, u1, { approval: approve(review) });
    expect(outcome.ok && outcome.result.data).toEqual({ deleted: 'n-1' });
    expect(calls()).toEqual([`${review.request.method} ${new URL(review.request.url).pathname}`]);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('changed arguments, a changed resolver value, another tool, or a second use: refused, nothing sent', async () => {
    const { client, discovery, review } = await reviewed();
    const approval = approve(review);
    const mismatch = async (call: { name: string; arguments: object }, ctx: { userId: string }) => {
      const outcome = await client.call(discovery, call, ctx, { approval });
      expect(toModelResult(outcome)).toMatchObject({ error: { code: 'RCP_APPROVAL_MISMATCH' } });
    };
    await mismatch({ name: 'delete_note', arguments: { noteId: 'n-2' } }, u1);
    await mismatch(deleteN1, { userId: 'u-2' });
    await mismatch({ name: 'list_notes', arguments: {} }, u1);
    expect(server.count).toBe(0);
    expect((await client.call(discovery, deleteN1, u1, { approval })).ok).toBe(true);
    await mismatch(deleteN1, u1); // replayed
    expect(calls()).toEqual(['DELETE /users/u-1/notes/n-1']);
    await rejectsWith(
      client.execute(discovery.tool('delete_note'), { noteId: 'n-1' }, u1, { approval: { tool: 'delete_note', digest: 'x', id: 'y' } }),
      'RCP_APPROVAL_MISMATCH',
    );
  });

  it('durable: the review is plain JSON, approved in another client (another process) holding the same secret', async () => {
    const approvalSecret = 'an operator secret of at least 32 bytes';
    const { review } = await reviewed({ approvalSecret });
    const stored = JSON.parse(JSON.stringify(review)) as RcpApprovalRequest;
    const other = await setup({ approval: 'writes', approvalSecret });
    const outcome = await other.client.call(other.discovery, deleteN1, u1, { approval: approve(stored) });
    expect(outcome.ok).toBe(true);
    expect(calls()).toEqual(['DELETE /users/u-1/notes/n-1']);
    expect(() => approve({} as never)).toThrow(/approve\(\)/);
  });

  it('a client without that secret (by default, a random key of its own) refuses it, nothing sent', async () => {
    const { review } = await reviewed({ approvalSecret: 'an operator secret of at least 32 bytes' });
    const other = await setup({ approval: 'writes' });
    const outcome = await other.client.call(other.discovery, deleteN1, u1, { approval: approve(review) });
    expect(outcome.ok ? 'sent' : outcome.error.code).toBe('RCP_APPROVAL_MISMATCH');
    expect(server.count).toBe(0);
  });

  it('an approvalSecret shorter than 32 bytes, or not a string or bytes, is RCP_INVALID_OPTIONS (not shown)', () => {
    for (const approvalSecret of ['short-secret-123', 42, new Uint8Array(31)]) {
      let error: unknown;
      try {
        createRcpClient({ approval: 'writes', approvalSecret: approvalSecret as string });
      } catch (caught) {
        error = caught;
      }
      expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
      expect(String((error as Error).message)).not.toContain('short-secret-123');
    }
    expect(() => createRcpClient({ approvalSecret: new Uint8Array(32) })).not.toThrow();
  });
});

describe('what a red-team review found (each fails on the first version)', () => {
  it('an approval made up without a person (the unkeyed SHA-256 of the request a review shows) is refused, nothing sent', async () => {
    const { client, discovery } = await setup({ approval: 'writes' });
    const paused = await client.call(discovery, deleteN1, u1);
    if (paused.ok || !isRcpError(paused.error, 'RCP_APPROVAL_REQUIRED')) throw new Error('expected a pause');
    const { request } = (paused.error as unknown as { approval: RcpApprovalRequest }).approval;
    // What code that can write approvals (a store, a tool) could compute from what it can read.
    const tool = discovery.tool('delete_note');
    const id = globalThis.crypto.randomUUID();
    const headers = Object.entries(request.headers)
      .map(([name, value]) => [name.toLowerCase(), value])
      .sort(([a], [b]) => (a! < b! ? -1 : 1));
    const canonical = JSON.stringify([tool.manifestUrl, tool.name, tool.origin, request.method, request.url, headers, request.body ?? null, id]);
    const bytes = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical)));
    const digest = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
    const forged = await client.call(discovery, deleteN1, u1, { approval: { tool: 'delete_note', digest, id } });
    expect(forged.ok ? 'sent' : forged.error.code).toBe('RCP_APPROVAL_MISMATCH');
    expect(server.count).toBe(0);
  });

  it('one approval raced by two calls at once: one is sent, the other refused', async () => {
    const { client, discovery } = await setup({ approval: 'writes' });
    const review = await client.review(discovery.tool('delete_note'), { noteId: 'n-1' }, u1);
    const approval = approve(review);
    const [a, b] = await Promise.all([client.call(discovery, deleteN1, u1, { approval }), client.call(discovery, deleteN1, u1, { approval })]);
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    expect(calls()).toEqual(['DELETE /users/u-1/notes/n-1']);
  });

  it('the retry after a 401 is checked against the approval too: a request nobody approved is not sent', async () => {
    let user = 'u-1';
    const { client, discovery } = await setup({
      approval: 'writes',
      resolvers: { userId: () => user },
      onUnauthorized: () => {
        user = 'u-2'; // the resolver answers differently on the retry
        return true;
      },
    });
    server.route('* /users/u-1/notes/n-1', (_request, res) => sendJson(res, 401, { error: 'expired' }));
    const review = await client.review(discovery.tool('delete_note'), { noteId: 'n-1' }, u1);
    const outcome = await client.call(discovery, deleteN1, u1, { approval: approve(review) });
    expect(toModelResult(outcome)).toMatchObject({ error: { code: 'RCP_APPROVAL_MISMATCH' } });
    expect(calls()).toEqual(['DELETE /users/u-1/notes/n-1']);
  });
});

describe('client.decide: the decision alone, for adapters to ask first', () => {
  it('runs no resolver and asks no credential; without a policy it is not-applicable; bad input is refused', async () => {
    let resolverCalls = 0;
    let credentialCalls = 0;
    const counting = {
      resolvers: { userId: (ctx: { userId: string }) => (resolverCalls++, ctx.userId) },
      credentials: () => (credentialCalls++, TOKEN),
    };
    const writes = await setup({ approval: 'writes', ...counting });
    expect(await writes.client.decide(writes.discovery.tool('delete_note'), { noteId: 'n-1' }, u1)).toEqual({
      decision: 'user-approval',
      reason: 'the call changes data (approval: "writes")',
    });
    expect(await writes.client.decide(writes.discovery.tool('list_notes'), {}, u1)).toEqual({ decision: 'not-applicable' });
    const none = await setup(counting);
    expect(await none.client.decide(none.discovery.tool('delete_note'), { noteId: 'n-1' }, u1)).toEqual({ decision: 'not-applicable' });
    await expect(none.client.decide(none.discovery.tool('delete_note'), { noteId: 7 }, u1)).rejects.toMatchObject({ code: 'RCP_INVALID_ARGUMENTS' });
    expect({ resolverCalls, credentialCalls, sent: server.count }).toEqual({ resolverCalls: 0, credentialCalls: 0, sent: 0 });
  });
});

describe('the policy answers within the call: its deadline and its signal (issue 38)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A policy that never settles, keeping the signal it was handed. */
  function hangingPolicy() {
    const signals: AbortSignal[] = [];
    return { signals, approval: ({ signal }: { signal: AbortSignal }) => (signals.push(signal), new Promise<never>(() => {})) };
  }

  it('a policy that never settles is RCP_TIMEOUT at the call deadline, nothing sent; its signal aborts', async () => {
    const policy = hangingPolicy();
    const { client, discovery } = await setup({ approval: policy.approval, timeout: 1_000 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const outcome = client.call(discovery, deleteN1, u1);
    await vi.advanceTimersByTimeAsync(1_000);
    const done = await outcome;
    expect(done.ok).toBe(false);
    const error = !done.ok ? done.error : undefined;
    expect(isRcpError(error, 'RCP_TIMEOUT')).toBe(true);
    expect(error?.message).toBe('Tool "delete_note": the approval policy did not answer within 1000 ms; nothing was sent');
    expect(toModelResult(done)).toEqual({ ok: false, error: { code: 'RCP_TIMEOUT', message: 'The tool did not answer in time.' } });
    expect(policy.signals).toHaveLength(1);
    expect(policy.signals[0]!.aborted).toBe(true);
    expect(server.count).toBe(0);
  });

  it("the caller's signal ends the wait: RCP_ABORTED, nothing sent, the policy's signal aborted", async () => {
    const policy = hangingPolicy();
    const { client, discovery } = await setup({ approval: policy.approval });
    const controller = new AbortController();
    const pending = rejectsWith(client.execute(discovery.tool('delete_note'), { noteId: 'n-1' }, u1, { signal: controller.signal }), 'RCP_ABORTED');
    await vi.waitFor(() => expect(policy.signals).toHaveLength(1));
    controller.abort();
    await pending;
    expect(policy.signals[0]!.aborted).toBe(true);
    expect(server.count).toBe(0);
  });

  it("client.decide and client.review are bounded by the client's timeout; decide takes a signal too", async () => {
    const policy = hangingPolicy();
    const { client, discovery } = await setup({ approval: policy.approval, timeout: 2_000 });
    const tool = discovery.tool('delete_note');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const decided = rejectsWith(client.decide(tool, { noteId: 'n-1' }, u1), 'RCP_TIMEOUT');
    const reviewed = rejectsWith(client.review(tool, { noteId: 'n-1' }, u1), 'RCP_TIMEOUT');
    await vi.advanceTimersByTimeAsync(1_999);
    expect(policy.signals.map((signal) => signal.aborted)).toEqual([false, false]);
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all([decided, reviewed]);
    expect(policy.signals.map((signal) => signal.aborted)).toEqual([true, true]);
    const controller = new AbortController();
    const aborted = rejectsWith(client.decide(tool, { noteId: 'n-1' }, u1, { signal: controller.signal }), 'RCP_ABORTED');
    controller.abort();
    await aborted;
    await rejectsWith(client.decide(tool, { noteId: 'n-1' }, u1, { signal: controller.signal }), 'RCP_ABORTED');
    expect(server.count).toBe(0);
  });

  it('a policy that answers in time still decides, and one that rejects still fails closed (denied, not a timeout)', async () => {
    const late = await setup({ approval: async ({ signal }) => (signal.aborted ? 'denied' : 'approved') });
    expect((await late.client.call(late.discovery, deleteN1, u1)).ok).toBe(true);
    const failing = await setup({ approval: async () => Promise.reject(new Error('policy service down')) });
    expect(toModelResult(await failing.client.call(failing.discovery, deleteN1, u1))).toMatchObject({ error: { code: 'RCP_APPROVAL_DENIED' } });
    expect(calls()).toEqual([]);
  });
});

describe('an approved request is not redirected elsewhere (issue 38)', () => {
  it('an approved DELETE answered 307 to another path: the other path receives nothing, the credential stays', async () => {
    const { client, discovery } = await setup({ approval: 'writes' });
    server.route('* /users/u-1/notes/n-1', (_request, res) => {
      res.writeHead(307, { location: '/admin/purge-all' });
      res.end();
    });
    server.route('* /admin/purge-all', (_request, res) => sendJson(res, 200, { purged: 'everything' }));
    const review = await client.review(discovery.tool('delete_note'), { noteId: 'n-1' }, u1);
    const outcome = await client.call(discovery, deleteN1, u1, { approval: approve(review) });
    expect(outcome.ok).toBe(false);
    const error = !outcome.ok ? outcome.error : undefined;
    expect(isRcpError(error, 'RCP_ORIGIN_NOT_ALLOWED')).toBe(true);
    expect(error?.message).toContain('answered the approved request with a redirect (307) to another path or query');
    expect(calls()).toEqual(['DELETE /users/u-1/notes/n-1']);
  });

  it('a 303 turning it into a GET is refused too; a redirect to the very same request is followed', async () => {
    const { client, discovery } = await setup({ approval: 'writes' });
    let answered = 0;
    server.route('* /users/u-1/notes/n-1', (_request, res) => {
      answered += 1;
      if (answered === 1) {
        res.writeHead(307, { location: '/users/u-1/notes/n-1' });
        res.end();
      } else sendJson(res, 200, { deleted: 'n-1' });
    });
    const approved = approve(await client.review(discovery.tool('delete_note'), { noteId: 'n-1' }, u1));
    expect(toModelResult(await client.call(discovery, deleteN1, u1, { approval: approved }))).toEqual({ ok: true, data: { deleted: 'n-1' } });
    server.route('* /users/u-1/notes/n-2', (_request, res) => {
      res.writeHead(303, { location: '/users/u-1/notes/n-2' });
      res.end();
    });
    const other = approve(await client.review(discovery.tool('delete_note'), { noteId: 'n-2' }, u1));
    const refused = await client.call(discovery, { name: 'delete_note', arguments: { noteId: 'n-2' } }, u1, { approval: other });
    expect(toModelResult(refused)).toMatchObject({ ok: false, error: { code: 'RCP_ORIGIN_NOT_ALLOWED' } });
    expect(calls()).toEqual(['DELETE /users/u-1/notes/n-1', 'DELETE /users/u-1/notes/n-1', 'DELETE /users/u-1/notes/n-2']);
  });

  it('a call no person approved follows same-origin redirects as before (SPEC §11 step 5)', async () => {
    const { client, discovery } = await setup();
    server.route('* /users/u-1/notes/n-1', (_request, res) => {
      res.writeHead(307, { location: '/users/u-1/notes/n-2' });
      res.end();
    });
    expect((await client.call(discovery, deleteN1, u1)).ok).toBe(true);
    expect(calls()).toEqual(['DELETE /users/u-1/notes/n-1', 'DELETE /users/u-1/notes/n-2']);
  });
});
