/**
 * The traps a new user fell into wiring a small notes API (rcp-test-utils' notesManifest) into an
 * agent loop, each against a real local server, asserting what the server received.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NOTES_TOKEN, notesManifest, sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient, describeManifest, isRcpError, toModelResult } from 'rcp-client';
import { rejectsWith, serveManifest } from './internal/testing';

const TOKEN = NOTES_TOKEN;

let server: TestServer;
let manifestUrl: string;
beforeEach(async () => {
  server = await startTestServer();
  manifestUrl = serveManifest(server, notesManifest);
  server.route('GET /users/u-1/notes', (_request, res) => sendJson(res, 200, [{ id: 'n-1', title: 'Groceries' }]));
  server.route('GET /users/u-1/notes/n-1', (_request, res) => sendJson(res, 200, { id: 'n-1', title: 'Groceries' }));
  server.route('POST /users/u-1/notes', (request, res) => sendJson(res, 201, { id: 'n-2', ...(request.json as object) }));
  server.route('DELETE /users/u-1/notes/n-1', (_request, res) => {
    res.writeHead(204);
    res.end();
  });
});
afterEach(async () => {
  await server.close();
});

type Ctx = { userId?: string };
const userId = (ctx: Ctx) => ctx.userId;
const credentials = () => TOKEN;
const toolRequests = () => server.requests.filter((request) => request.path !== '/rcp/manifest');

describe('1. a resolver that nearly matches a param fails discovery', () => {
  it.each(['userID', 'user_id', 'UserId', 'usrId'])('resolver %s for param userId: RCP_RESOLVER_MISMATCH naming both', async (name) => {
    const client = createRcpClient<Ctx>({ resolvers: { [name]: userId }, credentials });
    const error = await rejectsWith(client.discover(manifestUrl), 'RCP_RESOLVER_MISMATCH');
    expect(error).toMatchObject({ resolver: name, param: 'userId', tool: 'list_notes', path: '/tools/0/params/0' });
    expect(error.message).toContain(`"${name}"`);
    expect(error.message).toContain('"userId"');
    expect(server.requests.map((request) => request.path)).toEqual(['/rcp/manifest']);
  });

  it('modelFilledParams says the model may fill it, and discovery passes', async () => {
    const client = createRcpClient<Ctx>({ resolvers: { userID: userId }, credentials, modelFilledParams: ['userId'] });
    const { warnings } = await client.discover(manifestUrl);
    expect(warnings).toEqual([]);
  });
});

describe('2. an identity-looking param no resolver fills', () => {
  it('is a discovery warning at its pointer, and describeManifest marks it', async () => {
    const client = createRcpClient({ credentials });
    const { manifest, tools, warnings } = await client.discover(manifestUrl);
    expect(warnings.map((warning) => warning.path)).toEqual(['/tools/0/params/0', '/tools/1/params/0', '/tools/2/params/0', '/tools/3/params/0']);
    expect(warnings[0]!.message).toContain('looks like an identity');
    expect(tools[0]!.params[0]).toMatchObject({ name: 'userId', resolved: false, looksLikeIdentity: true });
    expect(describeManifest(manifest, tools)).toContain(
      'userId: string, required [warning: looks like an identity, but no resolver fills it — the model chooses it] — Whose notes',
    );
  });

  it('requireResolved turns it into RCP_UNBOUND_PARAM, on the client or per discover call', async () => {
    const strict = createRcpClient({ credentials, requireResolved: ['user_id'] });
    const error = await rejectsWith(strict.discover(manifestUrl), 'RCP_UNBOUND_PARAM');
    expect(error).toMatchObject({ param: 'userId', tool: 'list_notes', path: '/tools/0/params/0' });
    await rejectsWith(createRcpClient({ requireResolved: true }).discover(manifestUrl), 'RCP_UNBOUND_PARAM');
    await rejectsWith(createRcpClient().discover(manifestUrl, { requireResolved: true }), 'RCP_UNBOUND_PARAM');
    // A resolver for it satisfies the gate.
    const bound = createRcpClient<Ctx>({ resolvers: { userId }, credentials, requireResolved: true });
    expect((await bound.discover(manifestUrl)).warnings).toEqual([]);
  });

  it('bad values of the new options are RCP_INVALID_OPTIONS', async () => {
    expect(() => createRcpClient({ requireResolved: 'userId' as never })).toThrow(/requireResolved/);
    expect(() => createRcpClient({ modelFilledParams: [1] as never })).toThrow(/modelFilledParams/);
    expect(() => createRcpClient({ allowHtmlResponses: 'yes' as never })).toThrow(/allowHtmlResponses/);
    await rejectsWith(createRcpClient().discover(manifestUrl, { requireResolved: {} as never }), 'RCP_INVALID_OPTIONS');
  });
});

describe('5. responses a model must not mistake for success', () => {
  it('an HTML page answering 200 is RCP_INVALID_RESPONSE (the request was sent once)', async () => {
    server.route('GET /users/u-1/notes', (_request, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html><body><form action="/login">Sign in</form></body></html>');
    });
    const client = createRcpClient<Ctx>({ resolvers: { userId }, credentials });
    const discovery = await client.discover(manifestUrl);
    const error = await rejectsWith(client.execute(discovery.tool('list_notes'), {}, { userId: 'u-1' }), 'RCP_INVALID_RESPONSE');
    expect(error.message).toContain('HTML page');
    expect(toolRequests().map((request) => `${request.method} ${request.path}`)).toEqual(['GET /users/u-1/notes']);

    const lenient = createRcpClient<Ctx>({ resolvers: { userId }, credentials, allowHtmlResponses: true });
    const tools = await lenient.discover(manifestUrl);
    const result = await lenient.execute(tools.tool('list_notes'), {}, { userId: 'u-1' });
    expect(result.data).toContain('<form action="/login">');
  });

  it('a 204 and a JSON body of Content-Length 0 are data: null', async () => {
    server.route('GET /users/u-1/notes', (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '0' });
      res.end();
    });
    const client = createRcpClient<Ctx>({ resolvers: { userId }, credentials });
    const discovery = await client.discover(manifestUrl);
    const deleted = await client.execute(discovery.tool('delete_note'), { noteId: 'n-1' }, { userId: 'u-1' });
    expect(deleted).toEqual({ status: 204, data: null, contentType: '' });
    const empty = await client.execute(discovery.tool('list_notes'), {}, { userId: 'u-1' });
    expect(empty.data).toBeNull();
  });
});

describe('6. a credential that already carries the scheme', () => {
  it('is refused before any request, by execute and by prepare, with what to return instead', async () => {
    const client = createRcpClient<Ctx>({ resolvers: { userId }, credentials: () => `Bearer ${TOKEN}` });
    const discovery = await client.discover(manifestUrl);
    server.reset();
    const error = await rejectsWith(client.execute(discovery.tool('list_notes'), {}, { userId: 'u-1' }), 'RCP_MISSING_CREDENTIALS');
    expect(error.message).toContain('return the bare token');
    expect(error.message).not.toContain(TOKEN);
    await rejectsWith(client.prepare(discovery.tool('list_notes'), {}, { userId: 'u-1' }), 'RCP_MISSING_CREDENTIALS');
    // Case does not matter: "bearer x" is the same doubling.
    const lower = createRcpClient<Ctx>({ resolvers: { userId }, credentials: async () => `bearer ${TOKEN}` });
    const again = await lower.discover(manifestUrl);
    await rejectsWith(lower.execute(again.tool('list_notes'), {}, { userId: 'u-1' }), 'RCP_MISSING_CREDENTIALS');
    expect(toolRequests()).toEqual([]);
  });
});

describe('7. a tool look-up that found nothing', () => {
  it('execute(undefined) says no tool was given, not "a copy"', async () => {
    const client = createRcpClient<Ctx>({ resolvers: { userId }, credentials });
    const { tools } = await client.discover(manifestUrl);
    const missing = tools.find((tool) => tool.name === 'list_note');
    const error = await rejectsWith(client.execute(missing!, {}, { userId: 'u-1' }), 'RCP_INVALID_TOOL');
    expect(error.message).toContain('No tool was given (got undefined)');
    expect(error.message).not.toContain('copy');
  });

  it('discovery.tool(name) throws RCP_UNKNOWN_TOOL with the closest and the available names', async () => {
    const client = createRcpClient<Ctx>({ resolvers: { userId }, credentials });
    const discovery = await client.discover(manifestUrl);
    expect(discovery.tool('get_note')).toBe(discovery.tools[1]);
    let caught: unknown;
    try {
      discovery.tool('list_note');
    } catch (error) {
      caught = error;
    }
    expect(isRcpError(caught, 'RCP_UNKNOWN_TOOL')).toBe(true);
    if (!isRcpError(caught, 'RCP_UNKNOWN_TOOL')) return;
    expect(caught.tool).toBe('list_note');
    expect(caught.available).toEqual(['list_notes', 'get_note', 'create_note', 'delete_note']);
    expect(caught.message).toBe('Unknown tool "list_note". Did you mean "list_notes"? Available tools: list_notes, get_note, create_note, delete_note.');
  });
});

describe('9. arguments as a JSON string', () => {
  it('execute accepts them and sends the same request as for the object', async () => {
    const client = createRcpClient<Ctx>({ resolvers: { userId }, credentials });
    const discovery = await client.discover(manifestUrl);
    const result = await client.execute(discovery.tool('create_note'), '{"title":"Call mum","text":"Sunday"}', { userId: 'u-1' });
    expect(result.status).toBe(201);
    expect(toolRequests()[0]).toMatchObject({ method: 'POST', path: '/users/u-1/notes', json: { title: 'Call mum', text: 'Sunday' } });
    const error = await rejectsWith(client.execute(discovery.tool('create_note'), '{"title":', { userId: 'u-1' }), 'RCP_INVALID_ARGUMENTS');
    expect(error.issues).toEqual([{ path: '', message: 'are not valid JSON' }]);
    expect(toolRequests()).toHaveLength(1);
  });
});

describe('8 and 12. call() and toModelResult(): the model-facing loop in the box', () => {
  /** A scripted model: the tool calls it makes, in order, as a model API hands them over. */
  const script = [
    { name: 'list_note', arguments: '{}' }, // a wrong name
    { name: 'list_notes', arguments: '{}' }, // corrected from the error text
    { name: 'get_note', arguments: '{"noteId":"n-1"}' }, // a JSON-string argument
    { name: 'get_note', arguments: { noteId: 'n-1', userId: 'u-7' } }, // a spoofed resolver-bound param
    { name: 'create_note', arguments: '{"title":"Call mum"}' },
    { name: 'delete_note', arguments: { noteId: 'n-1' } },
  ];

  it('runs a whole scripted turn with no hand-written glue', async () => {
    const client = createRcpClient<Ctx>({ resolvers: { userId }, credentials });
    const discovery = await client.discover(manifestUrl);
    server.reset();
    const transcript = [];
    for (const toolCall of script) {
      const outcome = await client.call(discovery, toolCall, { userId: 'u-1' });
      transcript.push(toModelResult(outcome));
    }
    expect(transcript[0]).toEqual({
      ok: false,
      error: {
        code: 'RCP_UNKNOWN_TOOL',
        message: 'Unknown tool "list_note". Did you mean "list_notes"? Available tools: list_notes, get_note, create_note, delete_note.',
      },
    });
    expect(transcript[1]).toEqual({ ok: true, data: [{ id: 'n-1', title: 'Groceries' }] });
    expect(transcript[2]).toEqual({ ok: true, data: { id: 'n-1', title: 'Groceries' } });
    expect(transcript[3]).toEqual({
      ok: false,
      error: { code: 'RCP_INVALID_ARGUMENTS', message: 'Invalid arguments for tool "get_note": /userId is not a parameter of this tool' },
    });
    expect(transcript[4]).toEqual({ ok: true, data: { id: 'n-2', title: 'Call mum' } });
    expect(transcript[5]).toEqual({ ok: true, data: null });
    // The server's own log: the spoof and the wrong name sent nothing; every call is the verified user's.
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /users/u-1/notes',
      'GET /users/u-1/notes/n-1',
      'POST /users/u-1/notes',
      'DELETE /users/u-1/notes/n-1',
    ]);
    expect(server.requests.every((request) => request.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('a turn without a verified user (no ctx) is a clean RCP_UNRESOLVED outcome, nothing sent', async () => {
    const client = createRcpClient({ resolvers: { userId: (ctx: Ctx) => ctx.userId }, credentials });
    const discovery = await client.discover(manifestUrl);
    server.reset();
    // @ts-expect-error the types ask for ctx; a JavaScript caller can still forget it
    const outcome = await client.call(discovery, { name: 'list_notes', arguments: '{}' });
    expect(outcome.ok).toBe(false);
    expect(outcome.tool).toBe(discovery.tool('list_notes'));
    expect(toModelResult(outcome)).toEqual({
      ok: false,
      error: { code: 'RCP_UNRESOLVED', message: 'A value the client must supply is unavailable.' },
    });
    expect(server.count).toBe(0);
  });

  it('never puts a resolver value or the credential in what the model reads', async () => {
    server.route('GET /users/u-1/notes/n-9', (_request, res) => sendJson(res, 404, { error: 'no note n-9' }));
    const client = createRcpClient<Ctx>({ resolvers: { userId }, credentials });
    const discovery = await client.discover(manifestUrl);
    const outcome = await client.call(discovery, { name: 'get_note', arguments: { noteId: 'n-9' } }, { userId: 'u-1' });
    const forModel = JSON.stringify(toModelResult(outcome));
    expect(forModel).toBe(
      JSON.stringify({ ok: false, error: { code: 'RCP_HTTP_ERROR', message: 'The tool\'s server answered HTTP 404. Response: {"error":"no note n-9"}' } }),
    );
    expect(forModel).not.toContain('u-1');
    expect(forModel).not.toContain(TOKEN);
    // The operator still has everything: the URL is in the error itself.
    expect(outcome.ok === false && outcome.error.message).toContain('/users/[redacted]/notes/n-9');
  });

  it('a list of tools restricts what a call may reach, and its unknown-tool text lists only those', async () => {
    const client = createRcpClient<Ctx>({ resolvers: { userId }, credentials });
    const discovery = await client.discover(manifestUrl);
    server.reset();
    const readOnly = discovery.tools.filter((tool) => tool.method === 'GET');
    const outcome = await client.call(readOnly, { name: 'delete_note', arguments: { noteId: 'n-1' } }, { userId: 'u-1' });
    expect(toModelResult(outcome)).toEqual({
      ok: false,
      error: { code: 'RCP_UNKNOWN_TOOL', message: 'Unknown tool "delete_note". Available tools: list_notes, get_note.' },
    });
    const twice = await client.call([...readOnly, ...readOnly], { name: 'get_note', arguments: {} }, { userId: 'u-1' });
    expect(twice.ok === false && twice.error.message).toBe('Tool "get_note" is ambiguous: more than one tool has this name.');
    expect(server.count).toBe(0);
  });

  it('a call with no name, or a source that is not a discovery', async () => {
    const client = createRcpClient<Ctx>({ resolvers: { userId }, credentials });
    const discovery = await client.discover(manifestUrl);
    const outcome = await client.call(discovery, {} as never, { userId: 'u-1' });
    expect(outcome.ok === false && outcome.error.code).toBe('RCP_UNKNOWN_TOOL');
    expect(outcome.ok === false && outcome.error.message).toMatch(/^A tool call must name a tool\. Available tools: list_notes/);
    await rejectsWith(client.call({} as never, { name: 'x' }, { userId: 'u-1' }), 'RCP_INVALID_OPTIONS');
  });
});
