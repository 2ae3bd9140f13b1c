/**
 * Media results (SPEC §11 step 7, §18.3): a binary answer is a media part — its exact bytes,
 * base64 in the model result — never decoded text; too large or not passed on is an error the
 * model can read. Real PNG and PDF bytes from a loopback server, compared by hash.
 */
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pdfBytes, pngBytes, sha256, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient, isRcpError, RcpResponseError, toModelResult, toModelText, type RcpClientOptions } from 'rcp-client';
import { rejectsWith, serveManifest } from './internal/testing';

let api: TestServer;
beforeEach(async () => {
  api = await startTestServer();
});
afterEach(async () => {
  await api.close();
});

/** Answers `bytes` with `contentType` (no Content-Type header at all when it is undefined). */
function serveBytes(path: string, bytes: Uint8Array, contentType: string | undefined, extra: Record<string, string> = {}): void {
  api.route(`GET ${path}`, (_request, res) => {
    res.writeHead(200, { ...(contentType !== undefined && { 'content-type': contentType }), 'content-length': bytes.byteLength, ...extra });
    res.end(bytes);
  });
}

const tool = (name: string, path: string, extra: Record<string, unknown> = {}) => ({ name, description: `Gets ${name}.`, method: 'GET', url: path, ...extra });

async function discover(tools: unknown[], options: RcpClientOptions = {}, version = '0.3') {
  const client = createRcpClient({ retry: 0, ...options });
  const discovery = await client.discover(serveManifest(api, { rcpVersion: version, tools }));
  api.reset();
  return { client, discovery };
}

const EVERY_BYTE = new Uint8Array(Array.from({ length: 512 }, (_, index) => index % 256));

