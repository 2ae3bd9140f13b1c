/**
 * Execution, the call's one-way path: build (`build/`: validate → resolve → credential → render
 * → trust check, nothing sent), the approval gate, send (`send/`: redirects, retries, the size
 * cap), then respond (`respond/`: decode, refuse what must not pass for data, map, take out the
 * credential, inspect). One deadline is started before the first step and carried to the last
 * (`run-call.ts`). This file wires the client's five call methods over those steps.
 */
import { isRcpError, RcpError } from 'rcp-errors';
import type { RcpApprovalRequest, RcpApprovalVerdict } from '../../approval';
import type { RcpCallOutcome, RcpExecuteResult, RcpToolCall } from '../../call-outcome';
import type { RcpClientTool } from '../../client-tool';
import type { RcpDecideOptions, RcpExecuteOptions, RcpPreparedRequest, RcpResumeOptions, RcpReviewOptions, RcpToolSource } from '../../client-types';
import { observeCall } from '../../hooks';
import { checkArguments, compiledToolOf } from '../discovery/tool-registry';
import type { ResolvedClientOptions } from '../options/resolve-options';
import { preparedOf } from '../redaction/prepared-request';
import type { Sender } from '../send/send';
import { createMemoryApprovalLedger } from '../../approval-ledger';
import { createApprovalGate, ledgerKeyOf } from './approval-gate';
import { lookUpIn, toolForHandle } from './call-source';
import { buildOnly, buildWithin, OPERATION_BINDING, OPERATION_HANDLE_LIFETIME_MS, runCall, withOwnDeadline, type ExecutionContext } from './run-call';
import { callerValues } from '../build/build-request';
import { redactError } from '../redaction/redact';
import { startDeadline } from '../send/deadline';
import { abortedError } from '../send/send';
import { createHandleSealer } from './operation-handle';
import { pollOperation } from './operation';
import { withinDeadline } from './within-deadline';

const NOT_APPLICABLE: RcpApprovalVerdict = Object.freeze({ decision: 'not-applicable' });

