/**
 * Idempotent writes on the client's side (issue 39, SPEC §20.1, §19): the key a write carries,
 * in which header, derived from its approval or random, the same on every retry; a write whose
 * tool declares `idempotency` retried on a connection failure or a retried status inside the
 * call's one deadline (fake timers), any other write never. Real servers on 127.0.0.1.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import { approve, createRcpClient, type RcpClientOptions } from 'rcp-client';
import { serveManifest } from './internal/testing';

const SECRET = 'the payments app approval secret, 32+ bytes';
/** An sf-string (RFC 8941) of 16 to 255 characters, as SPEC §20.1 asks. */
const SF_KEY = /^"[\x20-\x21\x23-\x5b\x5d-\x7e]{16,255}"$/;

let api: TestServer;
beforeEach(async () => {
  api = await startTestServer();
});
afterEach(async () => {
  vi.useRealTimers();
  await api.close();
});

const manifest = (idempotency?: { header: string }) => ({
  rcpVersion: idempotency === undefined ? '0.1' : '0.4',
  tools: [
    { name: 'pay', description: 'Pays.', method: 'POST', url: '/payments', ...(idempotency !== undefined && { idempotency }) },
    { name: 'get_payment', description: 'Reads.', method: 'GET', url: '/payments/p-1' },
  ],
});

async function setup(idempotency: { header: string } | undefined, options: RcpClientOptions = {}) {
  const client = createRcpClient({ approvalSecret: SECRET, ...options });
  const discovery = await client.discover(serveManifest(api, manifest(idempotency)));
  api.reset();
  return { client, discovery };
}
const keysSent = (header = 'idempotency-key') => api.requests.map((request) => request.headers[header]);
const pay = { name: 'pay', arguments: {} };

/** Answers the listed statuses in turn (`'drop'`: the connection is cut before an answer), then 201. */
function answers(...script: (number | 'drop')[]) {
  let index = 0;
  return (_request: unknown, res: ServerResponse) => {
    const next = script[index++];
    if (next === 'drop') res.socket?.destroy();
    else if (next !== undefined) sendJson(res, next, { error: 'try again' });
    else sendJson(res, 201, { id: 'p-1' });
  };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('which calls carry a key, in which header', () => {
  it('an approved write: Idempotency-Key, derived from the approval — the same approval gives the same key in any client with the secret', async () => {
    api.route('POST /payments', answers());
    const a = await setup(undefined, { approval: 'writes' });
    const b = await setup(undefined, { approval: 'writes' });
    const review = await a.client.review(a.discovery.tool('pay'), {});
    expect((await a.client.call(a.discovery, pay, undefined, { approval: approve(review) })).ok).toBe(true);
    // Another process (its own ledger) sending the same approved request: the same key, so the API runs it once.
    expect((await b.client.call(b.discovery, pay, undefined, { approval: approve(review) })).ok).toBe(true);
    const [first, second] = keysSent();
    expect(first).toMatch(SF_KEY);
    expect(second).toBe(first);
    // Another review, another key.
    const other = await a.client.review(a.discovery.tool('pay'), {});
    await a.client.call(a.discovery, pay, undefined, { approval: approve(other) });
    expect(keysSent()[2]).not.toBe(first);
  });

  it('a declared tool: a key on every write in its own header (random per call without an approval)', async () => {
    api.route('POST /payments', answers());
    const { client, discovery } = await setup({ header: 'X-Request-Id' });
    await client.call(discovery, pay);
    await client.call(discovery, pay);
    const keys = keysSent('x-request-id');
    expect(keys[0]).toMatch(SF_KEY);
    expect(keys[1]).toMatch(SF_KEY);
    expect(keys[1]).not.toBe(keys[0]);
    expect(keysSent()).toEqual([undefined, undefined]);
  });

  it('a write nobody approved of a tool that declares nothing, and any read: no key', async () => {
    api.route('POST /payments', answers());
    api.route('GET /payments/p-1', (_request, res) => sendJson(res, 200, { id: 'p-1' }));
    const { client, discovery } = await setup(undefined, { approval: { get_payment: 'user-approval' } });
    await client.call(discovery, pay);
    const review = await client.review(discovery.tool('get_payment'), {});
    await client.call(discovery, { name: 'get_payment', arguments: {} }, undefined, { approval: approve(review) });
    expect(keysSent()).toEqual([undefined, undefined]);
  });
});

describe('retries of a keyed write, inside the call deadline, with the same key', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });

  it('a declared tool answered 503, then cut off, then 201: retried twice with the same key', async () => {
    api.route('POST /payments', answers(503, 'drop'));
    const { client, discovery } = await setup({ header: 'Idempotency-Key' });
    const calling = client.call(discovery, pay);
    // The waits are fake (100 ms, then 200 ms); the network is real, so time moves in small steps until the retries came.
    for (let step = 0; step < 200 && api.count < 3; step++) {
      await vi.advanceTimersByTimeAsync(10);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await calling).ok).toBe(true);
    const keys = keysSent();
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(SF_KEY);
  });

  it('an approved call of a declared tool answered 409 (the first still runs), then 201: the same approval-derived key', async () => {
    api.route('POST /payments', answers(409));
    const { client, discovery } = await setup({ header: 'Idempotency-Key' }, { approval: 'writes' });
    const review = await client.review(discovery.tool('pay'), {});
    const calling = client.call(discovery, pay, undefined, { approval: approve(review) });
    await until(() => api.count === 1);
    await vi.advanceTimersByTimeAsync(100);
    expect((await calling).ok).toBe(true);
    expect(keysSent()).toHaveLength(2);
    expect(keysSent()[1]).toBe(keysSent()[0]);
  });

  it('never past the deadline: a retry that would not fit is not made (the 503 is the answer)', async () => {
    api.route('POST /payments', answers(503));
    const { client, discovery } = await setup({ header: 'Idempotency-Key' }, { timeout: 50 });
    const outcome = await client.call(discovery, pay);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'RCP_HTTP_ERROR', status: 503 } });
    expect(api.count).toBe(1);
  });

  it('a write whose tool declares nothing is never retried, approved or not (one request)', async () => {
    api.route('POST /payments', answers(503, 503));
    const { client, discovery } = await setup(undefined, { approval: 'writes' });
    const review = await client.review(discovery.tool('pay'), {});
    expect(await client.call(discovery, pay, undefined, { approval: approve(review) })).toMatchObject({ ok: false, error: { status: 503 } });
    expect(api.count).toBe(1);
  });

  it('retry: 0 turns the retries off for keyed writes too', async () => {
    api.route('POST /payments', answers(503));
    const { client, discovery } = await setup({ header: 'Idempotency-Key' }, { retry: 0 });
    expect(await client.call(discovery, pay)).toMatchObject({ ok: false });
    expect(api.count).toBe(1);
  });
});
