/**
 * File params and multipart bodies (RCP 0.4, SPEC §20.7): the model names an attachment, the
 * client's `files` resolver gives the bytes, the client checks them against the param's and its
 * own limits and sends them as a multipart part — on both transports, byte for byte, parsed here
 * by an independent parser (undici's `Response.formData()`), with nothing sent when a rule refuses.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pdfBytes, pngBytes } from 'rcp-test-utils';
import { approve, createRcpClient, toModelResult, type RcpClientOptions, type RcpFileResolver } from 'rcp-client';
import { errorText, rejectsWith } from './internal/testing';

/** What the API received of one upload: its headers and its raw body bytes. */
interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

let server: Server;
let origin: string;
let received: Received[];
let manifest: unknown;

beforeEach(async () => {
  received = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/rcp/manifest') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(manifest));
        return;
      }
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"file-1"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  manifest = {
    rcpVersion: '0.4',
    tools: [
      {
        name: 'upload_file',
        description: 'Uploads a file.',
        method: 'POST',
        url: '/v1/files',
        params: [
          { name: 'file', type: 'file', required: true, description: 'The file to upload.', mediaTypes: ['image/png', 'application/pdf'], maxBytes: 4096 },
          { name: 'purpose', required: true },
          { name: 'tags', type: 'array', items: { type: 'string' } },
          { name: 'private', type: 'boolean' },
          { name: 'note' },
        ],
        bodyEncoding: 'multipart',
        body: { purpose: '{{purpose}}', file: '{{file}}', tags: '{{tags}}', private: '{{private}}', note: '{{note}}' },
      },
    ],
  };
});
afterEach(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The attachments the host holds, by reference. */
const attachments: Record<string, { bytes: Uint8Array; mediaType: string; filename: string }> = {
  'att-png': { bytes: pngBytes(), mediaType: 'image/png', filename: 'chart.png' },
  'att-pdf': { bytes: pdfBytes(), mediaType: 'application/pdf', filename: 'report "Q3".pdf' },
  'att-text': { bytes: new TextEncoder().encode('plain'), mediaType: 'text/plain', filename: 'notes.txt' },
  'att-big': { bytes: new Uint8Array(5000), mediaType: 'image/png', filename: 'big.png' },
};
const files: RcpFileResolver = (reference) => attachments[reference];

const transports = [
  ['the Node transport', {}],
  ['the fetch transport', { fetch: (input: string | URL | Request, init?: RequestInit) => globalThis.fetch(input, init) }],
] as const;

async function setup(options: RcpClientOptions = {}) {
  const client = createRcpClient({ retry: 0, files, ...options });
  const discovery = await client.discover(`${origin}/rcp/manifest`);
  return { client, tool: discovery.tool('upload_file') };
}

/** The parts of a received body, parsed by undici's multipart parser (not the client's encoder). */
async function partsOf(upload: Received) {
  const form = await new Response(upload.body, { headers: { 'content-type': upload.headers['content-type']! } }).formData();
  const parts: Record<string, unknown>[] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') parts.push({ name, value });
    else parts.push({ name, filename: value.name, type: value.type, sha256: sha256(new Uint8Array(await value.arrayBuffer())) });
  }
  return parts;
}

