import { afterEach, describe, expect, it } from 'vitest';
import { createRcpClient, createToolSet, toModelResult } from 'rcp-client';
import { seedManifestAt, sendJson, type TestServer } from 'rcp-test-utils';
import type { ModelTool, ModelToolContext, ModelToolSelection, SealedModelToolRegistry } from './model-tool';
import { createRcpRegistry } from './create-rcp-registry';
import { codeOf, serveManifest } from './internal/testing';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** The seed manifest plus a POST tool. */
const shopManifest = (origin: string) => {
  const seed = seedManifestAt(origin);
  return {
    ...seed,
    tools: [
      ...seed.tools,
      {
        name: 'enroll',
        description: 'Enrolls the learner in a course.',
        method: 'POST',
        url: `${origin}/learners/{{learnerId}}/enrollments`,
        body: { courseId: '{{courseId}}' },
        params: [
          { name: 'learnerId', description: "The learner's id" },
          { name: 'courseId', required: true, description: 'The course to enroll in' },
        ],
      },
    ],
  };
};

const client = createRcpClient<{ currentUserId?: string }>({
  resolvers: { learnerId: (ctx) => ctx.currentUserId },
  retry: 0,
});

async function setup() {
  const server = await serveManifest(shopManifest);
  servers.push(server);
  server.route('GET /courses/search', (_request, res) => sendJson(res, 200, { results: ['Algebra I'] }));
  server.route('POST /learners/u-1/enrollments', (request, res) => sendJson(res, 201, { enrolled: request.json }));
  const discovery = await client.discover(server.manifestUrl);
  server.reset();
  return { server, discovery };
}

