import { afterEach, expect, it } from 'vitest';
import { createRcpClient, toModelResult } from 'rcp-client';
import { RESULTS_MAX_MEDIA_BYTES, RESULTS_RECORDS, RESULTS_RETRY_AFTER_SECONDS, sha256, pngBytes, startResultsApi, type TestServer } from 'rcp-test-utils';

let server: TestServer | undefined;
afterEach(async () => server?.close());

it('the results API gives every part of a result: media, a too-large binary, three pages, a long Retry-After, mapped data', async () => {
  const api = await startResultsApi();
  server = api.server;
  const client = createRcpClient({ retry: 0, maxMediaBytes: RESULTS_MAX_MEDIA_BYTES });
  const discovery = await client.discover(api.manifestUrl);
  const chart = toModelResult(await client.call(discovery, { name: 'get_chart', arguments: {} }));
  expect(chart.ok && sha256({ base64: chart.media!.data })).toBe(sha256(pngBytes()));
  const report = toModelResult(await client.call(discovery, { name: 'get_report', arguments: {} }));
  expect(report.ok && report.media?.mediaType).toBe('application/pdf');
  const archive = toModelResult(await client.call(discovery, { name: 'get_archive', arguments: {} }));
  expect(!archive.ok && archive.error.code).toBe('RCP_RESPONSE_TOO_LARGE');
  const busy = toModelResult(await client.call(discovery, { name: 'get_busy', arguments: {} }));
  expect(!busy.ok && busy.error.retryAfterSeconds).toBe(RESULTS_RETRY_AFTER_SECONDS);
  const seen: unknown[] = [];
  let args: Record<string, unknown> | null = {};
  while (args !== null) {
    const page = toModelResult(await client.call(discovery, { name: 'list_records', arguments: args }));
    if (!page.ok) throw new Error(page.error.message);
    seen.push(...(page.data as { records: unknown[] }).records);
    args = page.page?.hasMore === true ? (page.page.nextArguments as Record<string, unknown>) : null;
  }
  expect(seen).toEqual(RESULTS_RECORDS);
  expect(discovery.tool('get_record').outputSchema).toMatchObject({ type: 'object' });
  await client.close();
});