describe.each(transports)('an upload on %s', (_name, transportOptions) => {
  it('sends a real PNG and a real PDF byte for byte, with the text fields as parts', async () => {
    const { client, tool } = await setup(transportOptions);
    await client.execute(tool, { file: 'att-png', purpose: 'assistants', tags: ['a', 'b'], private: true });
    await client.execute(tool, { file: 'att-pdf', purpose: 'vision' });
    expect(received).toHaveLength(2);
    const [png, pdf] = received;
    expect(png!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=rcp-[0-9a-f]{32}$/);
    expect(png!.headers['content-length']).toBe(String(png!.body.byteLength));
    expect(png!.headers['content-type']).not.toBe(pdf!.headers['content-type']); // a random boundary per request
    expect(await partsOf(png!)).toEqual([
      { name: 'purpose', value: 'assistants' },
      { name: 'file', filename: 'chart.png', type: 'image/png', sha256: sha256(pngBytes()) },
      { name: 'tags', value: '["a","b"]' },
      { name: 'private', value: 'true' },
    ]);
    expect(await partsOf(pdf!)).toEqual([
      { name: 'purpose', value: 'vision' },
      { name: 'file', filename: 'report "Q3".pdf', type: 'application/pdf', sha256: sha256(pdfBytes()) },
    ]);
    // The quote is written as the WHATWG form encoder writes it, so it cannot end the parameter.
    expect(pdf!.body.toString('latin1')).toContain(
      'Content-Disposition: form-data; name="file"; filename="report %22Q3%22.pdf"\r\nContent-Type: application/pdf\r\n',
    );
  });

  it('sends a stream the resolver gives, byte for byte', async () => {
    const bytes = pdfBytes();
    const { client, tool } = await setup({
      ...transportOptions,
      files: () => ({
        stream: new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(bytes.slice(0, 100));
            controller.enqueue(bytes.slice(100));
            controller.close();
          },
        }),
        size: bytes.byteLength,
        mediaType: 'application/pdf',
        filename: 'r.pdf',
      }),
    });
    await client.execute(tool, { file: 'att-x', purpose: 'p' });
    expect(await partsOf(received[0]!)).toEqual([
      { name: 'purpose', value: 'p' },
      { name: 'file', filename: 'r.pdf', type: 'application/pdf', sha256: sha256(bytes) },
    ]);
  });
});

describe('the review of an upload', () => {
  it("shows each file's param, name, media type, size and SHA-256; an approval for other bytes is refused, nothing sent", async () => {
    let current = pngBytes();
    const { client, tool } = await setup({
      approval: 'writes',
      files: () => ({ bytes: current, mediaType: 'image/png', filename: 'chart.png' }),
    });
    const review = await client.review(tool, { file: 'att-png', purpose: 'assistants' });
    expect(review.request.headers['content-type']).toBe('multipart/form-data');
    expect(review.request.body).toEqual({
      multipart: [
        { name: 'purpose', value: 'assistants' },
        { name: 'file', param: 'file', filename: 'chart.png', mediaType: 'image/png', size: pngBytes().byteLength, sha256: sha256(pngBytes()) },
      ],
    });
    // The resolver now gives other bytes for the same reference: not what the person approved.
    current = new Uint8Array(pngBytes());
    current[current.length - 1] = current[current.length - 1]! ^ 0xff;
    await rejectsWith(client.execute(tool, { file: 'att-png', purpose: 'assistants' }, undefined, { approval: approve(review) }), 'RCP_APPROVAL_MISMATCH');
    expect(received).toHaveLength(0);
    // The approved bytes again: sent (the approval was not used up by the mismatch).
    current = pngBytes();
    await client.execute(tool, { file: 'att-png', purpose: 'assistants' }, undefined, { approval: approve(review) });
    expect(received).toHaveLength(1);
    expect((await partsOf(received[0]!))[1]).toMatchObject({ sha256: sha256(pngBytes()) });
  });

  it('prepare shows the same parts and the digest ignores the random boundary (two reviews, one request)', async () => {
    const { client, tool } = await setup();
    const first = await client.prepare(tool, { file: 'att-png', purpose: 'a' });
    const second = await client.prepare(tool, { file: 'att-png', purpose: 'a' });
    expect(first).toEqual(second);
    expect(received).toHaveLength(0);
  });
});

