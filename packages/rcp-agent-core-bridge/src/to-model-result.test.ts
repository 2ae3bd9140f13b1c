/**
 * rcp-client's own tests cover what a model may be told (rcp-client/src/to-model-result.test.ts);
 * here only the bridge's part: a plan is `toModelResult`'s context (its `tool`), so a failed
 * plan's template error names a model-fillable param and never a resolver-bound one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { sendJson, type TestServer } from 'rcp-test-utils';
import { createRcpRegistry } from './create-rcp-registry';
import { toModelResult } from './index';
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

describe('toModelResult with a plan', () => {
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
});
