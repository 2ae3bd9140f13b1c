/**
 * The approval ledger (issue 39, SPEC §19; docs/behaviour.md): reviews kept by key and verified against their
 * digest, approvals claimed once across every client sharing a ledger, bound to the caller,
 * expiring. Real servers on 127.0.0.1, asserting what they received.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import { describeApprovalLedgerContract } from 'rcp-test-utils/stores';
import {
  approve,
  createMemoryApprovalLedger,
  createRcpClient,
  toModelResult,
  type RcpApprovalLedger,
  type RcpApprovalRequest,
  type RcpClientOptions,
} from 'rcp-client';
import { rejectsWith, serveManifest } from './internal/testing';

describe('createMemoryApprovalLedger', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  describeApprovalLedgerContract('createMemoryApprovalLedger', {
    create: () => createMemoryApprovalLedger(),
    elapse: async (ms) => {
      await vi.advanceTimersByTimeAsync(ms);
    },
    ttl: 60_000,
  });

  it('keeps at most maxEntries reviews (the closest to expiring dropped first); used ids are never dropped early', async () => {
    const ledger = createMemoryApprovalLedger({ maxEntries: 2 });
    const review = { id: 'x' } as unknown as RcpApprovalRequest;
    await ledger.save('a', review, 1_000);
    await ledger.save('b', review, 3_000);
    await ledger.save('c', review, 2_000);
    expect(await ledger.load('a')).toBeUndefined();
    expect(await ledger.load('b')).toEqual(review);
    expect(await ledger.load('c')).toEqual(review);
    for (let index = 0; index < 10; index++) expect(await ledger.claim(`id-${index}`, 60_000)).toBe(true);
    for (let index = 0; index < 10; index++) expect(await ledger.claim(`id-${index}`, 60_000)).toBe(false);
  });

  it('a bad maxEntries or time to live is RCP_INVALID_OPTIONS', async () => {
    await rejectsWith(() => createMemoryApprovalLedger({ maxEntries: 0 }), 'RCP_INVALID_OPTIONS');
    const ledger = createMemoryApprovalLedger();
    await rejectsWith(ledger.claim('id', 0), 'RCP_INVALID_OPTIONS');
    await rejectsWith(ledger.save('key', {} as RcpApprovalRequest, Number.NaN), 'RCP_INVALID_OPTIONS');
  });
});

const SECRET = 'the notes app approval secret, 32+ bytes';
type Ctx = { userId: string; token?: string };

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
  server.route('* /users/u-1/notes/n-1', (_request, res) => sendJson(res, 200, { deleted: 'n-1' }));
  server.route('* /users/u-1/notes/n-2', (_request, res) => sendJson(res, 200, { deleted: 'n-2' }));
});
afterEach(async () => {
  await server.close();
});

const manifest = {
  rcpVersion: '0.1',
  auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
  tools: [
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

async function setup(options: RcpClientOptions<Ctx> = {}) {
  const client = createRcpClient<Ctx>({
    resolvers: { userId: (ctx) => ctx.userId },
    credentials: ({ ctx }) => ctx.token ?? 'tok_user_1',
    approval: 'writes',
    approvalSecret: SECRET,
    retry: 0,
    ...options,
  });
  const discovery = await client.discover(serveManifest(server, manifest));
  server.reset();
  return { client, discovery, tool: discovery.tool('delete_note') };
}
const sent = () => server.requests.map((request) => `${request.method} ${request.path}`);
const deleteN1 = { name: 'delete_note', arguments: { noteId: 'n-1' } };
const u1: Ctx = { userId: 'u-1' };

describe('single use across the clients that share a ledger', () => {
  it('an approval used by one client is refused by another sharing the ledger (another process), nothing sent', async () => {
    const approvalLedger = createMemoryApprovalLedger();
    const a = await setup({ approvalLedger });
    const b = await setup({ approvalLedger });
    const approval = approve(await a.client.review(a.tool, { noteId: 'n-1' }, u1));
    expect((await b.client.call(b.discovery, deleteN1, u1, { approval })).ok).toBe(true);
    const replay = await a.client.call(a.discovery, deleteN1, u1, { approval });
    expect(replay).toMatchObject({ ok: false, error: { code: 'RCP_APPROVAL_MISMATCH', message: expect.stringContaining('already used') } });
    expect(sent()).toEqual(['DELETE /users/u-1/notes/n-1']);
  });

  it('one approval raced by two clients at once: exactly one request is sent', async () => {
    const approvalLedger = createMemoryApprovalLedger();
    const a = await setup({ approvalLedger });
    const b = await setup({ approvalLedger });
    const approval = approve(await a.client.review(a.tool, { noteId: 'n-1' }, u1));
    const outcomes = await Promise.all([a.client.call(a.discovery, deleteN1, u1, { approval }), b.client.call(b.discovery, deleteN1, u1, { approval })]);
    expect(outcomes.map((outcome) => outcome.ok).sort()).toEqual([false, true]);
    expect(sent()).toEqual(['DELETE /users/u-1/notes/n-1']);
  });

  it('a mismatched call does not use the approval up: the approved request still goes after it', async () => {
    const { client, discovery, tool } = await setup();
    const approval = approve(await client.review(tool, { noteId: 'n-1' }, u1));
    expect(await client.call(discovery, { name: 'delete_note', arguments: { noteId: 'n-2' } }, u1, { approval })).toMatchObject({ ok: false });
    expect((await client.call(discovery, deleteN1, u1, { approval })).ok).toBe(true);
    expect(sent()).toEqual(['DELETE /users/u-1/notes/n-1']);
  });
});

describe('reviews kept under a key, verified before they are shown or approved', () => {
  it('review(…, { key }) keeps it; storedReview shows it; a call with approvalKey sends exactly it, once', async () => {
    const { client, discovery, tool } = await setup();
    const review = await client.review(tool, { noteId: 'n-1' }, u1, { key: 'call_1' });
    expect(await client.storedReview('call_1')).toEqual(review);
    expect(await client.storedReview('call_2')).toBeUndefined();
    expect((await client.call(discovery, deleteN1, u1, { approvalKey: 'call_1' })).ok).toBe(true);
    expect(await client.call(discovery, deleteN1, u1, { approvalKey: 'call_1' })).toMatchObject({ ok: false, error: { code: 'RCP_APPROVAL_MISMATCH' } });
    expect(sent()).toEqual(['DELETE /users/u-1/notes/n-1']);
  });

  it('a resume with no review kept under its key is refused, never reviewed again: nothing sent', async () => {
    const { client, discovery } = await setup();
    const outcome = await client.call(discovery, deleteN1, u1, { approvalKey: 'call_unknown' });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'RCP_APPROVAL_MISMATCH', message: expect.stringContaining('no review is stored') } });
    expect(toModelResult(outcome)).toEqual({
      ok: false,
      error: { code: 'RCP_APPROVAL_MISMATCH', message: 'The approval does not cover this call; it was not made.' },
    });
    expect(sent()).toEqual([]);
  });

  it('a review edited where it was kept (another request shown) is refused when shown and when approved: nothing sent', async () => {
    const ledger = createMemoryApprovalLedger();
    // A ledger someone else can write: the review of n-2 is edited to show n-1.
    const approvalLedger: RcpApprovalLedger = {
      save: (key, review, ttl) => ledger.save(key, { ...review, request: { ...review.request, url: review.request.url.replace('n-2', 'n-1') } }, ttl),
      load: (key) => ledger.load(key),
      claim: (id, ttl) => ledger.claim(id, ttl),
    };
    const { client, discovery, tool } = await setup({ approvalLedger });
    await client.review(tool, { noteId: 'n-2' }, u1, { key: 'call_1' });
    const error = await rejectsWith(client.storedReview('call_1'), 'RCP_APPROVAL_MISMATCH');
    expect(error.message).toContain('changed after it was made');
    const outcome = await client.call(discovery, { name: 'delete_note', arguments: { noteId: 'n-2' } }, u1, { approvalKey: 'call_1' });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'RCP_APPROVAL_MISMATCH' } });
    expect(sent()).toEqual([]);
  });

  it('an approval edited to last longer (its expiry or id changed) is refused: nothing sent', async () => {
    const { client, discovery, tool } = await setup();
    const review = await client.review(tool, { noteId: 'n-1' }, u1);
    const [uuid] = review.id.split('.');
    const later = { ...review, id: `${uuid}.${review.expiresAt + 86_400_000}` };
    expect(await client.call(discovery, deleteN1, u1, { approval: approve(later) })).toMatchObject({ ok: false, error: { code: 'RCP_APPROVAL_MISMATCH' } });
    expect(await client.call(discovery, deleteN1, u1, { approval: approve({ ...review, id: uuid! }) })).toMatchObject({ ok: false });
    expect(sent()).toEqual([]);
  });

  it('a key that is not a string of 1 to 512 characters is RCP_INVALID_OPTIONS', async () => {
    const { client, tool } = await setup();
    await rejectsWith(client.storedReview(''), 'RCP_INVALID_OPTIONS');
    await rejectsWith(client.review(tool, { noteId: 'n-1' }, u1, { key: 'x'.repeat(513) }), 'RCP_INVALID_OPTIONS');
    await rejectsWith(client.execute(tool, { noteId: 'n-1' }, u1, { approvalKey: 7 as unknown as string }), 'RCP_INVALID_OPTIONS');
    expect(sent()).toEqual([]);
  });

  it('an approvalLedger without save, load and claim is RCP_INVALID_OPTIONS', () => {
    expect(() => createRcpClient({ approvalLedger: { save: () => undefined } as unknown as RcpApprovalLedger })).toThrow(/approvalLedger/);
  });
});

describe('the approval binds the caller', () => {
  it("another user's credential with the same request is RCP_APPROVAL_MISMATCH, nothing sent; the review holds no credential", async () => {
    const { client, discovery, tool } = await setup();
    const review = await client.review(tool, { noteId: 'n-1' }, { userId: 'u-1', token: 'tok_alice' });
    expect(JSON.stringify(review)).not.toContain('tok_alice');
    expect(review.caller).toMatch(/^[0-9a-f]{64}$/);
    const outcome = await client.call(discovery, deleteN1, { userId: 'u-1', token: 'tok_bob' }, { approval: approve(review) });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'RCP_APPROVAL_MISMATCH', message: expect.stringContaining('caller') } });
    expect(sent()).toEqual([]);
    expect((await client.call(discovery, deleteN1, { userId: 'u-1', token: 'tok_alice' }, { approval: approve(review) })).ok).toBe(true);
    expect(server.requests.map((request) => request.headers.authorization)).toEqual(['Bearer tok_alice']);
  });

  it('approvalSubject(ctx): the subject is the caller (a refreshed token still matches, another subject does not)', async () => {
    const { client, discovery, tool } = await setup({ approvalSubject: (ctx) => `user:${ctx.token?.split('-')[0]}` });
    const review = await client.review(tool, { noteId: 'n-1' }, { userId: 'u-1', token: 'alice-v1' });
    const other = await client.call(discovery, deleteN1, { userId: 'u-1', token: 'bob-v1' }, { approval: approve(review) });
    expect(other).toMatchObject({ ok: false, error: { code: 'RCP_APPROVAL_MISMATCH' } });
    expect((await client.call(discovery, deleteN1, { userId: 'u-1', token: 'alice-v2' }, { approval: approve(review) })).ok).toBe(true);
    expect(sent()).toEqual(['DELETE /users/u-1/notes/n-1']);
  });

  it('an approvalSubject that throws or gives no string denies the call (fails closed), nothing sent', async () => {
    const { client, discovery } = await setup({ approvalSubject: () => '' });
    expect(await client.call(discovery, deleteN1, u1)).toMatchObject({ ok: false, error: { code: 'RCP_APPROVAL_DENIED' } });
    const throwing = await setup({
      approvalSubject: () => {
        throw new Error('no session');
      },
    });
    expect(await throwing.client.call(throwing.discovery, deleteN1, u1)).toMatchObject({ ok: false, error: { code: 'RCP_APPROVAL_DENIED' } });
    expect(sent()).toEqual([]);
  });
});

describe('approvals expire', () => {
  beforeEach(() => {
    // The clock only: the network stays real.
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('by default after one hour: a later call is RCP_APPROVAL_MISMATCH, nothing sent, and the kept review is gone', async () => {
    const { client, discovery, tool } = await setup();
    const review = await client.review(tool, { noteId: 'n-1' }, u1, { key: 'call_1' });
    expect(review.expiresAt).toBe(Date.now() + 3_600_000);
    expect(review.id.endsWith(`.${review.expiresAt}`)).toBe(true);
    vi.setSystemTime(Date.now() + 3_600_000);
    expect(await client.storedReview('call_1')).toBeUndefined();
    const outcome = await client.call(discovery, deleteN1, u1, { approval: approve(review) });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'RCP_APPROVAL_MISMATCH', message: expect.stringContaining('expired') } });
    expect(await client.call(discovery, deleteN1, u1, { approvalKey: 'call_1' })).toMatchObject({ ok: false });
    expect(sent()).toEqual([]);
  });

  it('approvalExpiresIn sets it; one just before the expiry still goes', async () => {
    const { client, discovery, tool } = await setup({ approvalExpiresIn: 60_000 });
    const review = await client.review(tool, { noteId: 'n-1' }, u1);
    vi.setSystemTime(Date.now() + 59_000);
    expect((await client.call(discovery, deleteN1, u1, { approval: approve(review) })).ok).toBe(true);
    expect(sent()).toEqual(['DELETE /users/u-1/notes/n-1']);
  });

  it('an approvalExpiresIn outside 1 s to 1 week is RCP_INVALID_OPTIONS', () => {
    for (const approvalExpiresIn of [999, 604_800_001, 1.5e3 + 0.5, Number.NaN]) {
      expect(() => createRcpClient({ approvalExpiresIn })).toThrow(/approvalExpiresIn/);
    }
  });
});

describe('a ledger that fails or stalls fails closed', () => {
  it('a failing ledger denies the call (RCP_APPROVAL_DENIED, the cause kept), nothing sent', async () => {
    const broken: RcpApprovalLedger = {
      save: () => Promise.reject(new Error('ECONNREFUSED')),
      load: () => Promise.reject(new Error('ECONNREFUSED')),
      claim: () => Promise.reject(new Error('ECONNREFUSED')),
    };
    const { client, discovery, tool } = await setup({ approvalLedger: broken });
    const review = await client.review(tool, { noteId: 'n-1' }, u1);
    expect(await client.call(discovery, deleteN1, u1, { approval: approve(review) })).toMatchObject({ ok: false, error: { code: 'RCP_APPROVAL_DENIED' } });
    expect(await client.call(discovery, deleteN1, u1, { approvalKey: 'call_1' })).toMatchObject({ ok: false, error: { code: 'RCP_APPROVAL_DENIED' } });
    expect(sent()).toEqual([]);
  });

  it("a ledger that never answers is RCP_TIMEOUT at the call's deadline, nothing sent", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const stalled: RcpApprovalLedger = { save: () => new Promise(() => {}), load: () => new Promise(() => {}), claim: () => new Promise(() => {}) };
      const { client, discovery } = await setup({ approvalLedger: stalled, timeout: 5_000 });
      const outcome = client.call(discovery, deleteN1, u1, { approvalKey: 'call_1' });
      await vi.advanceTimersByTimeAsync(5_000);
      expect(await outcome).toMatchObject({ ok: false, error: { code: 'RCP_TIMEOUT', message: expect.stringContaining('approval ledger') } });
      expect(sent()).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});
