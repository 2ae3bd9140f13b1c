import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient, type RcpDiscovery } from 'rcp-client';
import { pngBytes, sendJson, serveManifest, sha256, startTestServer, type TestServer } from 'rcp-test-utils';
import { fromOpenApi } from './index';

/**
 * Issue 24: what an operation's 2xx responses say becomes RCP 0.3 result fields (docs/behaviour.md
 * "Responses"): binary content types are `responseMediaTypes`, and a cursor the naming rule
 * recognises is `pagination`, each rule used named once in `documentWarnings`. A manifest that
 * writes either is "0.3"; a document without them imports as before. End to end: the imported
 * manifest, served on loopback, gets a PNG and a spreadsheet to rcp-client as media parts and is
 * walked to its last page.
 */

type Json = Record<string, unknown>;

let api: TestServer;
beforeEach(async () => {
  api = await startTestServer();
});
afterEach(async () => {
  await api.close();
});

const ok = (content: Json): Json => ({ '200': { description: 'ok', content } });
const json = (schema: Json): Json => ok({ 'application/json': { schema } });
const cursorQuery = (name: string, type = 'string'): Json => ({ name, in: 'query', schema: { type } });
const op = (operationId: string, extra: Json): Json => ({ operationId, ...extra });

/** One document of many small cases (each import runs the validator: few imports, many operations). */
const resultsDocument = (): Json => ({
  openapi: '3.1.0',
  info: { title: 'Results', version: '1' },
  servers: [{ url: api.origin }],
  paths: {
    '/chart': {
      get: op('getChart', {
        responses: {
          ...ok({ 'image/PNG': {}, 'application/json': { schema: { type: 'object' } } }),
          '404': { description: 'no', content: { 'application/pdf': {} } },
        },
      }),
    },
    '/sheet': { get: op('getSheet', { responses: ok({ 'application/vnd.ms-excel; charset=binary': {} }) }) },
    '/file': { get: op('getFile', { responses: { '2XX': { description: 'ok', content: { 'application/octet-stream': {}, 'image/*': {} } } } }) },
    '/logo': { get: op('getLogo', { responses: ok({ 'image/svg+xml': {}, 'text/csv': {}, '*/*': {}, 'application/xml': {} }) }) },
    '/default-image': { get: op('getDefaultImage', { responses: { default: { description: 'x', content: { 'image/png': {} } } } }) },
    '/items': {
      get: op('listItems', {
        parameters: [cursorQuery('cursor'), { name: 'limit', in: 'query', schema: { type: 'integer' } }],
        responses: json({
          type: 'object',
          properties: { items: { type: 'array', items: { type: 'string' } }, next_cursor: { type: ['string', 'null'] }, has_more: { type: 'boolean' } },
        }),
      }),
    },
    '/docs': {
      get: op('listDocs', {
        parameters: [cursorQuery('pageToken')],
        responses: json({
          allOf: [{ properties: { docs: { type: 'array' } } }, { properties: { nextPageToken: { anyOf: [{ type: 'string' }, { type: 'null' }] } } }],
        }),
      }),
    },
    '/charges': {
      get: op('listCharges', {
        parameters: [cursorQuery('starting_after'), cursorQuery('ending_before')],
        responses: json({
          type: 'object',
          properties: { data: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } }, has_more: { type: 'boolean' } },
        }),
      }),
    },
    '/search': {
      post: op('searchPages', {
        requestBody: {
          content: { 'application/json': { schema: { type: 'object', properties: { query: { type: 'string' }, start_cursor: { type: 'string' } } } } },
        },
        responses: json({ type: 'object', properties: { results: { type: 'array' }, next_cursor: { type: 'string' }, has_more: { type: 'boolean' } } }),
      }),
    },
    // Not pagination by the rule:
    '/no-next': { get: op('noNext', { parameters: [cursorQuery('cursor')], responses: json({ type: 'object', properties: { items: { type: 'array' } } }) }) },
    '/object-next': {
      get: op('objectNext', { parameters: [cursorQuery('cursor')], responses: json({ type: 'object', properties: { next_cursor: { type: 'object' } } }) }),
    },
    '/pages': {
      get: op('numberedPages', {
        parameters: [cursorQuery('page', 'integer')],
        responses: json({ type: 'object', properties: { next_page: { type: 'integer' } } }),
      }),
    },
    '/two-ways': {
      get: op('twoWays', {
        parameters: [cursorQuery('cursor'), cursorQuery('page_token')],
        responses: json({ type: 'object', properties: { next_cursor: { type: 'string' }, next_page_token: { type: 'string' } } }),
      }),
    },
    '/header-cursor': {
      get: op('headerCursor', {
        parameters: [{ name: 'cursor', in: 'header', schema: { type: 'string' } }],
        responses: json({ type: 'object', properties: { next_cursor: { type: 'string' } } }),
      }),
    },
    '/text-next': {
      get: op('textNext', {
        parameters: [cursorQuery('cursor')],
        responses: ok({ 'text/plain': { schema: { type: 'object', properties: { next_cursor: { type: 'string' } } } } }),
      }),
    },
    // A cursor param RCP refuses (a boolean): the pagination is left out, the operation kept.
    '/flag-cursor': {
      get: op('flagCursor', {
        parameters: [cursorQuery('cursor', 'boolean')],
        responses: json({ type: 'object', properties: { next_cursor: { type: 'string' } } }),
      }),
    },
  },
});

