import { afterEach, describe, expect, it } from 'vitest';
import { createRcpClient, type RcpDiscovery } from 'rcp-client';
import { seedManifestAt, sendJson, type TestServer } from 'rcp-test-utils';
import { ModelToolRegistry } from './model-tool-registry';
import { createRcpModelTools } from './rcp-model-tools';
import { asyncCodeOf, codeOf, serveManifest } from './internal/testing';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function seedServer() {
  const server = await serveManifest(seedManifestAt);
  servers.push(server);
  server.route('GET /learners/u-1/profile', (_request, res) => sendJson(res, 200, { data: { name: 'Ada', progress: { percent: 40 } } }));
  server.route('GET /courses/search', (request, res) => sendJson(res, 200, { results: [{ title: `Intro to ${request.query[0]?.[1]}` }] }));
  return server;
}

const client = createRcpClient<{ currentUserId?: string }>({
  resolvers: { learnerId: (ctx) => ctx.currentUserId },
  retry: 0,
});

describe('createRcpModelTools', () => {
  it('makes one model tool per discovered tool, with the model-facing schema', async () => {
    const server = await seedServer();
    const discovery = await client.discover(server.manifestUrl);
    const tools = createRcpModelTools(client, discovery);
    expect(tools.map((tool) => tool.id)).toEqual(['get_learner_profile', 'search_courses']);
    const [profile, search] = tools;
    expect(profile!.description).toBe("Fetches a learner's plan and progress by id.");
    expect(profile!.inputSchema.jsonSchema).toBe(discovery.tools[0]!.inputSchema);
    expect(profile!.inputSchema.jsonSchema).toEqual({
      type: 'object',
      properties: {},
      required: [],
      additionalProperties: false,
    });
    expect(search!.inputSchema.jsonSchema).toMatchObject({ required: ['query'] });
    expect(Object.isFrozen(tools)).toBe(true);
    expect(Object.isFrozen(profile)).toBe(true);
  });

  it('parses with rcp-client validateArguments: a spoofed resolver-bound param is refused synchronously', async () => {
    const server = await seedServer();
    const [profile, search] = createRcpModelTools(client, await client.discover(server.manifestUrl));
    expect(search!.inputSchema.parse({ query: 'algebra' })).toEqual({ query: 'algebra' });
    expect(codeOf(() => profile!.inputSchema.parse({ learnerId: 'someone-else' }))).toBe('RCP_INVALID_ARGUMENTS');
    expect(codeOf(() => search!.inputSchema.parse({ query: 7 }))).toBe('RCP_INVALID_ARGUMENTS');
    expect(codeOf(() => search!.inputSchema.parse({}))).toBe('RCP_INVALID_ARGUMENTS');
  });

  it('resolve is synchronous and returns a frozen call plan, not a promise; nothing is sent', async () => {
    const server = await seedServer();
    const discovery = await client.discover(server.manifestUrl);
    server.reset();
    const [, search] = createRcpModelTools(client, discovery);
    const plan = search!.resolve({ query: 'algebra' }, { stageId: 'browse' });
    expect(plan).not.toBeInstanceOf(Promise);
    expect(typeof (plan as { then?: unknown }).then).toBe('undefined');
    expect(plan).toMatchObject({ toolId: 'search_courses', stageId: 'browse', input: { query: 'algebra' } });
    expect(plan.tool).toBe(discovery.tools[1]);
    expect(Object.isFrozen(plan)).toBe(true);
    expect(Object.isFrozen(plan.input)).toBe(true);
    expect(server.count).toBe(0);
  });

  it('executing a plan performs exactly one HTTP request, carrying the resolver value', async () => {
    const server = await seedServer();
    const registry = new ModelToolRegistry(createRcpModelTools(client, await client.discover(server.manifestUrl))).seal();
    server.reset();
    const plan = registry.resolve({ toolId: 'get_learner_profile', input: {} }, { stageId: 'act' });
    expect(server.count).toBe(0);
    const result = await plan.execute({ currentUserId: 'u-1' });
    expect(server.count).toBe(1);
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/learners/u-1/profile' });
    expect(result).toEqual({ status: 200, data: { name: 'Ada', progress: 40 }, contentType: 'application/json' });
  });

  it('refuses a spoofed resolver-bound param at resolution with zero requests', async () => {
    const server = await seedServer();
    const registry = new ModelToolRegistry(createRcpModelTools(client, await client.discover(server.manifestUrl))).seal();
    server.reset();
    expect(codeOf(() => registry.resolve({ toolId: 'get_learner_profile', input: { learnerId: 'victim' } }, { stageId: 'act' }))).toBe('RCP_INVALID_ARGUMENTS');
    expect(
      codeOf(() => registry.resolve({ toolId: 'get_learner_profile', input: JSON.parse('{"__proto__":{"learnerId":"victim"}}') }, { stageId: 'act' })),
    ).toBe('RCP_INVALID_ARGUMENTS');
    expect(server.count).toBe(0);
  });

  it('re-validates in resolve, so a registry that skips parse cannot smuggle arguments into a plan', async () => {
    const server = await seedServer();
    const [profile] = createRcpModelTools(client, await client.discover(server.manifestUrl));
    server.reset();
    expect(codeOf(() => profile!.resolve({ learnerId: 'victim' }, { stageId: 'act' }))).toBe('RCP_INVALID_ARGUMENTS');
    expect(codeOf(() => profile!.resolve({}, undefined as never))).toBe('RCP_INVALID_OPTIONS');
    expect(server.count).toBe(0);
  });

  it('passes ctx and signal through to client.execute', async () => {
    const server = await seedServer();
    const [profile] = createRcpModelTools(client, await client.discover(server.manifestUrl));
    server.reset();
    const plan = profile!.resolve({}, { stageId: 'act' });
    expect(await asyncCodeOf(() => plan.execute({}))).toBe('RCP_UNRESOLVED');
    const controller = new AbortController();
    controller.abort();
    expect(await asyncCodeOf(() => plan.execute({ currentUserId: 'u-1' }, { signal: controller.signal }))).toBe('RCP_ABORTED');
    expect(server.count).toBe(0);
  });

  it('refuses a missing client or a discovery that is not one', () => {
    expect(codeOf(() => createRcpModelTools(undefined as never, []))).toBe('RCP_INVALID_OPTIONS');
    expect(codeOf(() => createRcpModelTools(client, [{}] as never))).toBe('RCP_INVALID_OPTIONS');
    expect(codeOf(() => createRcpModelTools(client, [], { namespace: 'x' as never }))).toBe('RCP_INVALID_OPTIONS');
  });
});

