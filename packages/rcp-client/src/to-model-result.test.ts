/**
 * What a model may be told of a call (SPEC §14): `toModelResult` over what `client.call` and
 * `client.execute` really produce against a real loopback server — no credential, no resolver
 * value, no resolver-bound param name in it, and nothing sent when a call fails early.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolverSeedManifest, sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient, RcpError, toModelResult, type ModelResult, type RcpToolCall } from 'rcp-client';
import { serveManifest } from './internal/testing';

const SECRET_USER = 'u-secret-4242';
const TOKEN = 'tok_live_SUPERSECRET';

// The resolvers seed's get_profile (header auth, userId resolver-bound) and a model-filled tool.
const manifest = {
  ...resolverSeedManifest,
  tools: [
    ...resolverSeedManifest.tools,
    { name: 'get_course', description: 'Get a course.', method: 'GET', url: '/courses/{{courseId}}', params: [{ name: 'courseId', required: true }] },
  ],
};

type Ctx = { userId?: unknown; token?: string; resolverThrows?: boolean };

let api: TestServer;
beforeEach(async () => {
  api = await startTestServer();
});
afterEach(async () => {
  await api.close();
});

async function setUp() {
  api.route('GET /users/u-1', (_request, res) => sendJson(res, 200, { name: 'Ada' }));
  // The server echoes what it received, credential included: the client must redact it.
  api.route(`GET /users/${SECRET_USER}`, (request, res) =>
    sendJson(res, 404, { error: 'no such user', path: request.path, authorization: request.headers.authorization }),
  );
  const client = createRcpClient<Ctx>({
    resolvers: {
      userId: (ctx) => {
        if (ctx.resolverThrows) throw new Error(`database password hunter2 while looking up ${SECRET_USER}`);
        return ctx.userId;
      },
    },
    credentials: ({ ctx }) => ctx.token,
    retry: 0,
  });
  const discovery = await client.discover(serveManifest(api, manifest));
  api.reset();
  const run = async (toolCall: RcpToolCall, ctx: Ctx): Promise<ModelResult> => toModelResult(await client.call(discovery, toolCall, ctx));
  const tool = (name: string) => discovery.tools.find((candidate) => candidate.name === name)!;
  return { client, run, tool };
}

const profile: RcpToolCall = { name: 'get_profile', arguments: '{}' };

function expectNoLeak(result: ModelResult, ...secrets: string[]): void {
  const text = JSON.stringify(result);
  for (const secret of [TOKEN, SECRET_USER, 'hunter2', ...secrets]) expect(text).not.toContain(secret);
}

describe('toModelResult', () => {
  it('turns a result into a frozen { ok: true, data }', async () => {
    const { run } = await setUp();
    const result = await run(profile, { userId: 'u-1', token: TOKEN });
    expect(result).toEqual({ ok: true, data: { name: 'Ada' } });
    expect(Object.isFrozen(result)).toBe(true);
    expect(api.requests.map((request) => request.path)).toEqual(['/users/u-1']);
  });

  it('RCP_UNRESOLVED: a generic message that does not name the resolver-bound param; nothing sent', async () => {
    const { run } = await setUp();
    const result = await run(profile, { token: TOKEN });
    expect(result).toEqual({ ok: false, error: { code: 'RCP_UNRESOLVED', message: 'A value the client must supply is unavailable.' } });
    expect(JSON.stringify(result)).not.toContain('userId');
    expect(api.count).toBe(0);
  });

  it('RCP_RESOLVER_FAILED: neither the resolver error nor the param reaches the model; nothing sent', async () => {
    const { run } = await setUp();
    const result = await run(profile, { resolverThrows: true, token: TOKEN });
    expect(result).toEqual({ ok: false, error: { code: 'RCP_RESOLVER_FAILED', message: 'A value the client must supply could not be obtained.' } });
    expectNoLeak(result, 'userId');
    expect(api.count).toBe(0);
  });

  it('RCP_RESOLVER_FAILED for a value of the wrong type, the value not echoed', async () => {
    const { run } = await setUp();
    const result = await run(profile, { userId: { id: SECRET_USER }, token: TOKEN });
    expect(result).toMatchObject({ ok: false, error: { code: 'RCP_RESOLVER_FAILED' } });
    expectNoLeak(result, 'userId');
    expect(api.count).toBe(0);
  });

  it('RCP_HTTP_ERROR: status and the server text (credential redacted), never the URL holding the resolver value', async () => {
    const { client, tool } = await setUp();
    const raw = await client.execute(tool('get_profile'), {}, { userId: SECRET_USER, token: TOKEN }).catch((error: unknown) => error);
    expect((raw as { status?: number }).status).toBe(404);
    // The server really got the credential and echoed it back.
    expect(api.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const result = toModelResult(raw);
    expect(result).toMatchObject({ ok: false, error: { code: 'RCP_HTTP_ERROR' } });
    const { message } = (result as Extract<ModelResult, { ok: false }>).error;
    expect(message).toMatch(/^The tool's server answered HTTP 404\. Response: /);
    expect(message).toContain('no such user');
    expect(message).not.toContain('127.0.0.1'); // never the client's message naming the URL
    expectNoLeak(result);
  });

  it('RCP_MISSING_CREDENTIALS: generic; nothing sent', async () => {
    const { run } = await setUp();
    const result = await run(profile, { userId: 'u-1' });
    expect(result).toEqual({ ok: false, error: { code: 'RCP_MISSING_CREDENTIALS', message: 'The client has no credentials for this tool.' } });
    expect(api.count).toBe(0);
  });

  it('template errors name a model-fillable param (with the tool), never a resolver-bound one; nothing sent', async () => {
    const { client, run, tool } = await setUp();
    // Through call: the outcome carries its tool.
    expect(await run({ name: 'get_course', arguments: '{"courseId":".."}' }, { token: TOKEN })).toMatchObject({
      ok: false,
      error: { code: 'RCP_TEMPLATE_VALUE', message: expect.stringContaining('courseId') },
    });
    // What execute threw: with the tool as context the message is kept, without it generic.
    const course = tool('get_course');
    const modelError = await client.execute(course, { courseId: '..' }, { token: TOKEN }).catch((error: unknown) => error);
    expect(toModelResult(modelError, { tool: course })).toMatchObject({
      ok: false,
      error: { code: 'RCP_TEMPLATE_VALUE', message: expect.stringContaining('courseId') },
    });
    expect(toModelResult(modelError)).toEqual({ ok: false, error: { code: 'RCP_TEMPLATE_VALUE', message: 'A value could not be placed in the request.' } });
    // A resolver's value that cannot be placed: the param it fills is never named.
    const resolverResult = await run(profile, { userId: '..', token: TOKEN });
    expect(resolverResult).toEqual({ ok: false, error: { code: 'RCP_TEMPLATE_VALUE', message: 'A value could not be placed in the request.' } });
    expect(api.count).toBe(0);
  });

  it('passes on messages about what the model sent (an unknown tool, bad arguments)', async () => {
    const { run } = await setUp();
    const unknown = await run({ name: 'enroll', arguments: {} }, { token: TOKEN });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'RCP_UNKNOWN_TOOL', message: expect.stringContaining('enroll') } });
    const invalid = await run({ name: 'get_course', arguments: '{"courseId":1}' }, { token: TOKEN });
    expect(invalid).toEqual({
      ok: false,
      error: { code: 'RCP_INVALID_ARGUMENTS', message: 'Invalid arguments for tool "get_course": /courseId must be a string (got integer)' },
    });
    expect(toModelResult(new RcpError('RCP_TOOL_NOT_IN_STAGE', 'Tool "enroll" is not available in stage "browse".'))).toEqual({
      ok: false,
      error: { code: 'RCP_TOOL_NOT_IN_STAGE', message: 'Tool "enroll" is not available in stage "browse".' },
    });
    expect(api.count).toBe(0);
  });

  it('turns anything that is not an RCP error into UNKNOWN_ERROR without its message', () => {
    for (const thrown of [new Error(`boom ${TOKEN}`), TOKEN, undefined, null, 42, Object.assign(new Error(TOKEN), { data: TOKEN })]) {
      expect(toModelResult(thrown)).toEqual({ ok: false, error: { code: 'UNKNOWN_ERROR', message: 'The tool could not be called.' } });
    }
  });

  it('gives other RCP codes a fixed message', () => {
    expect(toModelResult(new RcpError('RCP_ORIGIN_NOT_ALLOWED', `refused https://evil.example/${SECRET_USER}`))).toEqual({
      ok: false,
      error: { code: 'RCP_ORIGIN_NOT_ALLOWED', message: "The client does not allow calls to this tool's destination." },
    });
    expect(toModelResult(new RcpError('RCP_INVALID_MANIFEST', `bad ${SECRET_USER}`))).toEqual({
      ok: false,
      error: { code: 'RCP_INVALID_MANIFEST', message: 'The tool could not be called.' },
    });
  });
});
