import type { RcpExecuteResult } from '../../call-outcome';
import type { RcpClientTool } from '../../client-tool';
import type { RcpApproval } from '../../approval';
import type { RcpExecuteOptions } from '../../client-types';
import type { CallObserver } from '../../hooks';
import { buildRequest, type BuiltRequest } from '../build/build-request';
import type { CompiledTool } from '../discovery/tool-registry';
import type { ResolvedClientOptions } from '../options/resolve-options';
import { preparedOf } from '../redaction/prepared-request';
import { redactError } from '../redaction/redact';
import { inspected } from '../respond/inspect-result';
import { observed } from '../respond/observe-response';
import { respond } from '../respond/respond';
import { streamAccept } from '../respond/stream-plan';
import { startDeadline, type Deadline } from '../send/deadline';
import { abortedError, type SendCallOptions, type SendRequest, type SendResult, type Sender } from '../send/send';
import { idempotencyPlanOf, randomIdempotencyKey, withIdempotencyKey, type IdempotencyPlan } from './idempotency-key';
import { ledgerKeyOf, type ApprovalGate, type PolicyBound } from './approval-gate';
import { retriesAfterUnauthorized } from './unauthorized';
import { pollHeadersOf, pollOperation, statusUrlOf } from './operation';
import type { HandleSealer } from './operation-handle';
import { withinDeadline } from './within-deadline';

/** What every call of one client shares: its options, its sender, its approval gate and its handle sealer. */
export interface ExecutionContext {
  readonly options: ResolvedClientOptions;
  readonly send: Sender;
  readonly gate: ApprovalGate;
  readonly sealer: HandleSealer;
}

/** How long a pending operation's handle opens: a day (each check that is still pending gives a new one). */
export const OPERATION_HANDLE_LIFETIME_MS = 86_400_000;

/** Sent with every tool call unless the tool sets its own Accept header. */
const ACCEPT = 'application/json, */*;q=0.8';

/**
 * Steps 1–4 (validate, resolve, credential, render and trust check; nothing sent) within the
 * call's deadline: resolvers and the credentials provider that do not answer in time are
 * `RCP_TIMEOUT`; the caller's signal ends the wait. A build that needs no wait stays synchronous.
 */
export function buildWithin<Context>(
  compiled: CompiledTool,
  tool: RcpClientTool,
  args: unknown,
  ctx: Context | undefined,
  deadline: Deadline,
  signal: AbortSignal | undefined,
): BuiltRequest | Promise<BuiltRequest> {
  const building = buildRequest(compiled, tool, args, ctx);
  if (!(building instanceof Promise)) return building;
  return withinDeadline(
    building,
    deadline,
    signal,
    () => `Tool "${tool.name}": the resolvers and the credentials provider did not answer within ${deadline.timeout} ms; nothing was sent`,
  );
}

/**
 * `work` under a deadline of its own (`timeout`, the caller's `signal`), for what runs outside a
 * call and sends nothing: `prepare`, `review` and `decide` (the resolvers, the credentials
 * provider and the approval policy are bounded there as in a call).
 */
export async function withOwnDeadline<T>(timeout: number, signal: AbortSignal | undefined, work: (bound: PolicyBound) => T | Promise<T>): Promise<T> {
  if (signal?.aborted) throw abortedError(signal.reason);
  const deadline = startDeadline(timeout, signal);
  try {
    return await work({ deadline, signal });
  } finally {
    deadline.end();
  }
}

/** Steps 1–4 under a deadline of their own (`prepare`: nothing is sent after them). */
export function buildOnly<Context>(
  timeout: number,
  compiled: CompiledTool,
  tool: RcpClientTool,
  args: unknown,
  ctx: Context | undefined,
): Promise<BuiltRequest> {
  return withOwnDeadline(timeout, undefined, ({ deadline }) => buildWithin(compiled, tool, args, ctx, deadline, undefined));
}

/**
 * One call, the one-way path: build → approval gate → send → respond → inspect. One deadline
 * for the whole call, started before the resolvers run and carried to the last byte of the body
 * (a retry after a 401 included): one timer per call.
 */