describe('tool ids when names clash', () => {
  const searchOnly = (origin: string) => ({
    rcpVersion: '0.1',
    tools: [
      {
        name: 'search_courses',
        description: 'Searches the partner catalog.',
        method: 'GET',
        url: `${origin}/partner/search`,
        queryParams: { q: '{{query}}' },
        params: [{ name: 'query', required: true }],
      },
    ],
  });

  it('namespaces EVERY tool sharing a name (two real servers), and each plan goes to its own server', async () => {
    const learn = await seedServer();
    const partner = await serveManifest(searchOnly);
    servers.push(partner);
    partner.route('GET /partner/search', (_request, res) => sendJson(res, 200, { from: 'partner' }));
    const discoveries = [await client.discover(learn.manifestUrl), await client.discover(partner.manifestUrl)];
    learn.reset();
    partner.reset();
    const tools = createRcpModelTools(client, discoveries);
    const learnNs = new URL(learn.origin).host.replace(/[.:]/g, '_');
    const partnerNs = new URL(partner.origin).host.replace(/[.:]/g, '_');
    expect(tools.map((tool) => tool.id)).toEqual(['get_learner_profile', `${learnNs}__search_courses`, `${partnerNs}__search_courses`]);
    const registry = new ModelToolRegistry(tools).seal();
    expect(codeOf(() => registry.resolve({ toolId: 'search_courses', input: { query: 'x' } }, { stageId: 's' }))).toBe('RCP_UNKNOWN_TOOL');
    const partnerPlan = registry.resolve({ toolId: `${partnerNs}__search_courses`, input: { query: 'x' } }, { stageId: 's' });
    expect((await partnerPlan.execute({})).data).toEqual({ from: 'partner' });
    expect(partner.count).toBe(1);
    expect(learn.count).toBe(0);
    const learnPlan = registry.resolve({ toolId: `${learnNs}__search_courses`, input: { query: 'x' } }, { stageId: 's' });
    await learnPlan.execute({});
    expect(learn.count).toBe(1);
    expect(partner.count).toBe(1);
  });

  const fake = (manifestUrl: string, ...names: string[]) =>
    ({
      manifestUrl,
      tools: names.map((name) => ({ name, description: name, inputSchema: { type: 'object' } })),
    }) as unknown as RcpDiscovery;

  it('derives the default namespace from the manifest host', () => {
    const tools = createRcpModelTools(client, [
      fake('https://learn.example.com/rcp/manifest', 'search_courses', 'enroll'),
      fake('https://shop.example.com:8443/rcp/manifest', 'search_courses'),
      fake('http://[::1]:8080/rcp/manifest', 'search_courses'),
    ]);
    expect(tools.map((tool) => tool.id)).toEqual([
      'learn_example_com__search_courses',
      'enroll',
      'shop_example_com_8443__search_courses',
      '1_8080__search_courses',
    ]);
  });

  it('uses a custom namespace, called once per clashing discovery', () => {
    const calls: number[] = [];
    const tools = createRcpModelTools(
      client,
      [fake('https://a.example/m', 'x', 'y'), fake('https://b.example/m', 'x', 'y'), fake('https://c.example/m', 'z')],
      { namespace: (_discovery, index) => (calls.push(index), ['learn', 'shop', 'other'][index]!) },
    );
    expect(tools.map((tool) => tool.id)).toEqual(['learn__x', 'learn__y', 'shop__x', 'shop__y', 'z']);
    expect(calls).toEqual([0, 1]);
  });

  it('shortens a long default namespace to keep ids within 64 characters', () => {
    const longHost = `${'a'.repeat(60)}.example.com`;
    const [first, second] = createRcpModelTools(client, [fake(`https://${longHost}/m`, 'search_courses'), fake('https://b.example/m', 'search_courses')]);
    expect(first!.id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(first!.id).toHaveLength(64);
    expect(first!.id.endsWith('__search_courses')).toBe(true);
    expect(second!.id).toBe('b_example__search_courses');
  });

  it('refuses ids that would still collide, or a namespace that is invalid or too long', () => {
    expect(codeOf(() => createRcpModelTools(client, [fake('https://a.example/m', 'x'), fake('https://a.example/m', 'x')]))).toBe('RCP_INVALID_TOOL');
    expect(codeOf(() => createRcpModelTools(client, [fake('https://a.example/m', 'x', 'b_example__x'), fake('https://b.example/m', 'x')]))).toBe(
      'RCP_INVALID_TOOL',
    );
    const clash = [fake('https://a.example/m', 'x'), fake('https://b.example/m', 'x')];
    expect(codeOf(() => createRcpModelTools(client, clash, { namespace: () => 'bad space' }))).toBe('RCP_INVALID_OPTIONS');
    expect(codeOf(() => createRcpModelTools(client, clash, { namespace: () => '' }))).toBe('RCP_INVALID_OPTIONS');
    expect(codeOf(() => createRcpModelTools(client, clash, { namespace: (_d, i) => 'n'.repeat(70) + i }))).toBe('RCP_INVALID_OPTIONS');
    expect(codeOf(() => createRcpModelTools(client, clash, { namespace: () => 'same' }))).toBe('RCP_INVALID_TOOL');
  });
});