describe('refused before anything is sent', () => {
  it.each([
    ['/etc/passwd', 'not a path'],
    ['../secrets.pdf', 'not a path'],
    ['C:\\Users\\me\\a.png', 'not a path'],
    ['~/a.png', 'not a path'],
    ['file:///etc/passwd', 'not a path (a file: URI)'],
    ['data:image/png;base64,iVBORw0KGgo=', "not the file's bytes (a data: URI)"],
    ['A'.repeat(2049), 'at most 2048 characters'],
    ['att\u0000png', 'control character'],
  ])('a reference %j (the resolver is never called)', async (reference, message) => {
    const calls: string[] = [];
    const { client, tool } = await setup({ files: (ref) => (calls.push(ref), attachments['att-png']) });
    const error = await rejectsWith(client.execute(tool, { file: reference, purpose: 'p' }), 'RCP_INVALID_ARGUMENTS');
    expect(error.issues).toEqual([{ path: '/file', message: expect.stringContaining(message) }]);
    expect(calls).toEqual([]);
    expect(received).toHaveLength(0);
  });

  it("a file over the param's maxBytes, and one of a media type the param does not accept", async () => {
    const { client, tool } = await setup();
    const big = await rejectsWith(client.execute(tool, { file: 'att-big', purpose: 'p' }), 'RCP_INVALID_ARGUMENTS');
    expect(big.issues).toEqual([{ path: '/file', message: 'the file is larger than the 4096 bytes this param accepts' }]);
    const text = await rejectsWith(client.execute(tool, { file: 'att-text', purpose: 'p' }), 'RCP_INVALID_ARGUMENTS');
    expect(text.issues).toEqual([{ path: '/file', message: "the file's media type is not one this param accepts (image/png, application/pdf)" }]);
    expect(toModelResult({ ok: false, error: text } as never)).toMatchObject({ ok: false, error: { code: 'RCP_INVALID_ARGUMENTS' } });
    expect(received).toHaveLength(0);
  });

  it("a file over the client's maxUploadBytes", async () => {
    const { client, tool } = await setup({ maxUploadBytes: 64 });
    const error = await rejectsWith(client.execute(tool, { file: 'att-png', purpose: 'p' }), 'RCP_INVALID_ARGUMENTS');
    expect(error.issues[0]!.message).toBe("the file is larger than the 64 bytes the client's upload limit leaves");
    expect(received).toHaveLength(0);
  });

  it('a stream that passes the limit is cancelled there; one longer than its declared size fails the call', async () => {
    let pulled = 0;
    let cancelled = false;
    const endless = () =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += 1;
          controller.enqueue(new Uint8Array(1024));
        },
        cancel() {
          cancelled = true;
        },
      });
    const { client, tool } = await setup({ files: () => ({ stream: endless(), mediaType: 'image/png', filename: 'x.png' }) });
    await rejectsWith(client.execute(tool, { file: 'att-x', purpose: 'p' }), 'RCP_INVALID_ARGUMENTS');
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThanOrEqual(6); // 4096 bytes: the fifth KiB passes the limit (plus the stream's one read ahead)
    const liar = await setup({ files: () => ({ stream: endless(), size: 10, mediaType: 'image/png', filename: 'x.png' }) });
    const error = await rejectsWith(liar.client.execute(liar.tool, { file: 'att-x', purpose: 'p' }), 'RCP_RESOLVER_FAILED');
    expect(error.message).toContain('longer than the size it declared');
    expect(received).toHaveLength(0);
  });

  it('no files option, a resolver with no file, a throwing resolver: typed errors that show no resolver value', async () => {
    const none = await setup({ files: undefined });
    await rejectsWith(none.client.execute(none.tool, { file: 'att-png', purpose: 'p' }), 'RCP_UNRESOLVED');
    const empty = await setup({ files: () => undefined });
    await rejectsWith(empty.client.execute(empty.tool, { file: 'att-png', purpose: 'p' }), 'RCP_UNRESOLVED');
    const throwing = await setup({
      files: () => {
        throw new Error('ENOENT: /home/alice/private/chart.png');
      },
    });
    const error = await rejectsWith(throwing.client.execute(throwing.tool, { file: 'att-png', purpose: 'p' }), 'RCP_RESOLVER_FAILED');
    expect(error.message).not.toContain('/home/alice');
    expect(error.message).not.toContain('att-png');
    const odd = await setup({ files: () => ({ bytes: pngBytes(), mediaType: 'image/png\r\nX-Evil: 1', filename: 'a.png' }) });
    const oddError = await rejectsWith(odd.client.execute(odd.tool, { file: 'att-png', purpose: 'p' }), 'RCP_RESOLVER_FAILED');
    expect(errorText(oddError)).not.toContain('X-Evil');
    expect(received).toHaveLength(0);
  });
});

describe('the model-facing schema of a file param', () => {
  it('is a string described as an attachment reference, marked x-rcp-file with its limits', async () => {
    const { tool } = await setup();
    expect(tool.inputSchema.properties['file']).toEqual({
      type: 'string',
      description:
        "The file to upload. An attachment reference: the id or URI of a file you were given in this conversation, never a path or the file's content.",
      'x-rcp-file': { mediaTypes: ['image/png', 'application/pdf'], maxBytes: 4096 },
    });
    expect(tool.params.find((param) => param.name === 'file')?.type).toBe('file');
  });
});
