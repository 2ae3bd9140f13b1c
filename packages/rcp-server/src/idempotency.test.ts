import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { safeParseManifest } from 'rcp-manifest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  bearerAuth,
  createMemoryIdempotencyStore,
  createRcpServer,
  defineTool,
  isRcpError,
  type RcpIdempotencyOptions,
  type RcpIdempotencyStore,
  type RcpServer,
} from './index';
import { toNodeListener } from './node';
import { frameworks } from './test/fixture';

interface Principal {
  userId: string;
}

const KEY = '"8e03978e-40d5-43e8-bc93-6894a57f9324"';
const OTHER_KEY = '"0b1f3c2a-7d4e-4c55-9a11-2f6e8d9c0b7a"';
const ADA = { authorization: 'Bearer token-ada' };
const BOB = { authorization: 'Bearer token-bob' };

/**
 * A payments API whose `pay` applies a side effect the test counts; `gate` (when set) holds the
 * handler until the test opens it, and `fail` makes it throw once.
 */
function paymentsApi(idempotency: RcpIdempotencyOptions<Principal> = {}) {
  const state = {
    applied: [] as { userId: string; amount: unknown }[],
    gate: undefined as Promise<void> | undefined,
    /** Called when a handler reaches the gate (it holds the key then). */
    entered: undefined as (() => void) | undefined,
    fail: false,
  };
  const server = createRcpServer<Principal>({
    auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
    verify: bearerAuth([
      { token: 'token-ada', principal: { userId: 'u-1' } },
      { token: 'token-bob', principal: { userId: 'u-2' } },
    ]),
    idempotency,
    tools: [
      defineTool<Principal>({
        name: 'pay',
        description: 'Pays an amount to someone.',
        method: 'POST',
        path: '/users/{{userId}}/payments',
        params: [
          { name: 'userId', bound: (principal) => principal.userId },
          { name: 'amount', type: 'integer', required: true, minimum: 1 },
          { name: 'to', required: true },
          { name: 'priority', enum: ['low', 'high'] },
        ],
        headers: { 'X-Priority': '{{priority}}' },
        body: { amount: '{{amount}}', to: '{{to}}' },
        idempotency: { header: 'Idempotency-Key' },
        handler: async ({ values, principal }) => {
          if (state.gate !== undefined) {
            state.entered?.();
            await state.gate;
          }
          if (state.fail) {
            state.fail = false;
            throw new Error('the ledger is down');
          }
          state.applied.push({ userId: principal.userId, amount: values.amount });
          return Response.json(
            { id: `pay-${state.applied.length}`, amount: values.amount },
            { status: 201, headers: { 'x-ledger': 'v1', 'set-cookie': 'seen=1; Path=/' } },
          );
        },
      }),
      defineTool<Principal>({
        name: 'refund',
        description: 'Refunds a payment, keeping keys for a minute.',
        method: 'DELETE',
        path: '/payments/{{paymentId}}',
        params: [{ name: 'paymentId', required: true }],
        idempotency: { header: 'X-Request-Id', expiresAfterSeconds: 60 },
        handler: ({ values }) => {
          state.applied.push({ userId: 'refund', amount: values.paymentId });
          return undefined;
        },
      }),
    ],
  });
  return { server, state };
}

