import { RcpError } from 'rcp-errors';
import { createStages, createToolSet, type RcpClient, type RcpDiscovery, type RcpToolFilter } from 'rcp-client';
import { isRecord } from 'rcp-internal';
import type { ModelToolRegistryClass, SealedModelToolRegistry } from './model-tool';
import { ModelToolRegistry } from './model-tool-registry';
import { createModelTransport, type ModelTransport } from './model-transport';
import type { RcpCallPlan, RcpModelToolsOptions } from './rcp-model-tools';
import { toRcpModelTool } from './internal/rcp-model-tool';

/**
 * A stage: the tools a model may select in it — `rcp-client`'s tool filter, as `toolSet.select`
 * takes it on every stack. Either a list of tool ids or names (a name shared by several manifests
 * selects every tool with that name), or a predicate over the discovered tools
 * (`(tool) => tool.method === 'GET'` for a read-only stage; a tool is in the stage when it
 * returns `true`). A stage lists its tools in catalog order.
 *
 * @example
 * ```ts
 * const browse: RcpStage = ['search_courses'];
 * const readOnly: RcpStage = (tool) => tool.method === 'GET';
 * ```
 */
export type RcpStage = RcpToolFilter;

/**
 * Options of {@link createRcpRegistry}.
 *
 * @example
 * ```ts
 * const options: RcpRegistryOptions<{ currentUserId?: string }> = {
 *   client,
 *   discoveries: [learn],
 *   stages: { browse: ['search_courses'], act: () => true },
 * };
 * ```
 */
export interface RcpRegistryOptions<Context = any, StageId extends string = string> extends RcpModelToolsOptions {
  /** The client the tools were discovered with; plans execute through it. */
  client: RcpClient<Context>;
  /** What `client.discover()` returned, for one manifest or several. */
  discoveries: RcpDiscovery | readonly RcpDiscovery[];
  /**
   * Stages by id. Each gets a sealed projection and a transport whose id is the stage id.
   * @default {} (only the full catalog)
   */
  stages?: Readonly<Record<StageId, RcpStage>>;
  /**
   * The registry class to build the catalog with: the real `@jangts/agent-core`
   * `ModelToolRegistry`, or any class with the same contract (`new Registry(tools).seal()`).
   * @default ModelToolRegistry (the bundled implementation)
   */
  Registry?: ModelToolRegistryClass;
}

/**
 * What {@link createRcpRegistry} returns (frozen).
 *
 * @example
 * ```ts
 * const { registry, stages, transports } = createRcpRegistry({ client, discoveries, stages: { browse: ['search_courses'] } });
 * registry.ids(); stages.browse.ids(); transports.browse.catalog();
 * ```
 */
export interface RcpRegistry<Context = any, StageId extends string = string> {
  /** The sealed catalog of every discovered tool. */
  readonly registry: SealedModelToolRegistry<RcpCallPlan<Context>>;
  /** One sealed projection per stage. */
  readonly stages: Readonly<Record<StageId, SealedModelToolRegistry<RcpCallPlan<Context>>>>;
  /** One transport per stage; `transport.id` is the stage id. */
  readonly transports: Readonly<Record<StageId, ModelTransport<RcpCallPlan<Context>>>>;
  /**
   * The discoveries' warnings about the catalog's tools, as rcp-client's `toolSet.warnings` gives
   * them, then one line per long-running tool (RCP 0.4 `operation`): the bridge offers the model no
   * check of a pending operation, so the application checks it with `client.resume`.
   */
  readonly warnings: readonly string[];
}

