import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient, type RcpInputSchema } from 'rcp-client';
import { fileURLToPath } from 'node:url';
import {
  detailsManifest,
  NOTES_TOKEN,
  runReadmeSnippet,
  sendJson,
  serveManifest,
  startNotesApi,
  startTestServer,
  toolRequestLines,
  SPAWN_TIMEOUT,
  type TestServer,
} from 'rcp-test-utils';
import { GEMINI_SCHEMA_KEYS, createGeminiTools, toGeminiParameters } from './index';

let notes: TestServer;
let manifestUrl: string;
beforeEach(async () => {
  ({ server: notes, manifestUrl } = await startNotesApi());
});
afterEach(async () => {
  await notes.close();
});

const notesClient = () => createRcpClient({ resolvers: { userId: (ctx: { userId?: string }) => ctx.userId }, credentials: () => NOTES_TOKEN });
const toolRequests = () => toolRequestLines(notes);

/** Every key used anywhere in a Gemini Schema, and every type value. */
function walk(schema: Record<string, unknown>, keys: Set<string>, types: Set<unknown>): void {
  for (const [key, value] of Object.entries(schema)) {
    keys.add(key);
    if (key === 'type') types.add(value);
    if (key === 'properties') for (const child of Object.values(value as object)) walk(child as Record<string, unknown>, keys, types);
    if (key === 'items') walk(value as Record<string, unknown>, keys, types);
  }
}

describe('function declarations', () => {
  it('parametersJsonSchema (default): the model-facing JSON Schema, resolver-bound params absent', async () => {
    const client = notesClient();
    const rcp = createGeminiTools(client, await client.discover(manifestUrl));
    expect(rcp.functionDeclarations[1]).toEqual({
      name: 'get_note',
      description: 'Gets one note.',
      parametersJsonSchema: {
        type: 'object',
        properties: { noteId: { type: 'string', description: 'A note id from list_notes' } },
        required: ['noteId'],
        additionalProperties: false,
      },
    });
    expect(JSON.stringify(rcp.functionDeclarations)).not.toContain('userId');
    expect(rcp.warnings).toEqual([]);
  });

  it('parameters: only the documented OpenAPI subset, upper-case types, no additionalProperties', async () => {
    const client = notesClient();
    const rcp = createGeminiTools(client, await client.discover(manifestUrl), { form: 'parameters' });
    const keys = new Set<string>();
    const types = new Set<unknown>();
    for (const declaration of rcp.functionDeclarations) {
      expect(declaration.parametersJsonSchema).toBeUndefined();
      walk(declaration.parameters as unknown as Record<string, unknown>, keys, types);
    }
    expect([...keys].every((key) => GEMINI_SCHEMA_KEYS.has(key))).toBe(true);
    expect([...types].sort()).toEqual(['BOOLEAN', 'OBJECT', 'STRING']);
    expect(rcp.functionDeclarations[2]!.parameters).toEqual({
      type: 'OBJECT',
      properties: {
        title: { type: 'STRING', description: 'The title' },
        text: { type: 'STRING', description: 'The body text' },
        pinned: { type: 'BOOLEAN', description: 'Keep it on top' },
      },
      required: ['title'],
    });
  });

  it('warns of array/object params in the parameters form, and renames what Gemini would refuse', async () => {
    const server = notes;
    const url = serveManifest(
      server,
      {
        rcpVersion: '0.1',
        tools: [
          { name: '2fa_check', description: 'Checks.', method: 'POST', url: '/check', body: { tags: '{{tags}}' }, params: [{ name: 'tags', type: 'array' }] },
        ],
      },
      '/other/manifest',
    );
    const client = createRcpClient();
    const rcp = createGeminiTools(client, await client.discover(url), { form: 'parameters' });
    expect(rcp.functionDeclarations[0]!.name).toBe('_2fa_check');
    expect(rcp.warnings).toEqual([expect.stringContaining('Tool "2fa_check": param "tags" is an array with no items')]);
    server.route('POST /check', (_request, res) => {
      res.writeHead(204);
      res.end();
    });
    const [part] = await rcp.runFunctionCalls([{ name: '_2fa_check', args: { tags: ['a'] } }]);
    expect(part).toEqual({ functionResponse: { name: '_2fa_check', response: { ok: true, data: null } } });
    expect(server.requests.at(-1)).toMatchObject({ method: 'POST', path: '/check', json: { tags: ['a'] } });
  });
});

describe('runFunctionCalls', () => {
  it('answers each call with a functionResponse part, in order, through client.call', async () => {
    const client = notesClient();
    const rcp = createGeminiTools(client, await client.discover(manifestUrl));
    const parts = await rcp.runFunctionCalls(
      [
        { id: 'c1', name: 'list_notes', args: {} },
        { id: 'c2', name: 'get_note', args: { noteId: 'n-1', userId: 'u-7' } },
        { id: 'c3', name: 'get_notes', args: {} },
      ],
      { userId: 'u-1' },
    );
    expect(parts[0]).toEqual({
      functionResponse: { id: 'c1', name: 'list_notes', response: { ok: true, data: [{ id: 'n-1', title: 'Groceries' }] } },
    });
    expect(parts[1]!.functionResponse.response).toMatchObject({ ok: false, error: { code: 'RCP_INVALID_ARGUMENTS' } });
    expect(parts[2]!.functionResponse.response).toMatchObject({ ok: false, error: { code: 'RCP_UNKNOWN_TOOL' } });
    expect(toolRequests()).toEqual(['GET /users/u-1/notes']);
  });
});

