import { afterEach, describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { RcpError } from 'rcp-errors';
import { sendJson, type TestServer } from 'rcp-test-utils';
import { createRcpRegistry } from './create-rcp-registry';
import type { RcpCallPlan } from './rcp-model-tools';
import { toModelResult, type ModelResult } from './index';
import { serveManifest } from './internal/testing';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const SECRET_USER = 'u-secret-4242';
const TOKEN = 'tok_live_SUPERSECRET';

const manifest = (origin: string) => ({
  rcpVersion: '0.1',
  auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
  tools: [
    {
      name: 'get_profile',
      description: "Get the current user's profile.",
      method: 'GET',
      url: `${origin}/users/{{userId}}`,
      params: [{ name: 'userId', required: true, description: "the user's id" }],
    },
    {
      name: 'get_course',
      description: 'Get a course.',
      method: 'GET',
      url: `${origin}/courses/{{courseId}}`,
      params: [{ name: 'courseId', required: true }],
    },
  ],
});

type Ctx = { userId?: unknown; token?: string; resolverThrows?: boolean };

async function setup() {
  const server = await serveManifest(manifest);
  servers.push(server);
  server.route('GET /users/u-1', (_request, res) => sendJson(res, 200, { name: 'Ada' }));
  // The server echoes what it received, credential included: the client must redact it.
  server.route(`GET /users/${SECRET_USER}`, (request, res) =>
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
  const discovery = await client.discover(server.manifestUrl);
  server.reset();
  const { transports } = createRcpRegistry({ client, discoveries: [discovery], stages: { act: () => true } });
  return { server, act: transports.act! };
}

const run = (plan: RcpCallPlan<Ctx>, ctx: Ctx): Promise<ModelResult> =>
  plan.execute(ctx).then(toModelResult, (error: unknown) => toModelResult(error, plan));

function expectNoLeak(result: ModelResult, ...secrets: string[]): void {
  const text = JSON.stringify(result);
  for (const secret of [TOKEN, SECRET_USER, 'hunter2', ...secrets]) expect(text).not.toContain(secret);
}

describe('toModelResult', () => {
  it('turns a result into { ok: true, data }', async () => {
    const { act } = await setup();
    const result = await run(act.select({ name: 'get_profile', arguments: '{}' }), { userId: 'u-1', token: TOKEN });
    expect(result).toEqual({ ok: true, data: { name: 'Ada' } });
    expect(Object.isFrozen(result)).toBe(true);
  });

  it('RCP_UNRESOLVED: a generic message that does not name the resolver-bound param', async () => {
    const { server, act } = await setup();
    const result = await run(act.select({ name: 'get_profile', arguments: '{}' }), { token: TOKEN });
    expect(result).toEqual({
      ok: false,
      error: { code: 'RCP_UNRESOLVED', message: 'A value the client must supply is unavailable.' },
    });
    expect(JSON.stringify(result)).not.toContain('userId');
    expect(server.count).toBe(0);
  });

  it('RCP_RESOLVER_FAILED: neither the resolver error nor the param reaches the model', async () => {
    const { act } = await setup();
    const result = await run(act.select({ name: 'get_profile', arguments: '{}' }), { resolverThrows: true, token: TOKEN });
    expect(result).toEqual({
      ok: false,
      error: { code: 'RCP_RESOLVER_FAILED', message: 'A value the client must supply could not be obtained.' },
    });
    expectNoLeak(result, 'userId');
  });

  it('RCP_RESOLVER_FAILED for a value of the wrong type', async () => {
    const { act } = await setup();
    const result = await run(act.select({ name: 'get_profile', arguments: '{}' }), { userId: { id: SECRET_USER }, token: TOKEN });
    expect(result).toMatchObject({ ok: false, error: { code: 'RCP_RESOLVER_FAILED' } });
    expectNoLeak(result, 'userId');
  });

  it('RCP_HTTP_ERROR: status and the server text (credential redacted), never the URL holding the resolver value', async () => {
    const { act } = await setup();
    const plan = act.select({ name: 'get_profile', arguments: '{}' });
    const raw = await plan.execute({ userId: SECRET_USER, token: TOKEN }).catch((error: unknown) => error);
    expect((raw as { status?: number }).status).toBe(404);
    const result = toModelResult(raw);
    expect(result).toMatchObject({ ok: false, error: { code: 'RCP_HTTP_ERROR' } });
    const { message } = (result as Extract<ModelResult, { ok: false }>).error;
    expect(message).toMatch(/^The tool's server answered HTTP 404\. Response: /);
    expect(message).toContain('no such user');
    expect(message).not.toContain('127.0.0.1'); // never the client's message naming the URL
    expectNoLeak(result);
  });

  it('RCP_MISSING_CREDENTIALS: generic', async () => {
    const { server, act } = await setup();
    const result = await run(act.select({ name: 'get_profile', arguments: '{}' }), { userId: 'u-1' });
    expect(result).toEqual({
      ok: false,
      error: { code: 'RCP_MISSING_CREDENTIALS', message: 'The client has no credentials for this tool.' },
    });
    expect(server.count).toBe(0);
  });

  it('template errors name a model-fillable param (with the plan), never a resolver-bound one', async () => {
    const { server, act } = await setup();
    const modelPlan = act.select({ name: 'get_course', arguments: '{"courseId":".."}' });
    const modelError = await modelPlan.execute({ token: TOKEN }).catch((error: unknown) => error);
    expect(toModelResult(modelError, modelPlan)).toMatchObject({
      ok: false,
      error: { code: 'RCP_TEMPLATE_VALUE', message: expect.stringContaining('courseId') },
    });
    // Without the plan, the token cannot be known to be model-facing: generic.
    expect(toModelResult(modelError)).toEqual({
      ok: false,
      error: { code: 'RCP_TEMPLATE_VALUE', message: 'A value could not be placed in the request.' },
    });
    const resolverPlan = act.select({ name: 'get_profile', arguments: '{}' });
    const resolverError = await resolverPlan.execute({ userId: '..', token: TOKEN }).catch((error: unknown) => error);
    expect((resolverError as { code?: string }).code).toBe('RCP_TEMPLATE_VALUE');
    const result = toModelResult(resolverError, resolverPlan);
    expect(result).toEqual({
      ok: false,
      error: { code: 'RCP_TEMPLATE_VALUE', message: 'A value could not be placed in the request.' },
    });
    expect(server.count).toBe(0);
  });

  it('passes on messages about what the model sent', () => {
    let thrown: unknown;
    try {
      throw new RcpError('RCP_TOOL_NOT_IN_STAGE', 'Tool "enroll" is not available in stage "browse".');
    } catch (error) {
      thrown = error;
    }
    expect(toModelResult(thrown)).toEqual({
      ok: false,
      error: { code: 'RCP_TOOL_NOT_IN_STAGE', message: 'Tool "enroll" is not available in stage "browse".' },
    });
  });

  it('turns anything that is not an RCP error into UNKNOWN_ERROR without its message', () => {
    for (const thrown of [new Error(`boom ${TOKEN}`), TOKEN, undefined, null, 42, Object.assign(new Error(TOKEN), { data: TOKEN })]) {
      const result = toModelResult(thrown);
      expect(result).toEqual({ ok: false, error: { code: 'UNKNOWN_ERROR', message: 'The tool could not be called.' } });
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