let http: Server | undefined;
async function serve(server: RcpServer, onError?: (error: unknown) => void): Promise<string> {
  http = createServer(toNodeListener(server, { onError }));
  await new Promise<void>((resolve) => http!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
}
afterEach(async () => {
  vi.useRealTimers();
  await new Promise<void>((resolve) => (http === undefined ? resolve() : http.close(() => resolve())));
  http = undefined;
});

function pay(origin: string, options: { key?: string | null; user?: Record<string, string>; body?: string; path?: string; priority?: string } = {}) {
  const headers: Record<string, string> = { ...(options.user ?? ADA), 'content-type': 'application/json' };
  if (options.key !== null) headers['idempotency-key'] = options.key ?? KEY;
  if (options.priority !== undefined) headers['x-priority'] = options.priority;
  return fetch(`${origin}${options.path ?? '/users/u-1/payments'}`, { method: 'POST', headers, body: options.body ?? '{"amount":12,"to":"bob"}' });
}

async function problem(response: Response) {
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  return (await response.json()) as { status: number; code: string; detail: string };
}

describe('idempotency on the API side (RCP 0.4, a real loopback server)', () => {
  let origin: string;
  let state: ReturnType<typeof paymentsApi>['state'];
  beforeEach(async () => {
    const api = paymentsApi();
    state = api.state;
    origin = await serve(api.server);
  });

  it('publishes each tool’s idempotency in a 0.4 manifest, with the key lifetime it keeps', async () => {
    const parsed = safeParseManifest(await (await fetch(`${origin}/rcp/manifest`)).text());
    expect(parsed.ok && parsed.warnings).toEqual([]);
    expect(parsed.ok && parsed.manifest.rcpVersion).toBe('0.4');
    expect(parsed.ok && parsed.manifest.tools.map((tool) => tool.idempotency)).toEqual([
      { header: 'Idempotency-Key', expiresAfterSeconds: 86_400 },
      { header: 'X-Request-Id', expiresAfterSeconds: 60 },
    ]);
  });

  it('applies a write once: a retry with the same key and request gets the first response, marked as replayed', async () => {
    const first = await pay(origin);
    expect(first.status).toBe(201);
    const firstBody = await first.text();
    for (let attempt = 0; attempt < 3; attempt++) {
      const again = await pay(origin);
      expect(again.status).toBe(201);
      expect(await again.text()).toBe(firstBody);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.headers.get('x-ledger')).toBe('v1');
      expect(again.headers.get('content-type')).toBe('application/json');
      expect(again.headers.getSetCookie()).toEqual(['seen=1; Path=/']);
      expect(again.headers.get('link')).toBe('</rcp/manifest>; rel="describedby"');
    }
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(state.applied).toEqual([{ userId: 'u-1', amount: 12 }]);
  });

  it('replays a 204 and keys on its own header (X-Request-Id)', async () => {
    const refund = () => fetch(`${origin}/payments/p-1`, { method: 'DELETE', headers: { 'x-request-id': KEY, ...ADA } });
    expect((await refund()).status).toBe(204);
    const again = await refund();
    expect([again.status, again.headers.get('idempotent-replayed'), await again.text()]).toEqual([204, 'true', '']);
    expect(state.applied).toEqual([{ userId: 'refund', amount: 'p-1' }]);
  });

  it.each([
    ['another body', { body: '{"amount":13,"to":"bob"}' }],
    ['the same values, other body bytes', { body: '{"to":"bob","amount":12}' }],
    ['another argument header', { priority: 'high' }],
  ])('answers the same key with %s with a 422 problem, and applies nothing', async (_what, other) => {
    expect((await pay(origin)).status).toBe(201);
    const reused = await pay(origin, other);
    expect(reused.status).toBe(422);
    expect(await problem(reused)).toMatchObject({ status: 422, code: 'RCP_IDEMPOTENCY_KEY_REUSED' });
    expect(state.applied).toHaveLength(1);
  });

  it('answers the same key on another tool (another path) with a 422', async () => {
    expect((await pay(origin)).status).toBe(201);
    const other = await fetch(`${origin}/payments/p-1`, { method: 'DELETE', headers: { 'x-request-id': KEY, ...ADA } });
    expect(other.status).toBe(422);
    expect(state.applied).toHaveLength(1);
  });

  it('scopes a key to its caller: another principal’s identical key runs its own request and never sees the first response', async () => {
    expect((await pay(origin)).status).toBe(201);
    const bob = await pay(origin, { user: BOB, path: '/users/u-2/payments' });
    expect(bob.status).toBe(201);
    expect(bob.headers.get('idempotent-replayed')).toBeNull();
    expect(await bob.json()).toEqual({ id: 'pay-2', amount: 12 });
    expect(state.applied).toEqual([
      { userId: 'u-1', amount: 12 },
      { userId: 'u-2', amount: 12 },
    ]);
  });

  it.each([
    ['no key', null, 'The Idempotency-Key header is required for this tool'],
    ['a bare token (not a Structured Fields string)', 'a5e7f61c-2d4b-4a8e-9c1f-3b6d8e0f2a47', 'must be one Structured Fields string'],
    ['two keys', `${KEY}, ${OTHER_KEY}`, 'must be one Structured Fields string'],
    ['an escape that is not \\" or \\\\', '"abcdefghijklmnop\\q"', 'must be one Structured Fields string'],
    ['a key too short to be random', '"1234"', 'must hold 16 to 255 characters'],
    ['a key too long', `"${'k'.repeat(256)}"`, 'must hold 16 to 255 characters'],
  ])('refuses %s with a 400 problem before the handler, and takes no key', async (_what, key, detail) => {
    const response = await pay(origin, { key });
    expect(response.status).toBe(400);
    const body = await problem(response);
    expect(body).toMatchObject({ status: 400, code: 'RCP_IDEMPOTENCY_KEY_INVALID' });
    expect(body.detail).toContain(detail);
    expect(state.applied).toEqual([]);
  });

  it('reads the key as RFC 8941 does: spaces around it and parameters are allowed, escapes are undone', async () => {
    expect((await pay(origin, { key: ` ${KEY};source=agent;n=1 ` })).status).toBe(201);
    const same = await pay(origin, { key: KEY });
    expect(same.headers.get('idempotent-replayed')).toBe('true');
    expect((await pay(origin, { key: '"quote \\" and backslash \\\\ ok"' })).status).toBe(201);
    expect(state.applied).toHaveLength(2);
  });

  it('checks arguments and bound params before the key: a refused call takes no key, so its corrected retry may reuse it', async () => {
    expect((await pay(origin, { body: '{"amount":0,"to":"bob"}' })).status).toBe(400);
    expect((await pay(origin, { path: '/users/u-2/payments' })).status).toBe(403);
    expect((await pay(origin)).status).toBe(201);
    expect(state.applied).toHaveLength(1);
  });

  it('answers a duplicate that arrives while the first still runs with a 409, then replays once it is done', async () => {
    let open!: () => void;
    state.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    // The first request holds the key once its handler runs: the handler says so (no polling against a clock, which a
    // loaded machine outran), and the gate opens whatever happens, so a failure never leaves the request hanging.
    const entered = new Promise<void>((resolve) => {
      state.entered = resolve;
    });
    const first = pay(origin);
    try {
      await entered;
      const conflict = await pay(origin);
      expect(await problem(conflict)).toMatchObject({ status: 409, code: 'RCP_IDEMPOTENCY_KEY_IN_USE' });
    } finally {
      open();
    }
    expect((await first).status).toBe(201);
    expect((await pay(origin)).headers.get('idempotent-replayed')).toBe('true');
    expect(state.applied).toHaveLength(1);
  });

  it('gives the key back when the handler throws, so a retry runs', async () => {
    await new Promise<void>((resolve) => http!.close(() => resolve()));
    const errors: unknown[] = [];
    const api = paymentsApi();
    api.state.fail = true;
    origin = await serve(api.server, (error) => errors.push(error));
    expect((await pay(origin)).status).toBe(500);
    expect(errors).toHaveLength(1);
    const retry = await pay(origin);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(api.state.applied).toEqual([{ userId: 'u-1', amount: 12 }]);
  });
});