export async function runCall<Context>(
  context: ExecutionContext,
  compiled: CompiledTool,
  tool: RcpClientTool,
  args: unknown,
  ctx: Context | undefined,
  executeOptions: RcpExecuteOptions | undefined,
  observer: CallObserver | undefined,
): Promise<RcpExecuteResult> {
  const signal = executeOptions?.signal;
  if (signal?.aborted) throw abortedError(signal?.reason);
  const deadline = startDeadline(context.options.timeout, signal);
  try {
    if (executeOptions?.approvalKey !== undefined) ledgerKeyOf(executeOptions.approvalKey);
    const call: CallState<Context> = {
      compiled,
      tool,
      args,
      ctx,
      executeOptions,
      observer,
      deadline,
      signal,
      builds: [],
      approval: executeOptions?.approval,
      caller: undefined,
      idempotency: undefined,
      following: false,
    };
    return await attempt(context, call, false);
  } finally {
    deadline.end();
  }
}

/** One call's fixed parts, as each attempt sees them. */
interface CallState<Context> {
  readonly compiled: CompiledTool;
  readonly tool: RcpClientTool;
  readonly args: unknown;
  readonly ctx: Context | undefined;
  readonly executeOptions: RcpExecuteOptions | undefined;
  readonly observer: CallObserver | undefined;
  readonly deadline: Deadline;
  readonly signal: AbortSignal | undefined;
  /**
   * Every request built for this call, the first attempt's and the one after a 401: their
   * secrets are redacted from everything the call leaves with, whichever attempt it comes from
   * (a server may quote the refused first token in the retry's answer).
   */
  readonly builds: BuiltRequest[];
  /** The approval the call carries: the caller's, or the one its `approvalKey` resumes. */
  approval: RcpApproval | undefined;
  /** The caller's fingerprint the approval was admitted for (a retry after a 401 keeps it). */
  caller: string | undefined;
  /** The call's idempotency key and its header, made once (a retry after a 401 sends the same). */
  idempotency: { readonly plan: IdempotencyPlan; readonly key: string } | undefined;
  /** The request was accepted (202) and its operation is being followed: a 401 now never sends it again. */
  following: boolean;
}

/** Every secret of every attempt of the call so far (the credentials, the resolver values' forms). */
function callSecrets(call: CallState<unknown>): string[] {
  return call.builds.flatMap((built) => built.secrets?.() ?? []);
}

/** The credential of every attempt of the call so far (what a 2xx and an observed response are cleaned of). */
function callCredentials(call: CallState<unknown>): string[] {
  const credentials: string[] = [];
  for (const built of call.builds) if (built.credential !== undefined) credentials.push(built.credential);
  return credentials;
}

/** One attempt of a call: the first, or the one after a 401 the operator's `onUnauthorized` answers `true` to. */
async function attempt<Context>(context: ExecutionContext, call: CallState<Context>, retried: boolean): Promise<RcpExecuteResult> {
  const { compiled, tool, ctx, executeOptions, deadline, signal } = call;
  let built: BuiltRequest | undefined;
  try {
    built = await buildWithin(compiled, tool, call.args, ctx, deadline, signal);
    call.builds.push(built);
    if (signal?.aborted) throw abortedError(signal?.reason);
    // The approval gate, between the request built and the request sent (once per call: a
    // retry after a 401 was admitted already, for the caller it was admitted for).
    if (context.gate.enabled || call.approval !== undefined || executeOptions?.approvalKey !== undefined) {
      const done = built;
      if (retried) await context.gate.recheck(tool, () => preparedOf(compiled, done), call.approval, call.caller);
      else {
        const bound = { deadline, signal };
        const key = executeOptions?.approvalKey;
        // A resumed call carries the approval of the review kept under its key, or is refused.
        if (key !== undefined) call.approval = await context.gate.resumed(tool, key, bound);
        call.caller = await context.gate.admit(tool, done.args ?? {}, ctx, () => preparedOf(compiled, done), done.credential, call.approval, bound);
      }
      if (signal?.aborted) throw abortedError(signal?.reason);
    }
    const result = await context.send(await keyed(context, call, built), sendOptions(call, built));
    if (compiled.operation !== undefined && result.status === 202) {
      call.following = true;
      return await followed(context, call, built, result);
    }
    const options = context.options;
    const answer = respond(tool, compiled, result, built, callCredentials(call), options.allowHtmlResponses);
    return await inspected(options.inspectResult, tool, answer, ctx, deadline, signal);
  } catch (error) {
    if (
      !retried &&
      !call.following &&
      built !== undefined &&
      (await retriesAfterUnauthorized(context.options.onUnauthorized, error, compiled, tool, ctx, built.credential, deadline))
    ) {
      return attempt(context, call, true);
    }
    // Everything built from server-controlled text leaves through the one redaction routine,
    // with the secrets of every attempt of the call.
    throw call.builds.length === 0 ? error : redactError(error, callSecrets(call));
  }
}

