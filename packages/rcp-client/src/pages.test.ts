/**
 * Pages (SPEC §18.4): a result says when there is more and the exact arguments that ask for it —
 * from a cursor the manifest declares (RCP 0.3) or from `Link: rel="next"` mapped back to the
 * tool's params — and a scripted model walks a paginated loopback API to its last page using only
 * what the results say. The next URL itself never reaches the model.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient, toModelResult, toModelText, type RcpClientOptions, type RcpDiscovery } from 'rcp-client';
import { serveManifest } from './internal/testing';

let api: TestServer;
let elsewhere: TestServer;
beforeEach(async () => {
  api = await startTestServer();
  elsewhere = await startTestServer();
});
afterEach(async () => {
  await Promise.all([api.close(), elsewhere.close()]);
});

const ITEMS = Array.from({ length: 7 }, (_, index) => ({ id: `item-${index + 1}` }));
const TOKEN = 'tok-SECRET-42';

/** GitHub's style: `?page=N&per_page=M`, and a `Link` header with rel="next" until the last page. */
function serveLinkedItems(next: (page: number, perPage: number, query: URLSearchParams) => string | undefined): void {
  api.route('GET /items', (request, res) => {
    const query = new URLSearchParams(request.rawQuery);
    const page = Number(query.get('page') ?? '1');
    const perPage = Number(query.get('per_page') ?? '3');
    const slice = ITEMS.slice((page - 1) * perPage, page * perPage);
    const target = page * perPage < ITEMS.length ? next(page, perPage, query) : undefined;
    const headers: Record<string, string> = target === undefined ? {} : { link: `<${target}>; rel="next", <${api.origin}/items?page=1>; rel="first"` };
    sendJson(res, 200, slice, headers);
  });
}

const itemsTool = (extra: Record<string, unknown> = {}) => ({
  name: 'list_items',
  description: 'Lists the items, a page at a time.',
  method: 'GET',
  url: '/items',
  params: [
    { name: 'page', type: 'integer' },
    { name: 'perPage', type: 'integer' },
    { name: 'tenant', type: 'string', required: true },
  ],
  queryParams: { page: '{{page}}', per_page: '{{perPage}}', tenant: '{{tenant}}' },
  ...extra,
});

async function discover(
  tools: unknown[],
  options: RcpClientOptions = {},
  auth?: unknown,
): Promise<{ client: ReturnType<typeof createRcpClient>; discovery: RcpDiscovery }> {
  const client = createRcpClient({ retry: 0, resolvers: { tenant: () => 'acme' }, ...options });
  const discovery = await client.discover(serveManifest(api, { rcpVersion: '0.3', ...(auth !== undefined && { auth }), tools }));
  api.reset();
  return { client, discovery };
}

/**
 * A scripted model: it reads only the text it is given (toModelText), and asks for the next page
 * with exactly the arguments the result names, until the result says there is no more.
 */
async function walk(
  client: ReturnType<typeof createRcpClient>,
  discovery: RcpDiscovery,
  name: string,
  first: unknown,
): Promise<{ pages: unknown[]; last: unknown }> {
  const pages: unknown[] = [];
  let args: unknown = first;
  for (let turn = 0; turn < 20; turn++) {
    const read = JSON.parse(toModelText(toModelResult(await client.call(discovery, { name, arguments: JSON.stringify(args) })))) as {
      ok: boolean;
      data: unknown;
      page?: { hasMore: boolean; nextArguments: unknown };
    };
    expect(read.ok).toBe(true);
    pages.push(read.data);
    if (read.page?.hasMore !== true) return { pages, last: read.page };
    expect(read.page.nextArguments).not.toBeNull();
    args = read.page.nextArguments;
  }
  throw new Error('the walk did not end');
}