function tool(manifest: { tools: readonly Json[] }, name: string): Json {
  const found = manifest.tools.find((entry) => entry['name'] === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
}

describe('2xx responses become RCP 0.3 result fields', () => {
  it('writes responseMediaTypes from binary 2xx content types and pagination by the naming rule; the manifest is 0.3', async () => {
    const { manifest, report } = await fromOpenApi(resultsDocument());
    expect(manifest.rcpVersion).toBe('0.3');
    expect(report.summary.skipped).toEqual({});
    const media = (name: string) => tool(manifest, name)['responseMediaTypes'];
    expect(media('getChart')).toEqual(['image/png']);
    expect(media('getSheet')).toEqual(['application/vnd.ms-excel']);
    expect(media('getFile')).toEqual(['application/octet-stream', 'image/*']);
    expect(media('getLogo')).toBeUndefined(); // SVG is XML text; CSV and XML are text; */* names nothing
    expect(media('getDefaultImage')).toBeUndefined(); // only 2xx answers count

    const paging = (name: string) => tool(manifest, name)['pagination'];
    expect(paging('listItems')).toEqual({ nextCursor: '@next_cursor', param: 'cursor', hasMore: '@has_more' });
    expect(paging('listDocs')).toEqual({ nextCursor: '@nextPageToken', param: 'pageToken' });
    expect(paging('listCharges')).toEqual({ nextCursor: '@data[-1].id', param: 'starting_after', hasMore: '@has_more' });
    expect(paging('searchPages')).toEqual({ nextCursor: '@next_cursor', param: 'start_cursor', hasMore: '@has_more' });
    for (const name of ['noNext', 'objectNext', 'numberedPages', 'twoWays', 'headerCursor', 'textNext', 'flagCursor', 'getChart']) {
      expect(paging(name), name).toBeUndefined();
    }
    expect(report.lossy).toContainEqual({
      tool: 'flagCursor',
      message: expect.stringMatching(/^the pagination read from the response was left out: RCP refuses the tool \(\/pagination\/param: "cursor" is boolean/),
    });
    expect(report.documentWarnings).toEqual([
      'pagination was read from names for 1 operation(s) ("cursor" → "next_cursor" and "has_more"): check that the API pages this way (a client tells the model the next call from it)',
      'pagination was read from names for 1 operation(s) ("pageToken" → "nextPageToken"): check that the API pages this way (a client tells the model the next call from it)',
      'pagination was read from names for 1 operation(s) ("starting_after" → the last "data" item\'s "id", and "has_more"): check that the API pages this way (a client tells the model the next call from it)',
      'pagination was read from names for 1 operation(s) ("start_cursor" → "next_cursor" and "has_more"): check that the API pages this way (a client tells the model the next call from it)',
    ]);
  });

  it('reads Swagger 2 too (produces, the 2xx schema); a resolver-bound cursor is never the pagination param', async () => {
    const swagger = (resolve?: string[]) =>
      fromOpenApi(
        {
          swagger: '2.0',
          info: { title: 'S', version: '1' },
          host: '127.0.0.1',
          schemes: ['http'],
          produces: ['application/json'],
          paths: {
            '/photo': { get: { operationId: 'getPhoto', produces: ['image/jpeg', 'application/json'], responses: { '200': { description: 'ok' } } } },
            '/items': {
              get: {
                operationId: 'listItems',
                parameters: [{ name: 'cursor', in: 'query', type: 'string' }],
                responses: { '200': { description: 'ok', schema: { type: 'object', properties: { next_cursor: { type: 'string' } } } } },
              },
            },
          },
        },
        resolve === undefined ? {} : { resolve },
      );
    const { manifest, report } = await swagger();
    expect(manifest.rcpVersion).toBe('0.3');
    expect(tool(manifest, 'getPhoto')['responseMediaTypes']).toEqual(['image/jpeg']);
    expect(tool(manifest, 'listItems')['pagination']).toEqual({ nextCursor: '@next_cursor', param: 'cursor' });
    expect(report.documentWarnings).toHaveLength(1);
    const bound = await swagger(['cursor']);
    expect(tool(bound.manifest, 'listItems')['pagination']).toBeUndefined();
    expect(bound.report.documentWarnings).toEqual([]);
  });

  it('keeps the version and every field of a document without them (0.1; 0.2 for a form body)', async () => {
    const document = (form: boolean): Json => ({
      openapi: '3.1.0',
      info: { title: 'Plain', version: '1' },
      servers: [{ url: api.origin }],
      paths: {
        '/notes': {
          get: op('listNotes', { parameters: [cursorQuery('cursor')], responses: json({ type: 'object', properties: { next: { type: 'string' } } }) }),
          ...(form && {
            post: op('addNote', {
              requestBody: { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { title: { type: 'string' } } } } } },
              responses: ok({ 'text/html': {} }),
            }),
          }),
        },
      },
    });
    const plain = await fromOpenApi(document(false));
    expect(plain.manifest.rcpVersion).toBe('0.1');
    expect(plain.report.documentWarnings).toEqual([]);
    expect(JSON.stringify(plain.manifest)).not.toMatch(/responseMediaTypes|pagination/);
    expect((await fromOpenApi(document(true))).manifest.rcpVersion).toBe('0.2');
  });
});