/** The client's `prepare`, `decide`, `review`, `execute` and `call`. */
export function createExecution<Context>(options: ResolvedClientOptions, send: Sender, owner: object) {
  const gate = createApprovalGate({
    policy: options.approval,
    secret: options.approvalSecret,
    // The client's own ledger unless the operator shares one: owned by this client instance.
    ledger: options.approvalLedger ?? createMemoryApprovalLedger(),
    subject: options.approvalSubject,
    expiresIn: options.approvalExpiresIn,
  });
  const context: ExecutionContext = { options, send, gate, sealer: createHandleSealer(gate.secret) };

  async function prepare(tool: RcpClientTool, args: unknown, ctx?: Context): Promise<RcpPreparedRequest> {
    const compiled = compiledToolOf(tool, owner);
    return preparedOf(compiled, await buildOnly(options.timeout, compiled, tool, args, ctx));
  }

  async function decide(tool: RcpClientTool, args: unknown, ctx?: Context, decideOptions?: RcpDecideOptions): Promise<RcpApprovalVerdict> {
    const compiled = compiledToolOf(tool, owner);
    // The policy sees the model's validated arguments only: no resolver runs, no credential is asked.
    const validated = checkArguments(compiled, args);
    if (!gate.enabled) return NOT_APPLICABLE;
    // No call deadline here: one of the client's `timeout`, as a call would give the policy.
    return withOwnDeadline(options.timeout, decideOptions?.signal, (bound) => gate.decide(tool, validated, ctx, bound));
  }

  async function review(tool: RcpClientTool, args: unknown, ctx?: Context, reviewOptions?: RcpReviewOptions): Promise<RcpApprovalRequest> {
    const compiled = compiledToolOf(tool, owner);
    const key = reviewOptions?.key === undefined ? undefined : ledgerKeyOf(reviewOptions.key);
    // One deadline over the build, the policy and the ledger, as in a call.
    return withOwnDeadline(options.timeout, reviewOptions?.signal, async (bound) => {
      const built = await buildWithin(compiled, tool, args, ctx, bound.deadline, bound.signal);
      return gate.review(tool, built.args ?? {}, ctx, preparedOf(compiled, built), built.credential, bound, key);
    });
  }

  async function storedReview(key: string): Promise<RcpApprovalRequest | undefined> {
    return gate.stored(ledgerKeyOf(key));
  }

  async function execute(tool: RcpClientTool, args: unknown, ctx?: Context, executeOptions?: RcpExecuteOptions): Promise<RcpExecuteResult> {
    const compiled = compiledToolOf(tool, owner);
    const observer = observeCall(options.hooks, options.tracer, tool, performance.now());
    try {
      const result = await runCall(context, compiled, tool, args, ctx, executeOptions, observer);
      observer?.end();
      return result;
    } catch (error) {
      const code = isRcpError(error) ? error.code : 'UNKNOWN_ERROR';
      observer?.emit('onError', { code });
      observer?.end(code);
      throw error;
    }
  }

  async function call(source: RcpToolSource, toolCall: RcpToolCall, ctx?: Context, executeOptions?: RcpExecuteOptions): Promise<RcpCallOutcome> {
    const lookUp = lookUpIn(source);
    let tool: RcpClientTool | undefined;
    try {
      const name: unknown = typeof toolCall === 'object' && toolCall !== null ? toolCall.name : undefined;
      tool = lookUp(typeof name === 'string' ? name : '').tool;
      const result = await execute(tool, toolCall.arguments, ctx, executeOptions);
      return Object.freeze({ ok: true as const, tool, result });
    } catch (error) {
      if (!isRcpError(error)) throw error;
      return Object.freeze({ ok: false as const, tool, error });
    }
  }

  async function resume(source: RcpToolSource, handle: string, ctx?: Context, resumeOptions?: RcpResumeOptions): Promise<RcpExecuteResult> {
    const signal = resumeOptions?.signal;
    if (signal?.aborted) throw abortedError(signal.reason);
    const content = await context.sealer.open(handle);
    if (content === undefined) throw invalidHandle('it was not issued by a client sharing this secret, or it was altered');
    if (content.expiresAt <= Date.now()) throw invalidHandle('it has expired');
    const tool = toolForHandle(source, content.manifestUrl, content.tool);
    const compiled = compiledToolOf(tool, owner);
    const plan = compiled.operation;
    if (plan === undefined) throw invalidHandle(`tool "${tool.name}" no longer declares an operation`);
    const observer = observeCall(options.hooks, options.tracer, tool, performance.now());
    const deadline = startDeadline(options.timeout, signal);
    let secrets: (() => readonly string[]) | undefined;
    try {
      const caller = await withinDeadline(
        callerValues(compiled, tool, ctx),
        deadline,
        signal,
        () => `Tool "${tool.name}": the resolvers and the credentials provider did not answer within ${deadline.timeout} ms; nothing was sent`,
      );
      secrets = caller.secrets;
      const who = await gate.callerOf(tool, ctx, caller.credential);
      const binding = await gate.fingerprint(OPERATION_BINDING, [who, caller.resolved]);
      // Another caller, or other resolver values (another user, another tenant): nothing is sent.
      if (binding !== content.binding) throw invalidHandle('it was issued for another caller');
      const poll = {
        send,
        sealer: context.sealer,
        tool,
        compiled,
        plan,
        deadline,
        signal,
        credential: caller.credential,
        secrets: caller.secrets,
        observer,
        binding,
        expiresAt: Date.now() + OPERATION_HANDLE_LIFETIME_MS,
      };
      const result = await pollOperation(poll, { statusUrl: content.statusUrl, headers: content.headers }, undefined);
      observer?.end();
      return result;
    } catch (error) {
      const code = isRcpError(error) ? error.code : 'UNKNOWN_ERROR';
      observer?.emit('onError', { code });
      observer?.end(code);
      throw secrets === undefined ? error : redactError(error, [...secrets()]);
    } finally {
      deadline.end();
    }
  }

  return { prepare, decide, review, storedReview, execute, call, resume };
}

/** A handle this client cannot resume: nothing is sent. */
function invalidHandle(why: string): RcpError<'RCP_INVALID_HANDLE'> {
  return new RcpError('RCP_INVALID_HANDLE', `The operation handle cannot be resumed: ${why}; nothing was sent`);
}
