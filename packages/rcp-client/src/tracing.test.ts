import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NOTES_TOKEN, sendJson, startNotesApi, type TestServer } from 'rcp-test-utils';
import { createRcpClient } from 'rcp-client';

const USER = 'u-1';
let api: { server: TestServer; manifestUrl: string };
let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;

beforeEach(async () => {
  api = await startNotesApi();
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
});
afterEach(async () => {
  await provider.shutdown();
  await api.server.close();
});

describe('an OpenTelemetry span per call (@opentelemetry/api 1.9.1, sdk-trace-base)', () => {
  it('names the tool, method, URL template, origin, attempts and status — never the rendered URL, credential or resolver value', async () => {
    let calls = 0;
    api.server.route('GET /users/u-1/notes', (_request, res) => (++calls === 1 ? sendJson(res, 503, {}, { 'retry-after': '0' }) : sendJson(res, 200, [])));
    const client = createRcpClient({
      resolvers: { userId: (ctx: { userId: string }) => ctx.userId },
      credentials: () => NOTES_TOKEN,
      tracer: provider.getTracer('notes-agent'),
    });
    const { tools } = await client.discover(api.manifestUrl);
    await client.execute(tools.find((tool) => tool.name === 'list_notes')!, { tag: 'secret-tag' }, { userId: USER });

    const [span] = exporter.getFinishedSpans();
    expect(exporter.getFinishedSpans()).toHaveLength(1);
    expect(span!.name).toBe('rcp list_notes');
    expect(span!.kind).toBe(SpanKind.CLIENT);
    expect(span!.status.code).toBe(SpanStatusCode.OK);
    expect(span!.attributes).toEqual({
      'rcp.tool.name': 'list_notes',
      'http.request.method': 'GET',
      'url.template': `${api.server.origin}/users/{{userId}}/notes`,
      'server.origin': api.server.origin,
      'rcp.attempts': 2,
      'http.response.status_code': 200,
    });
    expect(span!.events.map((event) => event.name)).toEqual(['rcp.retry']);
    const everything = JSON.stringify({ attributes: span!.attributes, events: span!.events, name: span!.name });
    for (const secret of [NOTES_TOKEN, USER, 'secret-tag']) expect(everything).not.toContain(secret);
  });

  it('a failed call ends its span with ERROR and the stable code as error.type; nothing was sent for an early failure', async () => {
    const client = createRcpClient({ resolvers: { userId: () => undefined }, credentials: () => NOTES_TOKEN, tracer: provider.getTracer('t') });
    const { tools } = await client.discover(api.manifestUrl);
    api.server.reset();
    await expect(client.execute(tools[0]!, {}, {})).rejects.toMatchObject({ code: 'RCP_UNRESOLVED' });
    const [span] = exporter.getFinishedSpans();
    expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'RCP_UNRESOLVED' });
    expect(span!.attributes['error.type']).toBe('RCP_UNRESOLVED');
    expect(api.server.count).toBe(0);
  });

  it("works with the global API's tracer, and a tracer that throws never changes the call", async () => {
    const broken = {
      startSpan: () => {
        throw new Error('exporter down');
      },
    };
    const client = createRcpClient({ resolvers: { userId: () => USER }, credentials: () => NOTES_TOKEN, tracer: broken });
    const { tools } = await client.discover(api.manifestUrl);
    expect((await client.execute(tools[0]!, {}, {})).status).toBe(200);
    // The no-op tracer of an unregistered global API is a valid tracer too.
    const noop = createRcpClient({ resolvers: { userId: () => USER }, credentials: () => NOTES_TOKEN, tracer: trace.getTracer('x') });
    const found = await noop.discover(api.manifestUrl);
    expect((await noop.execute(found.tools[0]!, {}, {})).status).toBe(200);
  });

  it('refuses a tracer that is not one, before anything is sent', () => {
    expect(() => createRcpClient({ tracer: {} as never })).toThrow(expect.objectContaining({ code: 'RCP_INVALID_OPTIONS' }));
  });
});
