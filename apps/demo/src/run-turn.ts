import { toModelResult, type ModelTransport, type RcpCallPlan } from 'rcp-sdk/agent-core';
import type { Model, ModelResult, ModelToolCall, TranscriptEntry } from './model';

/** A stage's transport from the bridge: `catalog()` for the model, `select()` → a call plan. */
export type StageTransport<Context> = ModelTransport<RcpCallPlan<Context>>;

/** Watches one call, so a caller can record what happened on the wire. */
export interface CallProbe<Context, Extra> {
  /** Runs just before `plan.execute` (e.g. `client.prepare` for the request about to be sent). */
  beforeExecute?(plan: RcpCallPlan<Context>, ctx: Context): Promise<void> | void;
  /** Runs after the call settled, whatever the outcome; its value is attached to the step. */
  settle(): Extra;
}

/** One step of a turn. */
export interface TurnStep<Extra> {
  readonly call: ModelToolCall;
  readonly result: ModelResult;
  readonly extra: Extra;
}

/**
 * One call, the way an agent runtime makes it: the model's tool call goes through the stage's
 * transport (stage check and argument validation, synchronously), then the plan executes with
 * the turn's context. Every outcome becomes what goes back to the model (`toModelResult`).
 *
 * @example
 * ```ts
 * const result = await callThroughStage(transports.act, { name: 'search_courses', arguments: '{"query":"x"}' }, ctx);
 * ```
 */
export async function callThroughStage<Context>(
  transport: StageTransport<Context>,
  call: ModelToolCall,
  ctx: Context,
  beforeExecute?: (plan: RcpCallPlan<Context>, ctx: Context) => Promise<void> | void,
): Promise<ModelResult> {
  let plan: RcpCallPlan<Context> | undefined;
  try {
    plan = transport.select(call);
    await beforeExecute?.(plan, ctx);
    return toModelResult(await plan.execute(ctx));
  } catch (error) {
    // With the plan, a template error naming a model-fillable param keeps its message.
    return toModelResult(error, plan);
  }
}

/** Options of {@link runTurn}. */
export interface RunTurnOptions<Context, Extra> {
  readonly model: Model;
  readonly transport: StageTransport<Context>;
  readonly ctx: Context;
  /** Called as each call starts (before the stage sees it). */
  readonly probe: (call: ModelToolCall) => CallProbe<Context, Extra>;
  /**
   * Most calls a turn may make before it is cut off.
   * @default 8
   */
  readonly maxSteps?: number;
}

/**
 * The agent loop: ask the model for its next tool call given the stage's catalog and the
 * transcript, run it through the stage, feed the result back, until the model stops.
 *
 * @example
 * ```ts
 * const steps = await runTurn({ model, transport: transports.act, ctx, probe: () => ({ settle: () => undefined }) });
 * ```
 */
export async function runTurn<Context, Extra>(options: RunTurnOptions<Context, Extra>): Promise<TurnStep<Extra>[]> {
  const { model, transport, ctx, probe } = options;
  const catalog = transport.catalog();
  const transcript: TranscriptEntry[] = [];
  const steps: TurnStep<Extra>[] = [];
  for (let index = 0; index < (options.maxSteps ?? 8); index += 1) {
    const call = await model.nextToolCall({ catalog, transcript });
    if (call === undefined) break;
    const watch = probe(call);
    const result = await callThroughStage(transport, call, ctx, watch.beforeExecute?.bind(watch));
    transcript.push({ call, result });
    steps.push({ call, result, extra: watch.settle() });
  }
  return steps;
}