describe('the imported manifest, end to end with rcp-client on loopback', () => {
  let discovery: RcpDiscovery;
  let client: ReturnType<typeof createRcpClient>;
  const sheet = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0x00, 0x00, 0x01, 0x02]);
  const ITEMS = ['a', 'b', 'c', 'd', 'e'];
  const CHARGES = ['ch_1', 'ch_2', 'ch_3'];

  beforeEach(async () => {
    const { manifest } = await fromOpenApi(resultsDocument());
    api.route('GET /chart', (_request, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(pngBytes());
    });
    api.route('GET /sheet', (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/vnd.ms-excel' });
      res.end(sheet);
    });
    api.route('GET /items', (request, res) => {
      const start = Number(new URLSearchParams(request.rawQuery).get('cursor') ?? '0');
      sendJson(res, 200, {
        items: ITEMS.slice(start, start + 2),
        next_cursor: start + 2 < ITEMS.length ? String(start + 2) : null,
        has_more: start + 2 < ITEMS.length,
      });
    });
    api.route('GET /charges', (request, res) => {
      const after = new URLSearchParams(request.rawQuery).get('starting_after');
      const start = after === null ? 0 : CHARGES.indexOf(after) + 1;
      sendJson(res, 200, { data: CHARGES.slice(start, start + 2).map((id) => ({ id })), has_more: start + 2 < CHARGES.length });
    });
    client = createRcpClient({ retry: 0 });
    discovery = await client.discover(serveManifest(api, manifest));
    api.reset();
  });

  it('a PNG and a declared spreadsheet type (not a client default) arrive as media parts with the same bytes', async () => {
    for (const [name, bytes, type] of [
      ['getChart', pngBytes(), 'image/png'],
      ['getSheet', sheet, 'application/vnd.ms-excel'],
    ] as const) {
      const outcome = await client.call(discovery, { name, arguments: {} });
      if (!outcome.ok) throw outcome.error;
      expect(outcome.result.media?.mediaType).toBe(type);
      expect(sha256(outcome.result.media!.bytes)).toBe(sha256(bytes));
    }
  });

  it.each([
    ['listItems', [['a', 'b'], ['c', 'd'], ['e']], [null, '2', '4']],
    ['listCharges', [['ch_1', 'ch_2'], ['ch_3']], [null, 'ch_2']],
  ] as const)('%s is walked to its last page with result.page', async (name, expectedPages, sentCursors) => {
    const pages: unknown[] = [];
    let args: Json = {};
    for (let turn = 0; turn < 10; turn++) {
      const outcome = await client.call(discovery, { name, arguments: args });
      if (!outcome.ok) throw outcome.error;
      const data = outcome.result.data as { items?: string[]; data?: { id: string }[] };
      pages.push(data.items ?? data.data!.map((entry) => entry.id));
      if (outcome.result.page?.hasMore !== true) {
        expect(outcome.result.page).toEqual({ hasMore: false, nextArguments: null });
        break;
      }
      args = outcome.result.page.nextArguments as Json;
    }
    expect(pages).toEqual(expectedPages);
    const key = name === 'listItems' ? 'cursor' : 'starting_after';
    expect(api.requests.map((request) => new URLSearchParams(request.rawQuery).get(key))).toEqual(sentCursors);
  });
});
