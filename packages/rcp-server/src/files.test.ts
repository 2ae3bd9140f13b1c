/**
 * File uploads on the server side (docs/behaviour.md; SPEC §20.7): a tool with `file` params and
 * `bodyEncoding: "multipart"` publishes them in an RCP 0.4 manifest; rcp-client uploads a PNG and
 * a PDF through its `files` resolver and the handler receives the exact bytes (SHA-256), names,
 * media types and the text fields, on every framework. A file over its param's `maxBytes`, over
 * the server's `maxUploadBytes`, of a type the param does not accept, a malformed body, another
 * Content-Type or a misplaced part is a problem response, and the handler is never called.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRcpClient, type RcpResolvedFile } from 'rcp-client';
import { pdfBytes, pngBytes, sha256 } from 'rcp-test-utils';
import { createRcpServer, type ReceivedFile, type RcpServer } from './index';
import { frameworks, type Running } from './test/fixture';

type Seen = { tool: string; values: Record<string, unknown> }[];

/** One upload tool with an image and an optional document, and text fields of several types. */
function uploadServer(seen: Seen, options: { maxUploadBytes?: number } = {}): RcpServer {
  return createRcpServer({
    ...options,
    tools: (tool) => [
      tool({
        name: 'upload_report',
        description: 'Uploads a chart and its report.',
        method: 'POST',
        path: '/reports',
        params: [
          { name: 'chart', type: 'file', required: true, mediaTypes: ['image/*'], maxBytes: 4_096 },
          { name: 'report', type: 'file', mediaTypes: ['application/pdf'] },
          { name: 'title', required: true },
          { name: 'pages', type: 'integer' },
          { name: 'tags', type: 'array', items: { type: 'string' } },
        ],
        body: { chart: '{{chart}}', report: '{{report}}', title: '{{title}}', pages: '{{pages}}', tags: '{{tags}}' },
        bodyEncoding: 'multipart',
        handler: ({ values }) => {
          seen.push({ tool: 'upload_report', values: { ...values } });
          const file = (received: ReceivedFile | undefined) =>
            received && { filename: received.filename, mediaType: received.mediaType, size: received.size, sha256: sha256(received.bytes) };
          return { chart: file(values.chart), report: file(values.report), title: values.title, pages: values.pages, tags: values.tags };
        },
      }),
    ],
  });
}

const attachments: Record<string, RcpResolvedFile> = {
  'att-chart': { bytes: pngBytes(), mediaType: 'image/png', filename: 'chart.png' },
  'att-report': { bytes: pdfBytes(), mediaType: 'application/pdf', filename: 'Q3 "final".pdf' },
};

let running: Running | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe.each(frameworks)('uploads through $name', (framework) => {
  it('rcp-client uploads a PNG and a PDF: the handler receives the exact bytes, names, types and the text fields', async () => {
    const seen: Seen = [];
    const server = uploadServer(seen);
    expect(server.manifest.rcpVersion).toBe('0.4');
    expect(server.manifest.tools[0]!.params![0]).toEqual({ name: 'chart', type: 'file', required: true, mediaTypes: ['image/*'], maxBytes: 4_096 });
    running = await framework.start(server);
    const client = createRcpClient({ retry: 0, files: (reference) => attachments[reference] });
    const discovery = await client.discover(`${running.origin}/rcp/manifest`);
    const result = await client.execute(discovery.tool('upload_report'), {
      chart: 'att-chart',
      report: 'att-report',
      title: 'Q3',
      pages: 12,
      tags: ['finance', 'q3'],
    });
    expect(result.data).toEqual({
      chart: { filename: 'chart.png', mediaType: 'image/png', size: pngBytes().byteLength, sha256: sha256(pngBytes()) },
      // The client escapes a quote in a filename as %22 (SPEC §20.7); the platform's parser reads it back.
      report: { filename: 'Q3 "final".pdf', mediaType: 'application/pdf', size: pdfBytes().byteLength, sha256: sha256(pdfBytes()) },
      title: 'Q3',
      pages: 12,
      tags: ['finance', 'q3'],
    });
    expect(seen).toHaveLength(1);
    const chart = seen[0]!.values.chart as ReceivedFile;
    expect(Buffer.from(await new Response(chart.stream()).arrayBuffer())).toEqual(Buffer.from(pngBytes()));
  });
});