/**
 * A 202 of a tool that declares an operation (SPEC §20.8): its status URL polled within the
 * call's deadline, bound to this caller and these resolver values for a later `resume`.
 */
async function followed(context: ExecutionContext, call: CallState<unknown>, built: BuiltRequest, answer: SendResult): Promise<RcpExecuteResult> {
  const { tool, compiled } = call;
  const plan = compiled.operation!;
  const statusUrl = statusUrlOf(tool, compiled, plan, answer);
  const caller = await context.gate.callerOf(tool, call.ctx, built.credential);
  const resolved = compiled.resolved.map((entry) => built.values[entry.name] ?? null);
  const binding = await context.gate.fingerprint(OPERATION_BINDING, [caller, resolved]);
  const target = { statusUrl, headers: pollHeadersOf(compiled, built.request) };
  const poll = {
    send: context.send,
    sealer: context.sealer,
    tool,
    compiled,
    plan,
    deadline: call.deadline,
    signal: call.signal,
    credential: built.credential,
    secrets: () => callSecrets(call),
    observer: call.observer,
    binding,
    expiresAt: Date.now() + OPERATION_HANDLE_LIFETIME_MS,
  };
  return pollOperation(poll, target, answer);
}

/** The purpose a handle's caller binding is signed under. */
export const OPERATION_BINDING = 'rcp-operation-caller';

/**
 * The request to send, with the call's idempotency key when it takes one (SPEC §20.1): derived
 * from the approval the call carries, or random; made once per call.
 */
async function keyed(context: ExecutionContext, call: CallState<unknown>, built: BuiltRequest): Promise<SendRequest> {
  if (call.idempotency === undefined) {
    const plan = idempotencyPlanOf(call.compiled, call.approval !== undefined);
    if (plan === undefined) return built.request;
    const key = call.approval === undefined ? randomIdempotencyKey() : await context.gate.idempotencyKey(call.approval.id);
    call.idempotency = { plan, key };
  }
  return withIdempotencyKey(built.request, call.idempotency.plan.header, call.idempotency.key);
}

/** What the sender is told of one attempt. */
function sendOptions(call: CallState<unknown>, built: BuiltRequest): SendCallOptions {
  const { compiled, observer, signal } = call;
  const stream = compiled.stream;
  const options: SendCallOptions = {
    isRedirectAllowed: compiled.isRedirectAllowed,
    accept: stream === undefined ? ACCEPT : streamAccept(stream.format),
    deadline: call.deadline,
    cutText: true,
  };
  if (stream !== undefined) {
    const onProgress = call.executeOptions?.onProgress;
    options.stream = onProgress === undefined ? { plan: stream } : { plan: stream, onProgress };
  }
  if (compiled.transport !== undefined) options.transport = compiled.transport;
  if (observer !== undefined) options.observer = observer;
  if (signal !== undefined) options.signal = signal;
  if (call.builds.length > 1) options.secrets = () => callSecrets(call);
  else if (built.secrets !== undefined) options.secrets = built.secrets;
  // What a person approved is this one request: no redirect may change it (SPEC §19).
  if (call.approval !== undefined) options.approved = true;
  // A write with a declared idempotency key may be retried (the same key: the server runs it once).
  if (call.idempotency?.plan.declared === true) options.idempotent = true;
  const observeResponse = call.executeOptions?.observeResponse;
  if (observeResponse !== undefined) options.observe = (response) => observed(observeResponse, response, callCredentials(call));
  return options;
}
