import { pdfBytes, pngBytes } from './media';
import { sendJson, startTestServer, type TestServer } from './test-server';

/**
 * A small files-and-records API whose answers exercise every part of a tool result (SPEC §18.3,
 * §18.4): a PNG chart, a PDF report, a binary too large to pass on, a record list paged by a
 * declared cursor (three pages), a 429 with a long `Retry-After`, and a record with an output
 * schema (`responseMappings`). Every adapter's results test uses it, so each stack is checked
 * against the same bytes and the same pages.
 */
export const RESULTS_RECORDS = [
  { id: 'r-1', title: 'Alpha' },
  { id: 'r-2', title: 'Beta' },
  { id: 'r-3', title: 'Gamma' },
  { id: 'r-4', title: 'Delta' },
  { id: 'r-5', title: 'Epsilon' },
] as const;

/** The size of `get_archive`'s answer: larger than {@link RESULTS_MAX_MEDIA_BYTES}. */
export const RESULTS_ARCHIVE_BYTES = 4096;

/** The `maxMediaBytes` a results test gives its client, so that `get_archive` is refused as too large. */
export const RESULTS_MAX_MEDIA_BYTES = 2048;

/** The seconds `get_busy`'s 429 asks to wait: longer than any client retry waits. */
export const RESULTS_RETRY_AFTER_SECONDS = 120;

/** The manifest {@link startResultsApi} serves at `/rcp/manifest` (RCP 0.3). */
export const resultsManifest = {
  rcpVersion: '0.3',
  tools: [
    { name: 'get_chart', description: 'Gets the sales chart as an image.', method: 'GET', url: '/chart.png', effects: { readOnly: true } },
    { name: 'get_report', description: 'Gets the monthly report as a PDF.', method: 'GET', url: '/report.pdf', responseMediaTypes: ['application/pdf'] },
    {
      name: 'get_archive',
      description: 'Downloads the whole archive.',
      method: 'GET',
      url: '/archive.bin',
      responseMediaTypes: ['application/octet-stream'],
    },
    {
      name: 'list_records',
      description: 'Lists records, two per page.',
      method: 'GET',
      url: '/records',
      params: [{ name: 'cursor', type: 'string', description: 'Where the page starts (from the previous page)' }],
      queryParams: { cursor: '{{cursor}}' },
      responseMappings: { records: '@items[*]', next: '@next' },
      pagination: { nextCursor: '@next', param: 'cursor' },
    },
    { name: 'get_busy', description: 'Gets the queue status.', method: 'GET', url: '/busy' },
    {
      name: 'get_record',
      description: 'Gets one record.',
      method: 'GET',
      url: '/records/{{id}}',
      params: [{ name: 'id', type: 'string', required: true, description: 'A record id from list_records' }],
      responseMappings: { id: '@id', title: '@title' },
    },
  ],
} as const;

/**
 * Starts the results API on 127.0.0.1 (every request recorded). `list_records` pages by a
 * cursor `c<index>`; its last page has `next: null`.
 *
 * @example
 * ```ts
 * const { server, manifestUrl } = await startResultsApi();
 * const client = createRcpClient({ retry: 0, maxMediaBytes: RESULTS_MAX_MEDIA_BYTES });
 * const discovery = await client.discover(manifestUrl);
 * ```
 */
export async function startResultsApi(): Promise<{ server: TestServer; manifestUrl: string }> {
  const server = await startTestServer();
  server.route('GET /rcp/manifest', (_request, res) => sendJson(res, 200, resultsManifest));
  const bytes = (type: string, body: Uint8Array) => (_request: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': type, 'content-length': body.byteLength });
    res.end(body);
  };
  server.route('GET /chart.png', bytes('image/png', pngBytes()));
  server.route('GET /report.pdf', bytes('application/pdf', pdfBytes()));
  server.route('GET /archive.bin', bytes('application/octet-stream', new Uint8Array(RESULTS_ARCHIVE_BYTES).fill(7)));
  server.route('GET /records', (request, res) => {
    const cursor = new URLSearchParams(request.rawQuery).get('cursor');
    const start = cursor === null ? 0 : Number(cursor.slice(1));
    const end = start + 2;
    sendJson(res, 200, { items: RESULTS_RECORDS.slice(start, end), next: end < RESULTS_RECORDS.length ? `c${end}` : null });
  });
  server.route('GET /busy', (_request, res) => sendJson(res, 429, { error: 'slow down' }, { 'retry-after': String(RESULTS_RETRY_AFTER_SECONDS) }));
  for (const record of RESULTS_RECORDS) {
    server.route(`GET /records/${record.id}`, (_request, res) => sendJson(res, 200, { ...record, internal: 'x' }));
  }
  return { server, manifestUrl: server.url('/rcp/manifest') };
}
