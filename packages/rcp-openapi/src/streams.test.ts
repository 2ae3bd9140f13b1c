/**
 * Streamed answers in the importer (docs/behaviour.md "Streams"; SPEC §20.6): an operation whose 2xx is
 * only a stream — `text/event-stream`, or an NDJSON type — becomes a tool with `stream` (collect
 * `array`) in an RCP 0.4 manifest; one that answers JSON or a stream, as a request param chooses
 * (OpenAI's `stream: true`), is imported without it. None of the real descriptions in test-data
 * answers with a stream, so the documents are small ones in the shape of those APIs. The SSE tool
 * is then called by rcp-client against a loopback server.
 */
import { describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { serveManifest, startTestServer } from 'rcp-test-utils';
import { fromOpenApi } from './index';

const jsonSchema = { schema: { type: 'object', properties: { id: { type: 'string' } } } };

function document(url: string) {
  return {
    openapi: '3.1.0',
    info: { title: 'Streams', version: '1.0.0' },
    servers: [{ url }],
    paths: {
      '/chat/completions': {
        post: {
          operationId: 'createChatCompletion',
          requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { stream: { type: 'boolean' } } } } } },
          // OpenAI's shape: JSON, or SSE when the body says stream: true.
          responses: { 200: { description: 'OK', content: { 'application/json': jsonSchema, 'text/event-stream': { schema: { type: 'string' } } } } },
        },
      },
      '/runs/{run}/events': {
        get: {
          operationId: 'streamRunEvents',
          parameters: [{ name: 'run', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { 200: { description: 'The run events', content: { 'text/event-stream; charset=utf-8': { schema: { type: 'string' } } } } },
        },
      },
      '/api/generate': {
        post: {
          operationId: 'generate',
          requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { prompt: { type: 'string' } } } } } },
          responses: { 200: { description: 'Tokens', content: { 'application/x-ndjson': { schema: { type: 'object' } } } } },
        },
      },
      '/items': { get: { operationId: 'listItems', responses: { 200: { description: 'OK', content: { 'application/json': jsonSchema } } } } },
    },
  };
}

describe('an operation answered with a stream', () => {
  it('SSE only → stream { format: "sse", collect: "array" }; NDJSON only → "ndjson"; JSON or SSE by a param → no stream; the manifest is 0.4', async () => {
    const { manifest, report } = await fromOpenApi(document('https://api.example.com/v1'));
    expect(manifest.rcpVersion).toBe('0.4');
    const byName = Object.fromEntries(manifest.tools.map((tool) => [tool.name, tool]));
    expect(byName['streamRunEvents']!.stream).toEqual({ format: 'sse', collect: 'array' });
    expect(byName['generate']!.stream).toEqual({ format: 'ndjson', collect: 'array' });
    expect(byName['createChatCompletion']!.stream).toBeUndefined();
    expect(byName['listItems']!.stream).toBeUndefined();
    expect(report.notes).toEqual(
      expect.arrayContaining([
        {
          message:
            'answers with a stream only: imported with "stream" (its format from the media type), the events collected into one array (collect "array"; set "collect" and "field" to join a text field instead)',
          tools: ['streamRunEvents', 'generate'],
          examples: ['text/event-stream', 'application/x-ndjson'],
        },
        {
          message: 'answers a stream or another media type, as a request param chooses: imported without "stream" (the answer read as one body)',
          tools: ['createChatCompletion'],
          examples: ['text/event-stream or application/json'],
        },
      ]),
    );
  });

  it('Swagger 2: produces text/event-stream only → an SSE stream', async () => {
    const { manifest } = await fromOpenApi({
      swagger: '2.0',
      info: { title: 'Events', version: '1' },
      host: 'api.example.com',
      schemes: ['https'],
      paths: { '/events': { get: { operationId: 'tailEvents', produces: ['text/event-stream'], responses: { 200: { description: 'OK' } } } } },
    });
    expect(manifest.rcpVersion).toBe('0.4');
    expect(manifest.tools[0]!.stream).toEqual({ format: 'sse', collect: 'array' });
  });

  it('a document without a stream keeps its version (no 0.4 for nothing)', async () => {
    const doc = document('https://api.example.com/v1');
    const { manifest } = await fromOpenApi({ ...doc, paths: { '/items': doc.paths['/items'] } });
    expect(manifest.rcpVersion).toBe('0.1');
    expect(manifest.tools[0]!.stream).toBeUndefined();
  });

  it('the imported SSE tool, called by rcp-client on 127.0.0.1: every event collected, in order, with the Accept the stream needs', async () => {
    const api = await startTestServer();
    try {
      api.route('GET /v1/runs/r-1/events', (_request, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end('data: {"step":1}\n\n: ping\n\ndata: {"step":2}\n\ndata: done\n\n');
      });
      const { manifest } = await fromOpenApi(document(api.url('/v1')));
      const client = createRcpClient({ retry: 0, allowPrivateNetwork: true });
      const discovery = await client.discover(serveManifest(api, manifest));
      api.reset();
      const result = await client.execute(discovery.tool('streamRunEvents'), { run: 'r-1' });
      expect(result).toMatchObject({ status: 200, data: ['{"step":1}', '{"step":2}', 'done'], events: 3 });
      expect(api.requests.map((request) => `${request.method} ${request.url} ${request.headers.accept}`)).toEqual([
        'GET /v1/runs/r-1/events text/event-stream',
      ]);
    } finally {
      await api.close();
    }
  });
});