describe('idempotency: expiry (a fake clock)', () => {
  it('runs a key again once its lifetime has passed, and not before', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const api = paymentsApi({ expiresAfterSeconds: 3600 });
    const origin = await serve(api.server);
    expect((await pay(origin)).status).toBe(201);
    vi.setSystemTime(Date.now() + 3_599_000);
    expect((await pay(origin)).headers.get('idempotent-replayed')).toBe('true');
    vi.setSystemTime(Date.now() + 2_000);
    const later = await pay(origin);
    expect([later.status, later.headers.get('idempotent-replayed')]).toEqual([201, null]);
    expect(api.state.applied).toHaveLength(2);
  });

  it('frees the key of a first request still running after inFlightSeconds (a crashed process gives it back)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const api = paymentsApi({ inFlightSeconds: 30 });
    let open!: () => void;
    api.state.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const entered = new Promise<void>((resolve) => {
      api.state.entered = resolve;
    });
    const origin = await serve(api.server);
    const stuck = pay(origin);
    try {
      await entered;
      expect((await pay(origin)).status).toBe(409);
      vi.setSystemTime(Date.now() + 31_000);
      api.state.gate = undefined;
      expect((await pay(origin)).status).toBe(201);
    } finally {
      open();
    }
    expect((await stuck).status).toBe(201); // it ran: the response is sent, though its lease had passed and nothing is stored
    expect((await pay(origin)).headers.get('idempotent-replayed')).toBe('true');
    expect(api.state.applied).toHaveLength(2);
  });
});