describe('Link: rel="next", mapped back to the tool\'s params', () => {
  it("a scripted model walks the API to its last page with only what the results say; the resolver value stays the client's", async () => {
    serveLinkedItems((page, perPage) => `${api.origin}/items?per_page=${perPage}&page=${page + 1}&tenant=acme`);
    const { client, discovery } = await discover([itemsTool()]);
    const { pages, last } = await walk(client, discovery, 'list_items', { perPage: 3 });
    expect(pages.flat()).toEqual(ITEMS);
    expect(last).toBeUndefined(); // the last page has no Link next: it says nothing about pages
    expect(api.requests.map((request) => request.rawQuery)).toEqual([
      'per_page=3&tenant=acme',
      'page=2&per_page=3&tenant=acme',
      'page=3&per_page=3&tenant=acme',
    ]);
  });

  it('names only params the model fills: never the resolver-bound one, never the URL', async () => {
    serveLinkedItems((page) => `/items?page=${page + 1}&per_page=3&tenant=acme`);
    const { client, discovery } = await discover([itemsTool()]);
    const result = toModelResult(await client.call(discovery, { name: 'list_items', arguments: {} }));
    expect(result).toMatchObject({ ok: true, page: { hasMore: true, nextArguments: { page: 2, perPage: 3 } } });
    const text = toModelText(result);
    expect(text).not.toContain('acme');
    expect(text).not.toContain('/items');
  });

  it.each([
    ['another path', (page: number) => `/v2/items?page=${page + 1}&per_page=3&tenant=acme`],
    ['a query key the tool has no param for', (page: number) => `/items?page=${page + 1}&per_page=3&tenant=acme&sig=abc`],
    ['another value for the resolver-bound param', (page: number) => `/items?page=${page + 1}&per_page=3&tenant=other`],
    ['a value the param type cannot hold', () => `/items?page=two&per_page=3&tenant=acme`],
    ['a number written another way', (page: number) => `/items?page=0${page + 1}&per_page=3&tenant=acme`],
    ['another origin', (page: number) => `${elsewhere.origin}/items?page=${page + 1}&per_page=3&tenant=acme`],
  ])('%s: there is more, but it cannot be asked for (nextArguments null)', async (_name, next) => {
    serveLinkedItems(next);
    const { client, discovery } = await discover([itemsTool()]);
    const result = toModelResult(await client.call(discovery, { name: 'list_items', arguments: {} }));
    expect(result).toMatchObject({ ok: true, page: { hasMore: true, nextArguments: null } });
  });

  it('a query credential in the link is neither compared nor shown', async () => {
    serveLinkedItems((page) => `/items?page=${page + 1}&per_page=3&tenant=acme&api_key=${TOKEN}`);
    const { client, discovery } = await discover([itemsTool()], { credentials: () => TOKEN }, { type: 'query', name: 'api_key' });
    const outcome = await client.call(discovery, { name: 'list_items', arguments: { perPage: 3 } });
    const text = toModelText(toModelResult(outcome));
    expect(JSON.parse(text).page).toEqual({ hasMore: true, nextArguments: { page: 2, perPage: 3 } });
    expect(text).not.toContain(TOKEN);
  });

  it('an array param takes a repeated key', async () => {
    api.route('GET /search', (request, res) => {
      const query = new URLSearchParams(request.rawQuery);
      sendJson(res, 200, [], query.get('page') === null ? { link: '</search?tag=a&tag=b%20c&page=2>; rel=next' } : {});
    });
    const { client, discovery } = await discover([
      {
        name: 'search',
        description: 'Searches by tags.',
        method: 'GET',
        url: '/search',
        params: [
          { name: 'tags', type: 'array', items: { type: 'string' } },
          { name: 'page', type: 'integer' },
        ],
        queryParams: { tag: '{{tags}}', page: '{{page}}' },
      },
    ]);
    const result = toModelResult(await client.call(discovery, { name: 'search', arguments: { tags: ['a', 'b c'] } }));
    expect(result).toMatchObject({ page: { hasMore: true, nextArguments: { tags: ['a', 'b c'], page: 2 } } });
  });
});