describe('createRcpRegistry', () => {
  it('builds the sealed catalog, one sealed projection and one transport per stage', async () => {
    const { discovery } = await setup();
    const { registry, stages, transports } = createRcpRegistry({
      client,
      discoveries: [discovery],
      stages: { browse: ['search_courses'], readOnly: (tool) => tool.method === 'GET', act: () => true },
    });
    expect(registry.ids()).toEqual(['get_learner_profile', 'search_courses', 'enroll']);
    expect(stages.browse.ids()).toEqual(['search_courses']);
    expect(stages.readOnly.ids()).toEqual(['get_learner_profile', 'search_courses']);
    expect(stages.act.ids()).toEqual(registry.ids());
    expect(transports.browse.id).toBe('browse');
    expect(transports.browse.catalog()).toEqual([
      {
        name: 'search_courses',
        description: 'Searches the course catalog by free-text query.',
        parameters: {
          type: 'object',
          properties: { query: { type: 'string', description: 'Free-text search term' } },
          required: ['query'],
          additionalProperties: false,
        },
      },
    ]);
    for (const value of [registry, stages, transports, stages.browse, transports.act]) {
      expect(Object.isFrozen(value)).toBe(true);
    }
  });

  it('enforces stages at resolution: out-of-stage and unknown tools are refused synchronously, zero requests', async () => {
    const { server, discovery } = await setup();
    const { stages, transports } = createRcpRegistry({
      client,
      discoveries: discovery,
      stages: { browse: ['search_courses'], act: () => true },
    });
    const call = { name: 'enroll', arguments: '{"courseId":"c-1"}' };
    expect(codeOf(() => transports.browse.select(call))).toBe('RCP_TOOL_NOT_IN_STAGE');
    expect(codeOf(() => stages.browse.resolve({ toolId: 'enroll', input: { courseId: 'c-1' } }, { stageId: 'browse' }))).toBe('RCP_TOOL_NOT_IN_STAGE');
    expect(codeOf(() => transports.browse.select({ name: 'delete_everything', arguments: '{}' }))).toBe('RCP_UNKNOWN_TOOL');
    expect(codeOf(() => transports.act.select({ name: 'enroll', arguments: '{"courseId":"c-1","learnerId":"victim"}' }))).toBe('RCP_INVALID_ARGUMENTS');
    expect(server.count).toBe(0);
  });

  it("a stage is the client's tool-set stage: the same refusal, code and model text, as client.call gives", async () => {
    const { server, discovery } = await setup();
    const { transports } = createRcpRegistry({ client, discoveries: discovery, stages: { browse: ['search_courses'] } });
    const call = { name: 'enroll', arguments: '{"courseId":"c-1"}' };
    let refused: unknown;
    try {
      transports.browse.select(call);
    } catch (error) {
      refused = error;
    }
    const browse = createToolSet(discovery).select(['search_courses'], { stage: 'browse' });
    const outcome = await client.call(browse, call, { currentUserId: 'u-1' });
    expect(toModelResult(refused)).toEqual(toModelResult(outcome));
    expect(toModelResult(refused)).toMatchObject({ ok: false, error: { code: 'RCP_TOOL_NOT_IN_STAGE' } });
    expect(server.count).toBe(0);
  });

  it('a stage lists its tools in catalog order, whatever the order of its list (as toolSet.select does)', async () => {
    const { discovery } = await setup();
    const { stages } = createRcpRegistry({ client, discoveries: discovery, stages: { some: ['enroll', 'get_learner_profile'] } });
    expect(stages.some.ids()).toEqual(['get_learner_profile', 'enroll']);
  });

  it('a stage transport resolves to a plan whose execution performs exactly one request', async () => {
    const { server, discovery } = await setup();
    const { transports } = createRcpRegistry({ client, discoveries: [discovery], stages: { act: () => true } });
    const plan = transports.act.select({ name: 'enroll', arguments: '{"courseId":"c-1"}' });
    expect(plan).toMatchObject({ toolId: 'enroll', stageId: 'act', input: { courseId: 'c-1' } });
    expect(server.count).toBe(0);
    const result = await plan.execute({ currentUserId: 'u-1' });
    expect(server.count).toBe(1);
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/learners/u-1/enrollments', json: { courseId: 'c-1' } });
    expect(result).toMatchObject({ status: 201, data: { enrolled: { courseId: 'c-1' } } });
  });

  it('the tools themselves refuse a stage they are not part of, even through the full catalog', async () => {
    const { discovery } = await setup();
    const { registry } = createRcpRegistry({ client, discoveries: [discovery], stages: { browse: ['search_courses'] } });
    const selection = { toolId: 'enroll', input: { courseId: 'c-1' } };
    expect(codeOf(() => registry.resolve(selection, { stageId: 'browse' }))).toBe('RCP_TOOL_NOT_IN_STAGE');
    // A stageId that names no stage is not restricted.
    expect(registry.resolve(selection, { stageId: 'admin-console' }).toolId).toBe('enroll');
  });

  it('selects a shared name in every manifest, namespaced', async () => {
    const { discovery } = await setup();
    const other = await serveManifest(seedManifestAt);
    servers.push(other);
    const second = await client.discover(other.manifestUrl);
    const { stages } = createRcpRegistry({
      client,
      discoveries: [discovery, second],
      stages: { browse: ['search_courses'] },
      namespace: (_discovery, index) => (index === 0 ? 'shop' : 'learn'),
    });
    expect(stages.browse.ids()).toEqual(['shop__search_courses', 'learn__search_courses']);
  });

  it('uses the Registry class it is given (a contract-compatible one)', async () => {
    const { server, discovery } = await setup();
    const log: string[] = [];
    // A minimal contract-compatible registry that records what happens to it. Its
    // projections do NOT enforce stages: the tools' own stage check still does.
    class RecordingRegistry {
      readonly #tools: Map<string, ModelTool<any, any>>;
      constructor(tools: readonly ModelTool<any, any>[]) {
        log.push(`constructed with ${tools.map((tool) => tool.id).join(',')}`);
        this.#tools = new Map(tools.map((tool) => [tool.id, tool]));
      }
      seal(): SealedModelToolRegistry<any> {
        log.push('sealed');
        const view = (ids: readonly string[]): SealedModelToolRegistry<any> => ({
          ids: () => ids,
          get: (id) => this.#tools.get(id),
          select: (subset) => (log.push(`select ${subset.join(',')}`), view(subset)),
          resolve: ({ toolId, input }: ModelToolSelection, context: ModelToolContext) => {
            log.push(`resolve ${toolId} in ${context.stageId}`);
            const tool = this.#tools.get(toolId)!;
            return tool.resolve(tool.inputSchema.parse(input), context);
          },
        });
        return view([...this.#tools.keys()]);
      }
    }
    const { registry, transports } = createRcpRegistry({
      client,
      discoveries: [discovery],
      stages: { browse: ['search_courses'] },
      Registry: RecordingRegistry,
    });
    expect(registry.ids()).toEqual(['get_learner_profile', 'search_courses', 'enroll']);
    const plan = transports.browse.select({ name: 'search_courses', arguments: '{"query":"algebra"}' });
    expect(codeOf(() => transports.browse.select({ name: 'enroll', arguments: '{"courseId":"c-1"}' }))).toBe('RCP_TOOL_NOT_IN_STAGE');
    expect(log).toEqual([
      'constructed with get_learner_profile,search_courses,enroll',
      'sealed',
      'select search_courses',
      'resolve search_courses in browse',
      'resolve enroll in browse',
    ]);
    await plan.execute({});
    expect(server.count).toBe(1);
  });

  it('refuses bad options with stable codes', async () => {
    const { discovery } = await setup();
    const base = { client, discoveries: [discovery] };
    expect(codeOf(() => createRcpRegistry(undefined as never))).toBe('RCP_INVALID_OPTIONS');
    expect(codeOf(() => createRcpRegistry({ ...base, client: {} as never }))).toBe('RCP_INVALID_OPTIONS');
    expect(codeOf(() => createRcpRegistry({ ...base, Registry: {} as never }))).toBe('RCP_INVALID_OPTIONS');
    expect(codeOf(() => createRcpRegistry({ ...base, stages: [] as never }))).toBe('RCP_INVALID_OPTIONS');
    expect(codeOf(() => createRcpRegistry({ ...base, stages: { browse: 'search_courses' as never } }))).toBe('RCP_INVALID_OPTIONS');
    expect(codeOf(() => createRcpRegistry({ ...base, stages: { browse: [1 as never] } }))).toBe('RCP_INVALID_OPTIONS');
    expect(codeOf(() => createRcpRegistry({ ...base, stages: { ' ': [] } }))).toBe('RCP_INVALID_OPTIONS');
    expect(codeOf(() => createRcpRegistry({ ...base, stages: { browse: ['nope'] } }))).toBe('RCP_UNKNOWN_TOOL');
  });

  it('accepts no stages (catalog only) and empty stages', async () => {
    const { discovery } = await setup();
    const bare = createRcpRegistry({ client, discoveries: [discovery] });
    expect(bare.stages).toEqual({});
    expect(bare.transports).toEqual({});
    const empty = createRcpRegistry({ client, discoveries: [discovery], stages: { none: [] } });
    expect(empty.transports.none.catalog()).toEqual([]);
    expect(codeOf(() => empty.transports.none.select({ name: 'search_courses', arguments: '{"query":"x"}' }))).toBe('RCP_TOOL_NOT_IN_STAGE');
  });
});
