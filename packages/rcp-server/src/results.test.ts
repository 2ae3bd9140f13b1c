/**
 * Results on the server side (docs/behaviour.md; SPEC §18.3, §18.4): a tool may declare `responseMediaTypes`
 * and `pagination`, which makes the served manifest RCP 0.3; a handler answers with bytes in a
 * `Response` or returns them (`Uint8Array`, `Buffer`, `Blob` …); rcp-client gets the same bytes
 * as a media part and walks a cursor to its last page with `result.page`, on every framework.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient, toModelResult } from 'rcp-client';
import { isRcpError } from 'rcp-errors';
import { parseManifest } from 'rcp-manifest';
import { pdfBytes, pngBytes, RESULTS_RECORDS, sha256 } from 'rcp-test-utils';
import { createRcpServer, defineTool, type RcpServer } from './index';
import { creationError, frameworks, type Running } from './test/fixture';

const bytesResponse = (bytes: Uint8Array, type: string) => new Response(bytes, { headers: { 'content-type': type } });

function resultsServer(cursors: (string | undefined)[], options: { rcpVersion?: '0.1' | '0.2' | '0.3' } = {}): RcpServer {
  return createRcpServer({
    ...options,
    tools: [
      defineTool({
        name: 'get_chart',
        description: 'Gets the sales chart as an image.',
        method: 'GET',
        path: '/chart.png',
        handler: () => bytesResponse(pngBytes(), 'image/png'),
      }),
      defineTool({
        name: 'get_report',
        description: 'Gets the monthly report as a PDF.',
        method: 'GET',
        path: '/report',
        responseMediaTypes: ['application/pdf'],
        handler: () => bytesResponse(pdfBytes(), 'application/pdf'),
      }),
      defineTool({
        name: 'list_records',
        description: 'Lists records, two per page.',
        method: 'GET',
        path: '/records',
        params: [{ name: 'cursor', type: 'string', description: 'Where the page starts (from the previous page)' }],
        queryParams: { cursor: '{{cursor}}' },
        pagination: { nextCursor: '@next', param: 'cursor' },
        handler: ({ values }) => {
          const cursor = values.cursor as string | undefined;
          cursors.push(cursor);
          const start = cursor === undefined ? 0 : Number(cursor.slice(1));
          const end = start + 2;
          return { items: RESULTS_RECORDS.slice(start, end), next: end < RESULTS_RECORDS.length ? `c${end}` : null };
        },
      }),
    ],
  });
}

describe('a manifest with response media types or pagination is RCP 0.3', () => {
  it('is served as "0.3" with both fields as declared; a manifest without them keeps its version', () => {
    const server = resultsServer([]);
    expect(server.manifest.rcpVersion).toBe('0.3');
    expect(server.manifest.tools[1]).toMatchObject({ responseMediaTypes: ['application/pdf'] });
    expect(server.manifest.tools[2]).toMatchObject({ pagination: { nextCursor: '@next', param: 'cursor' } });
    const plain = createRcpServer({
      tools: [defineTool({ name: 'ping', description: 'Pings.', method: 'GET', path: '/ping', handler: () => bytesResponse(pngBytes(), 'image/png') })],
    });
    expect(plain.manifest.rcpVersion).toBe('0.1');
  });

  it.each([
    ['0.1', '/tools/1/responseMediaTypes'],
    ['0.2', '/tools/1/responseMediaTypes'],
  ] as const)('refuses a declared rcpVersion %s with rcp-manifest’s own issue (RCP_INVALID_MANIFEST at %s)', (version, pointer) => {
    const error = creationError(() => resultsServer([], { rcpVersion: version }));
    expect(isRcpError(error, 'RCP_INVALID_MANIFEST')).toBe(true);
    const paths = (error as { issues: { path: string }[] }).issues.map((issue) => issue.path);
    expect(paths).toEqual([pointer, '/tools/2/pagination']);
  });

  it('refuses a pagination param that is not declared and a media type range "*/*", at their pointers', () => {
    const error = creationError(() =>
      createRcpServer({
        tools: [
          defineTool({
            name: 'list',
            description: 'Lists.',
            method: 'GET',
            path: '/list',
            // No params are declared, so no names are inferred and the type system lets "page" through.
            pagination: { nextCursor: '@next', param: 'page' },
            responseMediaTypes: ['*/*'],
            handler: () => undefined,
          }),
        ],
      }),
    );
    expect(isRcpError(error, 'RCP_INVALID_MANIFEST')).toBe(true);
    const paths = (error as { issues: { path: string }[] }).issues.map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(['/tools/0/responseMediaTypes/0', '/tools/0/pagination/param']));
  });
});