describe('a declared cursor (RCP 0.3 pagination)', () => {
  /** `{ notes, meta: { next } }`, two notes a page; the cursor is the next index. */
  function serveNotes(echo = false): void {
    api.route('GET /notes', (request, res) => {
      const cursor = Number(new URLSearchParams(request.rawQuery).get('cursor') ?? '0');
      const notes = ITEMS.slice(cursor, cursor + 2);
      const next = cursor + 2 < ITEMS.length ? (echo ? `${cursor + 2}-${TOKEN}` : `c${cursor + 2}`) : null;
      sendJson(res, 200, { notes, meta: { next } });
    });
  }
  const notesTool = (pagination: unknown, extra: Record<string, unknown> = {}) => ({
    name: 'list_notes',
    description: 'Lists notes.',
    method: 'GET',
    url: '/notes',
    params: [
      { name: 'cursor', type: 'string' },
      { name: 'q', type: 'string' },
    ],
    queryParams: { cursor: '{{cursor}}', q: '{{q}}' },
    pagination,
    ...extra,
  });

  it('a scripted model walks every page; the last says hasMore: false; mappings shape the data, the cursor is read from the answer', async () => {
    api.route('GET /notes', (request, res) => {
      const cursor = new URLSearchParams(request.rawQuery).get('cursor');
      const start = cursor === null ? 0 : Number(cursor.slice(1));
      sendJson(res, 200, { notes: ITEMS.slice(start, start + 2), meta: { next: start + 2 < ITEMS.length ? `c${start + 2}` : null } });
    });
    const { client, discovery } = await discover([notesTool({ nextCursor: '@meta.next', param: 'cursor' }, { responseMappings: { ids: '@notes[*].id' } })]);
    const { pages, last } = await walk(client, discovery, 'list_notes', { q: 'x' });
    expect(pages.flatMap((page) => (page as { ids: string[] }).ids)).toEqual(ITEMS.map((item) => item.id));
    expect(last).toEqual({ hasMore: false, nextArguments: null });
    expect(api.requests.map((request) => request.rawQuery)).toEqual(['q=x', 'cursor=c2&q=x', 'cursor=c4&q=x', 'cursor=c6&q=x']);
  });

  it("hasMore decides when declared (Stripe's has_more with the last item's id)", async () => {
    api.route('GET /charges', (request, res) => {
      const after = new URLSearchParams(request.rawQuery).get('starting_after');
      const start = after === null ? 0 : ITEMS.findIndex((item) => item.id === after) + 1;
      sendJson(res, 200, { data: ITEMS.slice(start, start + 3), has_more: start + 3 < ITEMS.length });
    });
    const { client, discovery } = await discover([
      {
        name: 'list_charges',
        description: 'Lists charges.',
        method: 'GET',
        url: '/charges',
        params: [{ name: 'starting_after' }],
        queryParams: { starting_after: '{{starting_after}}' },
        pagination: { nextCursor: '@data[-1].id', param: 'starting_after', hasMore: '@has_more' },
      },
    ]);
    const { pages, last } = await walk(client, discovery, 'list_charges', {});
    expect((pages as { data: unknown[] }[]).flatMap((page) => page.data)).toEqual(ITEMS);
    expect(last).toEqual({ hasMore: false, nextArguments: null });
  });

  it('an integer param takes a numeric cursor; a cursor the param cannot take leaves nextArguments null', async () => {
    api.route('GET /pages', (request, res) => sendJson(res, 200, { next: new URLSearchParams(request.rawQuery).get('page') === null ? 2 : 'three' }));
    const { client, discovery } = await discover([
      {
        name: 'pages',
        description: 'Pages.',
        method: 'GET',
        url: '/pages',
        params: [{ name: 'page', type: 'integer' }],
        queryParams: { page: '{{page}}' },
        pagination: { nextCursor: '@next', param: 'page' },
      },
    ]);
    const first = await client.execute(discovery.tool('pages'), {});
    expect(first.page).toEqual({ hasMore: true, nextArguments: { page: 2 } });
    expect((await client.execute(discovery.tool('pages'), first.page!.nextArguments!)).page).toEqual({ hasMore: true, nextArguments: null });
  });

  it('an integer param takes a cursor given as text only when it reads back as itself ("7", not "1e3" or "10.0")', async () => {
    const cursors = ['7', '1e3', '10.0', ' 5'];
    api.route('GET /pages', (request, res) => {
      const index = Number(new URLSearchParams(request.rawQuery).get('i') ?? 0);
      sendJson(res, 200, { next: cursors[index] });
    });
    const { client, discovery } = await discover([
      {
        name: 'pages',
        description: 'Pages.',
        method: 'GET',
        url: '/pages',
        params: [
          { name: 'page', type: 'integer' },
          { name: 'i', type: 'integer' },
        ],
        queryParams: { page: '{{page}}', i: '{{i}}' },
        pagination: { nextCursor: '@next', param: 'page' },
      },
    ]);
    const pages = [];
    for (let i = 0; i < cursors.length; i++) pages.push((await client.execute(discovery.tool('pages'), { i })).page);
    expect(pages[0]).toEqual({ hasMore: true, nextArguments: { i: 0, page: 7 } });
    for (const page of pages.slice(1)) expect(page).toEqual({ hasMore: true, nextArguments: null });
  });

  it('a cursor that carries the credential is never handed to the model', async () => {
    serveNotes(true);
    const { client, discovery } = await discover(
      [notesTool({ nextCursor: '@meta.next', param: 'cursor' })],
      { credentials: () => TOKEN },
      { type: 'header', name: 'Authorization', scheme: 'Bearer' },
    );
    const result = toModelResult(await client.call(discovery, { name: 'list_notes', arguments: {} }));
    expect(result).toMatchObject({ ok: true, page: { hasMore: true, nextArguments: null } });
    expect(toModelText(result)).not.toContain(TOKEN);
  });

  it('a cursor param a resolver fills is a discovery warning, and the model cannot be told the next page', async () => {
    serveNotes();
    const { client, discovery } = await discover([notesTool({ nextCursor: '@meta.next', param: 'cursor' })], {
      resolvers: { tenant: () => 'acme', cursor: () => '0' },
    });
    expect(discovery.warnings).toContainEqual(expect.objectContaining({ path: '/tools/0/pagination/param' }));
    expect((await client.execute(discovery.tool('list_notes'), {})).page).toEqual({ hasMore: true, nextArguments: null });
  });

  it('a non-JSON answer of a paginated tool has no cursor: no more pages', async () => {
    api.route('GET /notes', (_request, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('nothing here');
    });
    const { client, discovery } = await discover([notesTool({ nextCursor: '@meta.next', param: 'cursor' })]);
    expect((await client.execute(discovery.tool('list_notes'), {})).page).toEqual({ hasMore: false, nextArguments: null });
  });
});