describe('what the store holds', () => {
  it('is keyed hashes and sealed text: never the key, the principal, the request or the response in clear', async () => {
    const memory = createMemoryIdempotencyStore();
    const written: string[] = [];
    const recording: RcpIdempotencyStore = {
      begin: (key, record, ttl) => (written.push(key, JSON.stringify(record)), memory.begin(key, record, ttl)),
      complete: (key, lease, record, ttl) => (written.push(key, lease, JSON.stringify(record)), memory.complete(key, lease, record, ttl)),
      release: (key, lease) => (written.push(key, lease), memory.release(key, lease)),
    };
    const api = paymentsApi({ store: recording });
    const origin = await serve(api.server);
    const first = await (await pay(origin, { body: '{"amount":12,"to":"bob-the-payee"}' })).text();
    expect(await (await pay(origin, { body: '{"amount":12,"to":"bob-the-payee"}' })).text()).toBe(first);
    const text = written.join('\n');
    for (const secret of ['8e03978e', 'u-1', 'bob-the-payee', 'pay-1', 'seen=1', 'x-ledger', btoa(first).slice(0, 12)]) {
      expect(text, secret).not.toContain(secret);
    }
  });

  it('fails closed when the store fails: the handler never runs', async () => {
    const broken: RcpIdempotencyStore = {
      begin: async () => {
        throw new Error('store down');
      },
      complete: async () => false,
      release: async () => false,
    };
    const errors: unknown[] = [];
    const api = paymentsApi({ store: broken });
    const origin = await serve(api.server, (error) => errors.push(error));
    expect((await pay(origin)).status).toBe(500);
    expect(api.state.applied).toEqual([]);
    expect(errors).toHaveLength(1);
  });
});

describe('idempotency options, checked at creation', () => {
  it.each([
    ['expiresAfterSeconds 0', { expiresAfterSeconds: 0 }],
    ['expiresAfterSeconds 1.5', { expiresAfterSeconds: 1.5 }],
    ['inFlightSeconds -1', { inFlightSeconds: -1 }],
    ['a store without release', { store: { begin: async () => undefined, complete: async () => true } as unknown as RcpIdempotencyStore }],
    ['a subject that is not a function', { subject: 'userId' as unknown as (principal: Principal) => string }],
  ])('refuses %s with RCP_INVALID_OPTIONS', (_what, idempotency) => {
    let error: unknown;
    try {
      paymentsApi(idempotency as RcpIdempotencyOptions<Principal>);
    } catch (caught) {
      error = caught;
    }
    expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
  });

  it('refuses a tool lifetime below one second with RCP_INVALID_MANIFEST at its pointer', () => {
    let error: unknown;
    try {
      createRcpServer({
        tools: [
          defineTool({
            name: 'save',
            description: 'Saves.',
            method: 'POST',
            path: '/s',
            idempotency: { header: 'Idempotency-Key', expiresAfterSeconds: 0 },
            handler: () => ({}),
          }),
        ],
      });
    } catch (caught) {
      error = caught;
    }
    expect(isRcpError(error, 'RCP_INVALID_MANIFEST') && error.issues.map((issue) => issue.path)).toEqual(['/tools/0/idempotency/expiresAfterSeconds']);
  });
});

describe.each(frameworks)('idempotency through $name', (framework) => {
  it('replays the first response and applies the write once', async () => {
    const api = paymentsApi();
    const running = await framework.start(api.server);
    try {
      const first = await pay(running.origin);
      const again = await pay(running.origin);
      expect([first.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 201, 'true']);
      expect(await again.json()).toEqual(await first.json());
      expect(api.state.applied).toHaveLength(1);
    } finally {
      await running.close();
    }
  });
});
