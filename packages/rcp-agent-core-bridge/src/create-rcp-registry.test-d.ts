import { expectTypeOf, test } from 'vitest';
import type { RcpClient, RcpClientTool, RcpDiscovery, RcpExecuteResult } from 'rcp-client';
import {
  ModelToolRegistry,
  Support,
  createRcpModelTools,
  createRcpRegistry,
  type ModelTransport,
  type RcpCallPlan,
  type RcpModelTool,
  type SchemaAdapter,
  type SealedModelToolRegistry,
} from './index';

type Ctx = { userId: string };
declare const client: RcpClient<Ctx>;
declare const discovery: RcpDiscovery;

test('the stage ids are the keys of stages: each has a projection and a transport, no other', () => {
  const { registry, stages, transports } = createRcpRegistry({ client, discoveries: [discovery], stages: { browse: ['search_courses'], act: () => true } });
  expectTypeOf(registry).toEqualTypeOf<SealedModelToolRegistry<RcpCallPlan<Ctx>>>();
  expectTypeOf(stages.browse).toEqualTypeOf<SealedModelToolRegistry<RcpCallPlan<Ctx>>>();
  expectTypeOf(transports.act).toEqualTypeOf<ModelTransport<RcpCallPlan<Ctx>>>();
  // @ts-expect-error no stage "nope"
  void transports.nope;
  // @ts-expect-error no stages given: no stage at all
  void createRcpRegistry({ client, discoveries: discovery }).transports.browse;
});

test("a plan's execute takes the client's context: required when the resolvers read one", () => {
  const { transports } = createRcpRegistry({ client, discoveries: discovery, stages: { browse: ['search_courses'] } });
  const plan = transports.browse.select({ name: 'search_courses', arguments: '{"query":"algebra"}' });
  expectTypeOf(plan).toEqualTypeOf<RcpCallPlan<Ctx>>();
  expectTypeOf(plan.tool).toEqualTypeOf<RcpClientTool>();
  expectTypeOf(plan.execute({ userId: 'u-1' }, { signal: AbortSignal.timeout(1000) })).toEqualTypeOf<Promise<RcpExecuteResult>>();
  // @ts-expect-error the context is required
  void plan.execute();
  // @ts-expect-error a context of another shape
  void plan.execute({ user: 'u-1' });
  // A client whose context may be absent: execute() alone is fine.
  const loose = createRcpRegistry({ client: {} as RcpClient<{ userId?: string } | undefined>, discoveries: discovery, stages: { all: () => true } });
  void loose.transports.all.select({ name: 'search_courses' }).execute();
});

test('a stage is a list of ids or names, or a predicate over the discovered tools', () => {
  createRcpRegistry({
    client,
    discoveries: [discovery],
    stages: { readOnly: (tool, id) => tool.method === 'GET' && id.length > 0, some: ['a', 'b'] },
    namespace: (_discovery, index) => `m${index}`,
    Registry: ModelToolRegistry,
  });
  // @ts-expect-error a stage is a list, not one name
  createRcpRegistry({ client, discoveries: [discovery], stages: { browse: 'search_courses' } });
  // @ts-expect-error the option is stages
  createRcpRegistry({ client, discoveries: [discovery], stage: { browse: ['search_courses'] } });
});

test('model tools carry the Context into a registry of plans', () => {
  const tools = createRcpModelTools(client, discovery);
  expectTypeOf(tools).toEqualTypeOf<readonly RcpModelTool<Ctx>[]>();
  const sealed = new ModelToolRegistry(tools).seal();
  expectTypeOf(sealed.resolve({ toolId: 'search_courses', input: {} }, { stageId: 'browse' })).toEqualTypeOf<RcpCallPlan<Ctx>>();
  // @ts-expect-error resolve needs the stage it runs in
  sealed.resolve({ toolId: 'search_courses', input: {} }, {});
});

test("Support.defineSchema is typed by what parse returns; a transport's select returns the tools' output", () => {
  const schema = Support.defineSchema({ jsonSchema: { type: 'object' }, parse: (value: unknown) => ({ count: Number(value) }) });
  expectTypeOf(schema).toEqualTypeOf<SchemaAdapter<{ count: number }>>();
  const registry = new ModelToolRegistry([{ id: 'count', description: 'Counts.', inputSchema: schema, resolve: (input) => input.count * 2 }]).seal();
  expectTypeOf(Support.createModelTransport({ id: 'stage', tools: registry }).select({ name: 'count' })).toEqualTypeOf<number>();
});