describe.each(frameworks)('rcp-client against rcp-server on $name: media and pages', (framework) => {
  let running: Running;
  let cursors: (string | undefined)[];
  beforeEach(async () => {
    cursors = [];
    running = await framework.start(resultsServer(cursors));
  });
  afterEach(() => running.close());

  it('discovers the 0.3 manifest; a PNG and a PDF arrive as media parts with the same bytes', async () => {
    const client = createRcpClient({ retry: 0 });
    const discovery = await client.discover(`${running.origin}/rcp/manifest`);
    expect(parseManifest(JSON.stringify(discovery.manifest)).rcpVersion).toBe('0.3');
    for (const [name, bytes, type] of [
      ['get_chart', pngBytes(), 'image/png'],
      ['get_report', pdfBytes(), 'application/pdf'],
    ] as const) {
      const outcome = await client.call(discovery, { name, arguments: {} });
      if (!outcome.ok) throw outcome.error;
      expect(outcome.result.data).toBeNull();
      expect(outcome.result.media?.mediaType).toBe(type);
      expect(sha256(outcome.result.media!.bytes)).toBe(sha256(bytes));
      const model = toModelResult(outcome);
      expect(model.ok && model.media).toMatchObject({ mediaType: type, size: bytes.byteLength });
      expect(sha256({ base64: (model.ok && model.media?.data) || '' })).toBe(sha256(bytes));
    }
  });

  it('walks a cursor-paginated tool to its last page with result.page', async () => {
    const client = createRcpClient({ retry: 0 });
    const discovery = await client.discover(`${running.origin}/rcp/manifest`);
    const seen: unknown[] = [];
    let args: Record<string, unknown> = {};
    for (let turn = 0; turn < 10; turn++) {
      const outcome = await client.call(discovery, { name: 'list_records', arguments: args });
      if (!outcome.ok) throw outcome.error;
      seen.push(...(outcome.result.data as { items: unknown[] }).items);
      const page = outcome.result.page;
      if (page?.hasMore !== true) {
        expect(page).toEqual({ hasMore: false, nextArguments: null });
        break;
      }
      args = page.nextArguments as Record<string, unknown>;
    }
    expect(seen).toEqual(RESULTS_RECORDS);
    expect(cursors).toEqual([undefined, 'c2', 'c4']);
  });
});

/** Bytes returned as they are (no `Response`): each tool answers with the same PNG in another container. */
function bytesServer(): RcpServer {
  const tool = (name: string, handler: () => unknown, responseMediaTypes?: readonly string[]) =>
    defineTool({
      name,
      description: `Gets the chart (${name}).`,
      method: 'GET',
      path: `/${name}`,
      ...(responseMediaTypes !== undefined && { responseMediaTypes }),
      handler,
    });
  return createRcpServer({
    tools: [
      tool('uint8array_declared', () => pngBytes(), ['image/png']),
      tool('arraybuffer_declared', () => pngBytes().slice().buffer, ['image/png']),
      // A small Buffer is a view into Node's shared pool: only its own bytes may be sent.
      tool('buffer_undeclared', () => Buffer.from(pngBytes())),
      tool('dataview_range', () => {
        const bytes = pngBytes();
        return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      }, ['image/*']),
      tool('blob_typed', () => new Blob([pngBytes()], { type: 'image/png' })),
      tool('two_declared', () => pngBytes(), ['image/png', 'application/pdf']),
    ],
  });
}

describe.each(frameworks)('a handler returning bytes on $name (docs/behaviour.md, the handler step)', (framework) => {
  let running: Running;
  beforeEach(async () => {
    running = await framework.start(bytesServer());
  });
  afterEach(() => running.close());

  it.each([
    ['uint8array_declared', 'image/png'],
    ['arraybuffer_declared', 'image/png'],
    ['buffer_undeclared', 'application/octet-stream'],
    ['dataview_range', 'application/octet-stream'],
    ['blob_typed', 'image/png'],
    ['two_declared', 'application/octet-stream'],
  ])('%s: rcp-client execute receives exactly the bytes, typed %s', async (name, type) => {
    const client = createRcpClient({ retry: 0 });
    const discovery = await client.discover(`${running.origin}/rcp/manifest`);
    const result = await client.execute(discovery.tool(name), {});
    expect(result.data).toBeNull();
    expect(result.media?.mediaType).toBe(type);
    expect(result.media?.bytes.byteLength).toBe(pngBytes().byteLength);
    expect(sha256(result.media!.bytes)).toBe(sha256(pngBytes()));
  });

  it('sends the bytes on the wire with the type and a describedby link, never as JSON {"0":…}', async () => {
    const response = await fetch(`${running.origin}/buffer_undeclared`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('link')).toBe('</rcp/manifest>; rel="describedby"');
    expect(sha256(new Uint8Array(await response.arrayBuffer()))).toBe(sha256(pngBytes()));
  });
});
