/**
 * Issue 42, item 2, as it is deployed: a long-running operation started in one app process is
 * resumed in another that shares only the approval secret — the handle carries everything, no
 * store — for the same user and tenant only. Real processes (fixtures/operation-instance.mjs), a
 * loopback render API started here that records what it received. Nothing leaves 127.0.0.1.
 */
import { sendJson, SPAWN_TIMEOUT, startTestServer, type TestServer } from 'rcp-test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Instance, startInstance } from './instances';

const SECRET = 'the render app operator secret, 32+ bytes';

describe('a long-running operation across app processes (issue 42)', () => {
  let api: TestServer;
  const instances: Instance[] = [];
  let first: Instance;
  let second: Instance;
  let stranger: Instance;
  let done = false;

  // Three node processes import rcp-client before they listen: on a loaded 2-core machine that can
  // take longer than vitest's 10 s hook default; SPAWN_TIMEOUT is far above the worst start seen.
  beforeAll(async () => {
    api = await startTestServer();
    api.route('GET /rcp/manifest', (_request, res) =>
      sendJson(res, 200, {
        rcpVersion: '0.4',
        auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
        tools: [
          {
            name: 'render',
            description: 'Renders a video.',
            method: 'POST',
            url: '/renders',
            params: [
              { name: 'prompt', required: true },
              { name: 'tenant', required: true },
            ],
            headers: { 'X-Tenant': '{{tenant}}' },
            body: { prompt: '{{prompt}}' },
            operation: { statusUrl: 'header:Location', state: '@status', done: ['succeeded'], result: '@output', pollSeconds: 60 },
          },
        ],
      }),
    );
    api.route('POST /renders', (_request, res) => sendJson(res, 202, { status: 'queued' }, { location: '/jobs/j-1' }));
    api.route('GET /jobs/j-1', (_request, res) => sendJson(res, 200, done ? { status: 'succeeded', output: { url: '/v/1.mp4' } } : { status: 'running' }));
    [first, second, stranger] = await Promise.all([
      startInstance('operation-instance', { RCP_SECRET: SECRET }),
      startInstance('operation-instance', { RCP_SECRET: SECRET }),
      startInstance('operation-instance', { RCP_SECRET: 'another operator secret, also 32+ bytes' }),
    ]);
    instances.push(first, second, stranger);
  }, SPAWN_TIMEOUT);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await api?.close();
  });

  async function post(instance: Instance, path: string, input: Record<string, unknown>): Promise<Record<string, any>> {
    const response = await fetch(`${instance.url}${path}`, { method: 'POST', body: JSON.stringify({ manifestUrl: api.url('/rcp/manifest'), ...input }) });
    return (await response.json()) as Record<string, any>;
  }

  const jobRequests = () => api.requests.filter((request) => request.path !== '/rcp/manifest');

  // Seven requests to three processes, each of which loads undici and discovers on its first call: ~3 s quiet, more
  // beside another run; the same bound as the processes' start.
  it('started in one process, pending; resumed in another for the same user; refused for another user, tenant or secret', {
    timeout: SPAWN_TIMEOUT,
  }, async () => {
    const started = await post(first, '/call', { user: 'ada', tenant: 't-1', prompt: 'a lighthouse' });
    expect(started).toMatchObject({ status: 202, data: { status: 'queued' }, pending: { checkAfterSeconds: 60 } });
    const handle: string = started.pending.handle;
    expect(jobRequests().map((request) => `${request.method} ${request.path}`)).toEqual(['POST /renders']);

    done = true;
    api.reset();
    expect(await post(second, '/resume', { user: 'bob', tenant: 't-1', handle })).toEqual({ error: 'RCP_INVALID_HANDLE' });
    expect(await post(second, '/resume', { user: 'ada', tenant: 't-2', handle })).toEqual({ error: 'RCP_INVALID_HANDLE' });
    expect(await post(stranger, '/resume', { user: 'ada', tenant: 't-1', handle })).toEqual({ error: 'RCP_INVALID_HANDLE' });
    expect(jobRequests()).toEqual([]);

    expect(await post(second, '/resume', { user: 'ada', tenant: 't-1', handle })).toEqual({ status: 200, data: { url: '/v/1.mp4' }, pending: null });
    const [poll] = jobRequests();
    expect(jobRequests()).toHaveLength(1);
    expect([poll!.method, poll!.path, poll!.headers.authorization, poll!.headers['x-tenant']]).toEqual(['GET', '/jobs/j-1', 'Bearer tok-ada', 't-1']);
  });
});