describe('README', () => {
  const packageDir = fileURLToPath(new URL('..', import.meta.url));

  it.each(['snippet:generate-loop', 'snippet:generate-loop-ts'])(
    'runs the %s agent loop as written (@google/genai), against a loopback fake of the generateContent endpoint',
    { timeout: SPAWN_TIMEOUT },
    async (marker) => {
      const fake = await startTestServer();
      try {
        const replies = [
          [{ functionCall: { name: 'list_notes', args: {} } }],
          [{ functionCall: { name: 'get_note', args: { noteId: 'n-1' } } }],
          [{ text: 'Your groceries note says: eggs.' }],
        ];
        let index = 0;
        const endpoint = 'POST /v1beta/models/gemini-3.8-flash:generateContent';
        fake.route(endpoint, (_request, res) => sendJson(res, 200, { candidates: [{ content: { role: 'model', parts: replies[index++] } }] }));
        const printed = await runReadmeSnippet(packageDir, marker, {
          GEMINI_API_KEY: 'test-key',
          // The SDK's own base-URL variable, and the Gemini API (not Vertex AI) whatever the environment says.
          GOOGLE_GEMINI_BASE_URL: fake.origin,
          GOOGLE_GENAI_USE_VERTEXAI: 'false',
          GOOGLE_GENAI_USE_ENTERPRISE: 'false',
          NOTES_TOKEN,
          NOTES_MANIFEST_URL: manifestUrl,
        });
        expect(printed).toBe('Your groceries note says: eggs.\n');
        expect(toolRequests()).toEqual(['GET /users/u-1/notes', 'GET /users/u-1/notes/n-1']);
        const sent = fake.requests.map((request) => request.json as { tools: { functionDeclarations: unknown[] }[]; contents: unknown[] });
        // Only the three generateContent calls reached the fake, each with the key in its header (never in the URL).
        expect(fake.requests.map((request) => `${request.method} ${request.url}`)).toEqual([endpoint, endpoint, endpoint]);
        for (const request of fake.requests) expect(request.headers['x-goog-api-key']).toBe('test-key');
        expect(JSON.stringify(sent[0]!.tools)).not.toContain('userId');
        // The last request carried both answers back as functionResponse parts.
        expect(JSON.stringify(sent[2]!.contents)).toContain('"functionResponse":{"name":"get_note","response":{"ok":true');
      } finally {
        await fake.close();
      }
    },
  );
});

describe('the Gemini table (docs/behaviour.md)', () => {
  it("parameters form: each detail Gemini's Schema has is kept, the rest left out; a tool with no argument has no parameters", async () => {
    const url = serveManifest(notes, detailsManifest, '/details/manifest');
    const client = createRcpClient();
    const discovery = await client.discover(url);
    const rcp = createGeminiTools(client, discovery, { form: 'parameters' });
    const [search, ping] = rcp.functionDeclarations;
    expect(search!.parameters).toEqual({
      type: 'OBJECT',
      properties: {
        q: { type: 'STRING', description: 'Search terms', minLength: 2, maxLength: 40 },
        site: { type: 'STRING', description: 'Only this site', format: 'uri' },
        since: { type: 'STRING', format: 'date-time' },
        code: { type: 'STRING', pattern: '^[A-Z]{3}$' },
        limit: { type: 'INTEGER', minimum: 1, maximum: 50, default: 10 },
        status: { type: 'STRING', enum: ['open', 'closed'] },
        size: { type: 'INTEGER' }, // an integer enum: not in Gemini's string-only enum
      },
      required: ['q'],
    });
    expect(rcp.warnings).toEqual(['Tool "search_items": param "size": a integer enum is dropped (Gemini\'s enum lists strings); the client still enforces it']);
    expect(ping).toEqual({ name: 'ping', description: 'Checks the service.' });
    expect('parameters' in ping!).toBe(false);
    const keys = new Set<string>();
    walk(search!.parameters as unknown as Record<string, unknown>, keys, new Set());
    expect([...keys].filter((key) => !GEMINI_SCHEMA_KEYS.has(key))).toEqual([]);
    // What the form leaves out is still enforced: nothing reaches the server.
    const [part] = await rcp.runFunctionCalls([{ name: 'search_items', args: { q: 'lamps', size: 3 } }]);
    expect(part!.functionResponse.response).toMatchObject({ ok: false, error: { code: 'RCP_INVALID_ARGUMENTS' } });
    expect(notes.requests.filter((request) => request.path === '/search')).toEqual([]);
  });

  it('parametersJsonSchema form: the model-facing JSON Schema whole, an object schema for a tool with no argument', async () => {
    const url = serveManifest(notes, detailsManifest, '/details/manifest');
    const client = createRcpClient();
    const discovery = await client.discover(url);
    const [search, ping] = createGeminiTools(client, discovery).functionDeclarations;
    expect(search!.parametersJsonSchema).toEqual(discovery.tool('search_items').inputSchema);
    expect(ping!.parametersJsonSchema).toEqual({ type: 'object', properties: {}, required: [], additionalProperties: false });
  });

  it('nested items and properties are projected the same way; additionalProperties never appears', () => {
    const { parameters, warnings } = toGeminiParameters({
      type: 'object',
      properties: {
        ids: { type: 'array', items: { type: 'integer', minimum: 1 } },
        meta: { type: 'object', properties: { k: { type: 'string', pattern: '^[a-z]+$' } }, required: ['k'], additionalProperties: false },
      },
      required: [],
      additionalProperties: false,
    } as unknown as RcpInputSchema);
    expect(parameters).toEqual({
      type: 'OBJECT',
      properties: {
        ids: { type: 'ARRAY', items: { type: 'INTEGER', minimum: 1 } },
        meta: { type: 'OBJECT', properties: { k: { type: 'STRING', pattern: '^[a-z]+$' } }, required: ['k'] },
      },
    });
    expect(warnings).toEqual([]);
  });
});
