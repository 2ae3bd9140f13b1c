import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearerAuth, createRcpServer, defineTool } from 'rcp-server';
import { toNodeListener } from 'rcp-server/node';

/**
 * rcp-server's own rules (SPEC §17) as cases: a request as a rogue client would send it, the
 * status and the problem's pointers — and whether the handler ran (it never does on a refusal).
 */
const handled: string[] = [];
const server = createRcpServer<{ accountId: string }>({
  auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
  verify: bearerAuth([{ token: 'tok', principal: { accountId: 'a-1' } }]),
  lastModified: new Date('2026-01-01T00:00:00Z'),
  tools: [
    defineTool({
      name: 'find',
      description: 'Finds orders.',
      method: 'GET',
      path: '/accounts/{{accountId}}/orders/{{orderId}}',
      params: [
        { name: 'accountId', bound: (principal) => principal.accountId },
        { name: 'orderId', type: 'integer', minimum: 1 },
        { name: 'status', enum: ['open', 'paid'] },
        { name: 'region', pattern: '^[a-z]{2}$' },
      ],
      queryParams: { status: '{{status}}' },
      headers: { 'X-Region': '{{region}}' },
      handler: () => (handled.push('find'), {}),
    }),
    defineTool({
      name: 'charge',
      description: 'Charges an amount.',
      method: 'POST',
      path: '/accounts/{{accountId}}/charges',
      params: [
        { name: 'accountId', bound: (principal) => principal.accountId },
        { name: 'amount', type: 'number', required: true, maximum: 100 },
        { name: 'lines', type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] } },
      ],
      bodyEncoding: 'form',
      body: { account: '{{accountId}}', amount: '{{amount}}', lines: '{{lines}}' },
      handler: () => (handled.push('charge'), {}),
    }),
  ],
});

interface RuleCase {
  id: string;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  status: number;
  pointers?: string[];
  handled?: boolean;
}

const auth = { authorization: 'Bearer tok' };
const form = { ...auth, 'content-type': 'application/x-www-form-urlencoded' };
const CASES: RuleCase[] = [
  { id: 'ok-get', path: '/accounts/a-1/orders/7?status=paid', headers: { ...auth, 'x-region': 'eu' }, status: 200, handled: true },
  {
    id: 'ok-form',
    method: 'POST',
    path: '/accounts/a-1/charges',
    headers: form,
    body: 'account=a-1&amount=9.5&lines%5B0%5D%5Bsku%5D=s-1',
    status: 200,
    handled: true,
  },
  { id: 'no-token', path: '/accounts/a-1/orders/7', status: 401 },
  { id: 'wrong-token', path: '/accounts/a-1/orders/7', headers: { authorization: 'Bearer tok2' }, status: 401 },
  { id: 'bound-path', path: '/accounts/a-2/orders/7', headers: auth, status: 403, pointers: ['/accountId'] },
  { id: 'bound-form-body', method: 'POST', path: '/accounts/a-2/charges', headers: form, body: 'account=a-2&amount=1', status: 403, pointers: ['/accountId'] },
  { id: 'path-integer', path: '/accounts/a-1/orders/seven', headers: auth, status: 400, pointers: ['/orderId'] },
  { id: 'path-minimum', path: '/accounts/a-1/orders/0', headers: auth, status: 400, pointers: ['/orderId'] },
  { id: 'query-enum', path: '/accounts/a-1/orders/7?status=void', headers: auth, status: 400, pointers: ['/status'] },
  { id: 'query-repeated', path: '/accounts/a-1/orders/7?status=open&status=paid', headers: auth, status: 400, pointers: ['/status'] },
  { id: 'header-pattern', path: '/accounts/a-1/orders/7', headers: { ...auth, 'x-region': 'EU' }, status: 400, pointers: ['/region'] },
  { id: 'form-required', method: 'POST', path: '/accounts/a-1/charges', headers: form, body: 'account=a-1', status: 400, pointers: ['/amount'] },
  { id: 'form-maximum', method: 'POST', path: '/accounts/a-1/charges', headers: form, body: 'account=a-1&amount=101', status: 400, pointers: ['/amount'] },
  {
    id: 'form-nested-required',
    method: 'POST',
    path: '/accounts/a-1/charges',
    headers: form,
    body: 'account=a-1&amount=1&lines%5B0%5D%5Bqty%5D=2',
    status: 400,
    pointers: ['/lines/0/qty', '/lines/0/sku'],
  },
  {
    id: 'form-extra-field',
    method: 'POST',
    path: '/accounts/a-1/charges',
    headers: form,
    body: 'account=a-1&amount=1&admin=1',
    status: 400,
    pointers: ['/admin'],
  },
  {
    id: 'form-wrong-media-type',
    method: 'POST',
    path: '/accounts/a-1/charges',
    headers: { ...auth, 'content-type': 'application/json' },
    body: '{"amount":1}',
    status: 415,
  },
  { id: 'manifest-etag', path: '/rcp/manifest', headers: { 'if-none-match': 'ETAG' }, status: 304 },
  { id: 'manifest-date', path: '/rcp/manifest', headers: { 'if-modified-since': 'Thu, 01 Jan 2026 00:00:00 GMT' }, status: 304 },
  { id: 'manifest-stale-date', path: '/rcp/manifest', headers: { 'if-modified-since': 'Wed, 31 Dec 2025 23:59:59 GMT' }, status: 200 },
  { id: 'unknown-path', path: '/accounts/a-1', headers: auth, status: 404 },
];

let http: Server;
let origin: string;
let etag: string;
beforeAll(async () => {
  http = createServer(toNodeListener(server));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  etag = (await fetch(`${origin}/rcp/manifest`)).headers.get('etag')!;
});
afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));
beforeEach(() => void handled.splice(0));

describe("conformance: rcp-server's own rules (SPEC §17)", () => {
  it.each(CASES.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const headers = Object.fromEntries(Object.entries(c.headers ?? {}).map(([name, value]) => [name, value === 'ETAG' ? etag : value]));
    const response = await fetch(origin + c.path, { method: c.method ?? 'GET', headers, ...(c.body !== undefined && { body: c.body }) });
    expect(response.status).toBe(c.status);
    if (c.pointers !== undefined) {
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      const problem = (await response.json()) as { errors: { pointer: string }[] };
      expect(problem.errors.map((error) => error.pointer)).toEqual(c.pointers);
    }
    expect(handled.length).toBe(c.handled === true ? 1 : 0);
  });
});