/**
 * Builds an agent-core registry over discovered RCP tools: the sealed catalog, one sealed
 * projection per stage and one transport per stage (its id is the stage id).
 *
 * Stages are enforced when a selection is RESOLVED, not only in what a model is shown:
 * selecting, through a stage's projection or transport, a tool outside that stage throws
 * `RCP_TOOL_NOT_IN_STAGE` and an unknown tool `RCP_UNKNOWN_TOOL`, synchronously, before any
 * plan exists. The tools' own `resolve` checks their stage too (a `stageId` naming a stage
 * they are not part of is refused), so the guarantee holds with any `Registry` class.
 * A `stageId` that names no stage (e.g. the full catalog used directly) is not restricted.
 *
 * @throws RcpError `RCP_INVALID_OPTIONS` (bad client, discoveries, stages), `RCP_UNKNOWN_TOOL`
 *   (a stage lists an unknown tool), `RCP_INVALID_TOOL` (colliding ids).
 * @example
 * ```ts
 * import { createRcpClient } from 'rcp-client';
 * import { createRcpRegistry, toModelResult } from 'rcp-agent-core-bridge';
 *
 * const client = createRcpClient({ resolvers: { learnerId: (ctx) => ctx.currentUserId } });
 * const learn = await client.discover('https://learn.example.com/rcp/manifest');
 * const { transports } = createRcpRegistry({
 *   client,
 *   discoveries: [learn],
 *   stages: { browse: ['search_courses'], act: () => true },
 * });
 * const plan = transports.browse.select({ name: 'search_courses', arguments: '{"query":"algebra"}' });
 * const outcome = await plan.execute({ currentUserId: 'u-1' }).then(toModelResult, toModelResult);
 * ```
 */
export function createRcpRegistry<Context = any, StageId extends string = never>(options: RcpRegistryOptions<Context, StageId>): RcpRegistry<Context, StageId> {
  if (typeof options !== 'object' || options === null) {
    throw new RcpError('RCP_INVALID_OPTIONS', 'createRcpRegistry needs an options object.');
  }
  const { client, discoveries, Registry = ModelToolRegistry, namespace } = options;
  const stages: Readonly<Record<string, RcpStage>> = options.stages ?? {};
  if (typeof client !== 'object' || client === null || typeof client.execute !== 'function') {
    throw new RcpError('RCP_INVALID_OPTIONS', 'createRcpRegistry needs an RCP client (from createRcpClient).');
  }
  if (typeof Registry !== 'function') {
    throw new RcpError('RCP_INVALID_OPTIONS', 'Registry must be a registry class: new Registry(tools).seal().');
  }
  if (!isRecord(stages)) {
    throw new RcpError('RCP_INVALID_OPTIONS', 'stages must be an object of stage id → tool list or predicate.');
  }

  // The tool set is the one rule for names and stages: a stage is its `select`, and a tool outside
  // a stage is the client's RCP_TOOL_NOT_IN_STAGE, the same code and sentence as on every stack.
  const toolSet = createToolSet(discoveries, namespace === undefined ? {} : { namespace });
  const stageSets = createStages(toolSet, stages);

  // A call in a stage looks its tool up in the stage's set: the client's rule throws RCP_TOOL_NOT_IN_STAGE.
  // A stageId that names no stage (the full catalog used directly) is not restricted (README).
  const guard = (toolId: string, stageId: string): void => {
    if (stageSets.ids.includes(stageId)) stageSets.get(stageId).tool(toolId);
  };
  const definitions = toolSet.entries.map((entry) => toRcpModelTool(client, entry, guard));
  const registry = new Registry(definitions).seal() as SealedModelToolRegistry<RcpCallPlan<Context>>;

  const projections = stageSets.ids.map((stageId) => [stageId, registry.select(stageSets.get(stageId).names)] as const);
  const transports = projections.map(([stageId, tools]) => [stageId, createModelTransport({ id: stageId, tools })] as const);
  return Object.freeze({
    registry,
    stages: Object.freeze(Object.fromEntries(projections)) as RcpRegistry<Context, StageId>['stages'],
    transports: Object.freeze(Object.fromEntries(transports)) as RcpRegistry<Context, StageId>['transports'],
    warnings: Object.freeze([...toolSet.warnings, ...toolSet.entries.filter(({ tool }) => tool.longRunning).map(({ name }) => noCheckWarning(name))]),
  });
}

/**
 * Why a long-running tool's pending result has no model-facing check here: every call plan holds
 * the discovered tool it runs (`RcpCallPlan.tool`), and the tool a handle resumes is sealed in it.
 */
function noCheckWarning(name: string): string {
  return `Tool "${name}": it is long-running and a call may answer pending with a handle; this bridge offers the model no check tool (a call plan holds its discovered tool), so check it in the application with client.resume(discoveries, handle, ctx)`;
}
