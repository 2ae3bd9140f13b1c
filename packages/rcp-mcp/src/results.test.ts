/**
 * Results through the gateway (docs/behaviour.md, the gateway; §18.3, §18.4): real MCP clients against
 * the gateway over the shared results API on 127.0.0.1 — media in MCP's native shapes with the
 * right bytes, the output schema and structuredContent checked against each other with ajv, a
 * paginated tool walked by what each result says, the long Retry-After in what the model reads —
 * asserting what the API received.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Ajv from 'ajv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient, type RcpClient } from 'rcp-client';
import {
  RESULTS_ARCHIVE_BYTES,
  RESULTS_MAX_MEDIA_BYTES,
  RESULTS_RECORDS,
  RESULTS_RETRY_AFTER_SECONDS,
  pdfBytes,
  pngBytes,
  sendJson,
  sha256,
  startResultsApi,
  startTestServer,
  type TestServer,
} from 'rcp-test-utils';
import { createRcpMcpHttpHandler, type RcpMcpGatewayOptions } from './index';

type Content = { type: string; text?: string; data?: string; mimeType?: string; resource?: { uri: string; mimeType?: string; blob?: string } };
type ToolResult = { content: Content[]; isError?: boolean; structuredContent?: Record<string, unknown> };
type Host = {
  listTools(): Promise<{ tools: { name: string; outputSchema?: object }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
};

let api: TestServer;
let manifestUrl: string;
const closers: (() => Promise<unknown>)[] = [];
beforeEach(async () => {
  ({ server: api, manifestUrl } = await startResultsApi());
  closers.push(() => api.close());
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A gateway on 127.0.0.1 over `source`, its API's log cleared of discovery. */
async function startGateway(client: RcpClient, source: RcpMcpGatewayOptions['source']): Promise<URL> {
  const handler = createRcpMcpHttpHandler({ client, source, authenticate: () => ({}) });
  const gateway: Server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => gateway.close(resolve)));
  return new URL(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}/mcp`);
}

const hosts = {
  'the v1 SDK client (2025 era)': async (url: URL): Promise<Host> => {
    const host = new ClientV1({ name: 'host-v1', version: '1.0.0' });
    await host.connect(new HttpTransportV1(url));
    return host as unknown as Host;
  },
  'the v2 SDK client (2026-07-28 era)': async (url: URL): Promise<Host> => {
    const host = new ClientV2({ name: 'host-v2', version: '1.0.0' });
    await host.connect(new HttpTransportV2(url));
    return host as unknown as Host;
  },
};

/** The requests the results API received for tools, with their queries. */
const toolCalls = () => api.requests.filter((request) => request.path !== '/rcp/manifest').map((request) => `${request.method} ${request.url}`);

/** What the model reads of a result: its first content, toModelText's JSON. */
const modelText = (result: ToolResult): Record<string, unknown> => {
  expect(result.content[0]!.type).toBe('text');
  return JSON.parse(result.content[0]!.text!) as Record<string, unknown>;
};

describe.each(Object.entries(hosts))('with %s', (_name, connect) => {
  let host: Host;
  beforeEach(async () => {
    // The CLI's defaults but the media cap, so that get_archive is too large.
    const client = createRcpClient({ maxMediaBytes: RESULTS_MAX_MEDIA_BYTES });
    host = await connect(await startGateway(client, await client.discover(manifestUrl)));
    closers.push(() => host.close());
    api.reset();
  });

  const call = async (name: string, args: Record<string, unknown> = {}) => (await host.callTool({ name, arguments: args })) as ToolResult;

  it('a PNG is MCP image content and a PDF an embedded resource with a blob: the exact bytes, the text says what and how big', async () => {
    const chart = await call('get_chart');
    expect(chart.isError).not.toBe(true);
    expect(chart.content).toHaveLength(2);
    expect(modelText(chart)).toEqual({ ok: true, data: null, media: { mediaType: 'image/png', size: pngBytes().byteLength } });
    expect(chart.content[1]).toEqual({ type: 'image', mimeType: 'image/png', data: expect.any(String) });
    expect(sha256({ base64: chart.content[1]!.data! })).toBe(sha256(pngBytes()));
    expect(chart.structuredContent).toBeUndefined(); // the data is null: no structured content

    const report = await call('get_report');
    expect(modelText(report)).toEqual({ ok: true, data: null, media: { mediaType: 'application/pdf', size: pdfBytes().byteLength } });
    expect(report.content[1]).toEqual({ type: 'resource', resource: { uri: 'rcp-media:get_report', mimeType: 'application/pdf', blob: expect.any(String) } });
    expect(sha256({ base64: report.content[1]!.resource!.blob! })).toBe(sha256(pdfBytes()));
    // The bytes are never in the text (no double encoding, no "PDF as text").
    expect(report.content[0]!.text).not.toContain(report.content[1]!.resource!.blob!.slice(0, 16));

    expect(toolCalls()).toEqual(['GET /chart.png', 'GET /report.pdf']);
  });

  it('a binary over maxMediaBytes is an isError result naming its size; a long Retry-After reaches the model as retryAfterSeconds', async () => {
    const archive = await call('get_archive');
    expect(archive.isError).toBe(true);
    expect(archive.content).toHaveLength(1);
    expect(modelText(archive)).toEqual({
      ok: false,
      error: {
        code: 'RCP_RESPONSE_TOO_LARGE',
        message: `The tool answered with application/octet-stream of ${RESULTS_ARCHIVE_BYTES} bytes, more than the ${RESULTS_MAX_MEDIA_BYTES} bytes the client passes on.`,
      },
    });

    const busy = await call('get_busy');
    expect(busy.isError).toBe(true);
    const read = modelText(busy) as { ok: false; error: { code: string; message: string; retryAfterSeconds: number } };
    expect(read.error).toMatchObject({ code: 'RCP_HTTP_ERROR', retryAfterSeconds: RESULTS_RETRY_AFTER_SECONDS });
    expect(read.error.message).toContain(`called again in ${RESULTS_RETRY_AFTER_SECONDS} seconds`);

    // Each was asked once: the long wait is the model's to honour, not the gateway's to sleep.
    expect(toolCalls()).toEqual(['GET /archive.bin', 'GET /busy']);
  });

  it('a tool with an output schema is listed with it, and its structuredContent validates against it (ajv)', async () => {
    const { tools } = await host.listTools();
    const listed = Object.fromEntries(tools.map((tool) => [tool.name, tool.outputSchema]));
    const discovery = await createRcpClient().discover(manifestUrl);
    expect(listed).toEqual({
      get_chart: undefined,
      get_report: undefined,
      get_archive: undefined,
      list_records: discovery.tool('list_records').outputSchema,
      get_busy: undefined,
      get_record: discovery.tool('get_record').outputSchema,
    });
    const validate = new Ajv({ strict: true }).compile(listed.get_record!);
    const record = await call('get_record', { id: 'r-2' });
    expect(record.structuredContent).toEqual({ id: 'r-2', title: 'Beta' }); // the mapped data, not the response
    expect(validate(record.structuredContent)).toBe(true);
    expect(modelText(record)).toEqual({ ok: true, data: { id: 'r-2', title: 'Beta' } });
    // The schema says something: the response as sent would not pass it.
    expect(validate({ id: 'r-2', title: 'Beta', internal: 'x' })).toBe(false);
  });

  it('a host walks list_records to its last page using only what each result says', async () => {
    const { tools } = await host.listTools();
    const validate = new Ajv({ strict: true }).compile(tools.find((tool) => tool.name === 'list_records')!.outputSchema!);
    const seen: unknown[] = [];
    let args: Record<string, unknown> | null = {};
    let pages = 0;
    while (args !== null && pages < 10) {
      const result = await call('list_records', args);
      pages += 1;
      expect(validate(result.structuredContent)).toBe(true);
      const read = modelText(result) as { data: { records: unknown[] }; page?: { hasMore: boolean; nextArguments: Record<string, unknown> | null } };
      seen.push(...read.data.records);
      args = read.page?.hasMore === true ? read.page.nextArguments : null;
    }
    expect(seen).toEqual(RESULTS_RECORDS);
    expect(pages).toBe(3);
    expect(toolCalls()).toEqual(['GET /records', 'GET /records?cursor=c2', 'GET /records?cursor=c4']);
  });
});

it('data that is not a JSON object is the text alone: an array, a string, null carry no structuredContent', async () => {
  // docs/behaviour.md (the gateway): structuredContent only for an object, so every era's host reads one shape.
  const other = await startTestServer();
  closers.push(() => other.close());
  const manifest = {
    rcpVersion: '0.1',
    tools: [
      { name: 'list_tags', description: 'Lists tags.', method: 'GET', url: '/tags' },
      { name: 'get_motd', description: 'Gets the message of the day.', method: 'GET', url: '/motd' },
      { name: 'get_nothing', description: 'Gets nothing.', method: 'GET', url: '/nothing' },
    ],
  };
  other.route('GET /rcp/manifest', (_request, res) => sendJson(res, 200, manifest));
  other.route('GET /tags', (_request, res) => sendJson(res, 200, ['a', 'b']));
  other.route('GET /motd', (_request, res) => sendJson(res, 200, 'hello'));
  other.route('GET /nothing', (_request, res) => sendJson(res, 200, null));
  const client = createRcpClient();
  const url = await startGateway(client, await client.discover(other.url('/rcp/manifest')));
  for (const connect of Object.values(hosts)) {
    const host = await connect(url);
    closers.push(() => host.close());
    for (const [name, data] of [
      ['list_tags', ['a', 'b']],
      ['get_motd', 'hello'],
      ['get_nothing', null],
    ] as const) {
      const result = (await host.callTool({ name, arguments: {} })) as ToolResult;
      expect(result).toEqual({ content: [{ type: 'text', text: JSON.stringify({ ok: true, data }) }] });
    }
  }
});