/** A multipart body written by hand (the parts exactly as given), posted to the upload tool. */
function multipart(parts: readonly { name: string; filename?: string; type?: string; body: string | Uint8Array }[], boundary = 'b0undary'): Blob {
  const chunks: (string | Uint8Array)[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    chunks.push(
      `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type === undefined ? '' : `Content-Type: ${part.type}\r\n`}\r\n`,
      part.body,
      '\r\n',
    );
  }
  chunks.push(`--${boundary}--\r\n`);
  return new Blob(chunks);
}

const png = { name: 'chart', filename: 'chart.png', type: 'image/png', body: pngBytes() };

describe('what the server refuses, the handler never called', () => {
  async function post(body: Blob | string, contentType = 'multipart/form-data; boundary=b0undary', options: { maxUploadBytes?: number } = {}) {
    const seen: Seen = [];
    running = await frameworks[0]!.start(uploadServer(seen, options));
    const response = await fetch(`${running.origin}/reports`, { method: 'POST', headers: { 'content-type': contentType }, body });
    const problem = (await response.json()) as { status: number; code: string; detail: string; errors?: { pointer: string; detail: string }[] };
    expect(seen).toEqual([]);
    await running.close();
    running = undefined;
    return { ...problem, status: response.status, contentType: response.headers.get('content-type') };
  }

  it('a well-formed body is accepted (the control for the refusals below)', async () => {
    const seen: Seen = [];
    running = await frameworks[0]!.start(uploadServer(seen));
    const response = await fetch(`${running.origin}/reports`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=b0undary' },
      body: multipart([png, { name: 'title', body: 'Q3' }]),
    });
    expect(response.status).toBe(200);
    expect(seen).toHaveLength(1);
  });

  it("a file over its param's maxBytes: 413 at the param", async () => {
    const big = { ...png, body: new Uint8Array(4_097) };
    expect(await post(multipart([big, { name: 'title', body: 'Q3' }]))).toMatchObject({
      status: 413,
      contentType: 'application/problem+json',
      code: 'RCP_INVALID_ARGUMENTS',
      errors: [{ pointer: '/chart', detail: 'must be at most 4096 bytes' }],
    });
  });

  it("a body over the server's maxUploadBytes: 413, the body read no further", async () => {
    const report = { name: 'report', filename: 'r.pdf', type: 'application/pdf', body: new Uint8Array(64 * 1024) };
    expect(await post(multipart([png, report, { name: 'title', body: 'Q3' }]), undefined, { maxUploadBytes: 16 * 1024 })).toMatchObject({
      status: 413,
      code: 'RCP_INVALID_ARGUMENTS',
      detail: 'The body is larger than 16384 bytes',
    });
  });

  it('a media type the param does not accept, a text field for a file, a file for a text field, a missing file, an unknown field: 400 with each pointer', async () => {
    const problem = await post(
      multipart([
        { ...png, type: 'text/plain' },
        { name: 'report', body: 'not a file' },
        { name: 'title', filename: 'title.txt', type: 'text/plain', body: 'Q3' },
        { name: 'owner', body: 'u-9' },
      ]),
    );
    expect(problem).toMatchObject({ status: 400, code: 'RCP_INVALID_ARGUMENTS' });
    expect(problem.errors).toEqual([
      { pointer: '/chart', detail: 'must be a file of a media type this param accepts (image/*)' },
      { pointer: '/report', detail: 'must be a file part (got a text field)' },
      { pointer: '/title', detail: 'must be a text field, not a file' },
      { pointer: '/owner', detail: 'is not a parameter of this tool' },
      { pointer: '/title', detail: 'is required' },
    ]);
    expect((await post(multipart([{ name: 'title', body: 'Q3' }]))).errors).toEqual([{ pointer: '/chart', detail: 'is required' }]);
  });

  it('a malformed body: 400; another Content-Type: 415', async () => {
    const truncated = `--b0undary\r\nContent-Disposition: form-data; name="title"\r\n\r\nQ3`;
    expect(await post(truncated)).toMatchObject({ status: 400, code: 'RCP_INVALID_ARGUMENTS', detail: 'The body is not valid multipart/form-data' });
    expect(await post(multipart([png]), 'multipart/form-data; boundary=another')).toMatchObject({ status: 400 });
    expect(await post(JSON.stringify({ title: 'Q3' }), 'application/json')).toMatchObject({
      status: 415,
      code: 'RCP_INVALID_ARGUMENTS',
      detail: 'The body must be multipart/form-data',
    });
  });
});
