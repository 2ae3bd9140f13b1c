/**
 * File params through the gateway (docs/behaviour.md, the gateway; SPEC §20.7): the v1 and v2 MCP
 * SDK clients list a tool with a file param and see it marked `x-mcp-file` (accept, maxSize); a URI
 * the host sends is handed to the operator's `files` resolver as the reference — the gateway
 * reads nothing itself — and the API receives the resolver's bytes exactly (SHA-256); a `data:`
 * URI or a path is refused before the resolver runs, and nothing is sent.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { pngBytes, sendJson, serveManifest, sha256, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpMcpHttpHandler } from './index';

type ToolResult = { content: { type: string; text?: string }[]; isError?: boolean };
type Host = {
  listTools(): Promise<{ tools: { name: string; inputSchema: { properties: Record<string, Record<string, unknown>> } }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
};

let api: TestServer;
const closers: (() => Promise<unknown>)[] = [];
beforeEach(async () => {
  api = await startTestServer();
  closers.push(() => api.close());
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** The references the operator's resolver was asked for, in order. */
let asked: string[] = [];

async function startGateway(): Promise<URL> {
  api.route('POST /images', (request, res) => sendJson(res, 201, { received: request.bytes.byteLength }));
  const manifestUrl = serveManifest(api, {
    rcpVersion: '0.4',
    tools: [
      {
        name: 'upload_image',
        description: 'Uploads an image.',
        method: 'POST',
        url: '/images',
        params: [{ name: 'image', type: 'file', required: true, mediaTypes: ['image/png', 'image/jpeg'], maxBytes: 1_000_000 }, { name: 'caption' }],
        body: { image: '{{image}}', caption: '{{caption}}' },
        bodyEncoding: 'multipart',
      },
    ],
  });
  asked = [];
  // The operator's resolver: it decides what a reference is (here, one URI it knows); the gateway never reads one.
  const client = createRcpClient({
    retry: 0,
    files: (reference: string) => {
      asked.push(reference);
      return reference === 'https://files.example/att/42' ? { bytes: pngBytes(), mediaType: 'image/png', filename: 'chart.png' } : undefined;
    },
  });
  const handler = createRcpMcpHttpHandler({ client, source: await client.discover(manifestUrl), authenticate: () => ({}) });
  const gateway: Server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => gateway.close(resolve)));
  api.reset();
  return new URL(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}/mcp`);
}

const hosts = {
  'the v1 SDK client (2025 era)': async (url: URL): Promise<Host> => {
    const host = new ClientV1({ name: 'host-v1', version: '1.0.0' });
    await host.connect(new HttpTransportV1(url));
    closers.push(() => host.close());
    return host as unknown as Host;
  },
  'the v2 SDK client (2026-07-28 era)': async (url: URL): Promise<Host> => {
    const host = new ClientV2({ name: 'host-v2', version: '1.0.0' });
    await host.connect(new HttpTransportV2(url));
    closers.push(() => host.close());
    return host as unknown as Host;
  },
};

describe.each(Object.entries(hosts))('a file param through the gateway, with %s', (_name, connect) => {
  it('is listed marked x-mcp-file (accept, maxSize); a URI the host sends goes to the resolver, and the API receives its bytes', async () => {
    const host = await connect(await startGateway());
    const [tool] = (await host.listTools()).tools;
    expect(tool!.inputSchema.properties['image']).toMatchObject({
      type: 'string',
      'x-mcp-file': { accept: ['image/png', 'image/jpeg'], maxSize: 1_000_000 },
      'x-rcp-file': { mediaTypes: ['image/png', 'image/jpeg'], maxBytes: 1_000_000 },
    });
    expect(tool!.inputSchema.properties['caption']!['x-mcp-file']).toBeUndefined();

    const result = (await host.callTool({ name: 'upload_image', arguments: { image: 'https://files.example/att/42', caption: 'Q3' } })) as ToolResult;
    expect(result.isError).not.toBe(true);
    expect(asked).toEqual(['https://files.example/att/42']);
    expect(api.requests).toHaveLength(1);
    const received = api.requests[0]!;
    const form = await new Response(received.bytes, { headers: { 'content-type': String(received.headers['content-type']) } }).formData();
    const image = form.get('image') as File;
    expect([image.name, image.type, sha256(new Uint8Array(await image.arrayBuffer()))]).toEqual(['chart.png', 'image/png', sha256(pngBytes())]);
    expect(form.get('caption')).toBe('Q3');
  });

  it('a data: URI or a path is refused before the resolver runs; nothing is sent', async () => {
    const host = await connect(await startGateway());
    for (const image of ['data:image/png;base64,iVBORw0KGgo=', '/etc/passwd', 'file:///etc/passwd']) {
      const result = (await host.callTool({ name: 'upload_image', arguments: { image } })) as ToolResult;
      expect(result.isError, image).toBe(true);
      expect(JSON.parse(result.content[0]!.text!)).toMatchObject({ ok: false, error: { code: 'RCP_INVALID_ARGUMENTS' } });
    }
    expect(asked).toEqual([]);
    expect(api.requests).toEqual([]);
  });
});