describe('a binary answer is a media part: the exact bytes, never text', () => {
  it.each([
    ['a PNG', 'image/png', pngBytes()],
    ['a PDF', 'application/pdf', pdfBytes()],
    ['every byte value', 'application/octet-stream', EVERY_BYTE],
    ['a WAV (audio/*)', 'audio/wav', EVERY_BYTE],
  ])('%s reaches the result and the model result with the same hash', async (_name, type, bytes) => {
    serveBytes('/file', bytes, `${type.toUpperCase()}; name="x"`);
    const { client, discovery } = await discover([tool('get_file', '/file')]);
    const outcome = await client.call(discovery, { name: 'get_file', arguments: {} });
    if (!outcome.ok) throw outcome.error;
    expect(outcome.result.data).toBeNull();
    expect(outcome.result.media?.mediaType).toBe(type);
    expect(sha256(outcome.result.media!.bytes)).toBe(sha256(bytes));
    const forModel = toModelResult(outcome);
    if (!forModel.ok) throw new Error('expected a success');
    expect(forModel.media).toEqual({ mediaType: type, size: bytes.byteLength, data: Buffer.from(bytes).toString('base64') });
    expect(sha256({ base64: forModel.media!.data })).toBe(sha256(bytes));
    expect(api.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /file']);
  });

  it('toModelText says what was received and how big, never the bytes (a stack without a media shape)', async () => {
    serveBytes('/chart', pngBytes(), 'image/png');
    const { client, discovery } = await discover([tool('get_chart', '/chart')]);
    const text = toModelText(toModelResult(await client.call(discovery, { name: 'get_chart', arguments: {} })));
    expect(text).toBe('{"ok":true,"data":null,"media":{"mediaType":"image/png","size":70}}');
  });

  it('counts the bytes after content decoding (a gzipped PNG arrives as the PNG)', async () => {
    serveBytes('/chart', new Uint8Array(gzipSync(pngBytes())), 'image/png', { 'content-encoding': 'gzip' });
    const { client, discovery } = await discover([tool('get_chart', '/chart')]);
    const { media } = await client.execute(discovery.tool('get_chart'), {});
    expect(sha256(media!.bytes)).toBe(sha256(pngBytes()));
  });

  it('a type the tool declares in responseMediaTypes (RCP 0.3) is passed on too; an undeclared one is refused, never decoded', async () => {
    const sheet = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    serveBytes('/report.xlsx', EVERY_BYTE, sheet);
    serveBytes('/archive.zip', EVERY_BYTE, 'application/zip');
    const { client, discovery } = await discover([tool('get_report', '/report.xlsx', { responseMediaTypes: [sheet] }), tool('get_archive', '/archive.zip')]);
    const report = await client.execute(discovery.tool('get_report'), {});
    expect(report.media?.mediaType).toBe(sheet);
    expect(sha256(report.media!.bytes)).toBe(sha256(EVERY_BYTE));

    const outcome = await client.call(discovery, { name: 'get_archive', arguments: {} });
    if (outcome.ok) throw new Error('expected a refusal');
    expect(outcome.error).toBeInstanceOf(RcpResponseError);
    expect(outcome.error).toMatchObject({ code: 'RCP_INVALID_RESPONSE', problem: 'media-not-allowed', mediaType: 'application/zip', tool: 'get_archive' });
    expect(toModelResult(outcome)).toEqual({
      ok: false,
      error: { code: 'RCP_INVALID_RESPONSE', message: 'The tool answered with application/zip, which the client does not pass on.' },
    });
  });

  it('a vendor type whose bytes are text stays text (what the client always did); text types are text even when declared', async () => {
    serveBytes('/diff', new TextEncoder().encode('diff --git a/x b/x\n+ added ✓\n'), 'application/vnd.github.diff');
    serveBytes('/export.csv', new TextEncoder().encode('id,name\n1,Ada\n'), 'text/csv; charset=utf-8');
    serveBytes('/logo.svg', new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml');
    const { client, discovery } = await discover([
      tool('get_diff', '/diff'),
      tool('export_csv', '/export.csv', { responseMediaTypes: ['text/csv'] }),
      tool('get_logo', '/logo.svg'),
    ]);
    expect((await client.execute(discovery.tool('get_diff'), {})).data).toBe('diff --git a/x b/x\n+ added ✓\n');
    const csv = await client.execute(discovery.tool('export_csv'), {});
    expect(csv).toEqual({ status: 200, data: 'id,name\n1,Ada\n', contentType: 'text/csv; charset=utf-8' });
    // SVG is XML text (it can carry instructions like any text), not an image for the model
    expect((await client.execute(discovery.tool('get_logo'), {})).data).toBe('<svg xmlns="http://www.w3.org/2000/svg"/>');
  });

  it('a body without a Content-Type is text when it reads as text, else application/octet-stream', async () => {
    serveBytes('/plain', new TextEncoder().encode('hello'), undefined);
    serveBytes('/blob', pngBytes(), undefined);
    const { client, discovery } = await discover([tool('get_plain', '/plain'), tool('get_blob', '/blob')]);
    expect((await client.execute(discovery.tool('get_plain'), {})).data).toBe('hello');
    const blob = await client.execute(discovery.tool('get_blob'), {});
    expect(blob.media?.mediaType).toBe('application/octet-stream');
    expect(sha256(blob.media!.bytes)).toBe(sha256(pngBytes()));
  });

  it('a media part over maxMediaBytes is RCP_RESPONSE_TOO_LARGE, with a sentence the model can read', async () => {
    serveBytes('/scan', pdfBytes(), 'application/pdf');
    const { client, discovery } = await discover([tool('get_scan', '/scan')], { maxMediaBytes: 100 });
    const outcome = await client.call(discovery, { name: 'get_scan', arguments: {} });
    if (outcome.ok) throw new Error('expected a refusal');
    expect(outcome.error).toMatchObject({ code: 'RCP_RESPONSE_TOO_LARGE', problem: 'media-too-large', size: pdfBytes().byteLength, limit: 100 });
    expect(toModelResult(outcome)).toEqual({
      ok: false,
      error: {
        code: 'RCP_RESPONSE_TOO_LARGE',
        message: `The tool answered with application/pdf of ${pdfBytes().byteLength} bytes, more than the 100 bytes the client passes on.`,
      },
    });
  });

  it("the operator's mediaTypes replace the default list (audio refused); maxResponseBytes still comes first", async () => {
    serveBytes('/voice', EVERY_BYTE, 'audio/mpeg');
    serveBytes('/chart', pngBytes(), 'image/png');
    const { client, discovery } = await discover([tool('get_voice', '/voice'), tool('get_chart', '/chart')], { mediaTypes: ['IMAGE/*'] });
    const refused = await rejectsWith(client.execute(discovery.tool('get_voice'), {}), 'RCP_INVALID_RESPONSE');
    expect(refused.message).toContain('audio/mpeg');
    expect((await client.execute(discovery.tool('get_chart'), {})).media?.mediaType).toBe('image/png');

    const small = await discover([tool('get_chart', '/chart')], { maxResponseBytes: 10 });
    await rejectsWith(small.client.execute(small.discovery.tool('get_chart'), {}), 'RCP_RESPONSE_TOO_LARGE');
  });

  it('a tool with responseMappings answered with media is RCP_INVALID_RESPONSE (mappings read JSON)', async () => {
    serveBytes('/chart', pngBytes(), 'image/png');
    const { client, discovery } = await discover([tool('get_chart', '/chart', { responseMappings: { id: '@id' } })]);
    const error = await rejectsWith(client.execute(discovery.tool('get_chart'), {}), 'RCP_INVALID_RESPONSE');
    expect(error.message).toContain('has responseMappings but the response is not JSON (image/png)');
  });

  it('the options are checked when the client is created', () => {
    for (const options of [
      { mediaTypes: 'image/png' },
      { mediaTypes: ['*/*'] },
      { mediaTypes: ['image/png; q=1'] },
      { maxMediaBytes: 0 },
      { markUntrustedText: 'yes' },
      { inspectResult: {} },
    ]) {
      let error: unknown;
      try {
        createRcpClient(options as RcpClientOptions);
      } catch (caught) {
        error = caught;
      }
      expect(isRcpError(error, 'RCP_INVALID_OPTIONS'), JSON.stringify(options)).toBe(true);
    }
  });
});
