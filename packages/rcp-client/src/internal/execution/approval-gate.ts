/**
 * The approval gate of execution, between building the request and sending it: the operator's
 * policy decides; a call that needs a person is stopped with the request to show them; an
 * approval is honoured only for exactly the request it was given for, once (the consumed ids are
 * the client instance's). The digest — an HMAC under the client's approval secret — binds it, so
 * a stored approval works in another process that holds the same secret, and only there.
 */
import { RcpError, isRcpError } from 'rcp-errors';
import {
  RcpApprovalDeniedError,
  RcpApprovalMismatchError,
  RcpApprovalRequiredError,
  type RcpApproval,
  type RcpApprovalDecision,
  type RcpApprovalInfo,
  type RcpApprovalPolicy,
  type RcpApprovalRequest,
  type RcpApprovalVerdict,
} from '../../approval';
import type { RcpClientTool } from '../../client-tool';
import type { RcpPreparedRequest } from '../../client-types';
import type { Deadline } from '../send/deadline';
import { withinDeadline } from './within-deadline';

const DECISIONS: ReadonlySet<string> = new Set<RcpApprovalDecision>(['not-applicable', 'approved', 'denied', 'user-approval']);
const WRITES_REASON = 'the call changes data (approval: "writes")';

function verdictOf(value: unknown): RcpApprovalVerdict | undefined {
  if (typeof value === 'string') return DECISIONS.has(value) ? { decision: value as RcpApprovalDecision } : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  const { decision, reason } = value as { decision?: unknown; reason?: unknown };
  if (typeof decision !== 'string' || !DECISIONS.has(decision) || (reason !== undefined && typeof reason !== 'string')) return undefined;
  return reason === undefined ? { decision: decision as RcpApprovalDecision } : { decision: decision as RcpApprovalDecision, reason };
}

/** Checks a policy option once, at `createRcpClient` (`RCP_INVALID_OPTIONS`). */
export function checkApprovalPolicy(value: unknown): RcpApprovalPolicy | undefined {
  if (value === undefined || value === 'writes' || typeof value === 'function') return value as RcpApprovalPolicy | undefined;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [tool, entry] of Object.entries(value)) {
      if (verdictOf(entry) === undefined) {
        throw new RcpError(
          'RCP_INVALID_OPTIONS',
          `Option "approval": tool "${tool.slice(0, 64)}" needs a decision (not-applicable, approved, denied, user-approval) or { decision, reason }`,
        );
      }
    }
    return value as RcpApprovalPolicy;
  }
  throw new RcpError('RCP_INVALID_OPTIONS', 'Option "approval" must be "writes", an object of decisions per tool name, or a function');
}

/** The HMAC key a client signs its reviews with. */
type SigningKey = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;

/** Bytes an approval secret needs at the least (the HMAC-SHA-256 block of security). */
const MIN_SECRET_BYTES = 32;

/** Checks the `approvalSecret` option once, at `createRcpClient` (`RCP_INVALID_OPTIONS`; never shows it). */
export function checkApprovalSecret(value: unknown): Uint8Array | undefined {
  if (value === undefined) return undefined;
  const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value instanceof Uint8Array ? value.slice() : undefined;
  if (bytes === undefined) throw new RcpError('RCP_INVALID_OPTIONS', 'Option "approvalSecret" must be a string or a Uint8Array');
  if (bytes.length < MIN_SECRET_BYTES) throw new RcpError('RCP_INVALID_OPTIONS', `Option "approvalSecret" must be at least ${MIN_SECRET_BYTES} bytes long`);
  return bytes;
}

/** The HMAC-SHA-256 (hex) of what an approval binds: the tool, where it goes, and the exact request. */
async function digestOf(key: SigningKey, tool: RcpClientTool, request: RcpPreparedRequest, id: string): Promise<string> {
  const headers = Object.entries(request.headers)
    .map(([name, value]): [string, string] => [name.toLowerCase(), value])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const canonical = JSON.stringify([tool.manifestUrl, tool.name, tool.origin, request.method, request.url, headers, request.body ?? null, id]);
  const bytes = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, new TextEncoder().encode(canonical)));
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

function newId(): string {
  return globalThis.crypto.randomUUID();
}

/** The digest of a request under the client's key, imported on first use (a random one when the operator gave no secret). */
type Digest = (tool: RcpClientTool, request: RcpPreparedRequest, id: string) => Promise<string>;

function createDigest(secret: Uint8Array | undefined): Digest {
  let key: Promise<SigningKey> | undefined;
  const keyOf = (): Promise<SigningKey> =>
    (key ??= globalThis.crypto.subtle.importKey(
      'raw',
      secret ?? globalThis.crypto.getRandomValues(new Uint8Array(MIN_SECRET_BYTES)),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    ));
  return async (tool, request, id) => digestOf(await keyOf(), tool, request, id);
}

/**
 * What bounds a policy's answer: the call's one deadline (or, for `decide` and `review`, one of
 * their own of the client's `timeout`) and the caller's signal, which the deadline follows.
 */
export interface PolicyBound {
  readonly deadline: Deadline;
  readonly signal: AbortSignal | undefined;
}

/**
 * A policy function's answer, within the bound: a late one is `RCP_TIMEOUT`, one the caller's
 * signal ended `RCP_ABORTED` (the call fails closed either way: nothing is sent); a throw or a
 * rejection is a denial. The policy is handed the deadline's `signal` to pass on to what it asks.
 */
async function askPolicy(
  policy: Extract<RcpApprovalPolicy, (info: never) => unknown>,
  info: Omit<RcpApprovalInfo, 'signal'>,
  bound: PolicyBound,
): Promise<unknown> {
  const { deadline } = bound;
  try {
    // A getter: a real AbortSignal is made only for a policy that reads it.
    const answer: unknown = policy(Object.defineProperty({ ...info }, 'signal', { get: () => deadline.signal, enumerable: true }) as RcpApprovalInfo);
    if (!isPromiseLike(answer)) return answer;
    return await withinDeadline(
      Promise.resolve(answer),
      deadline,
      bound.signal,
      () => `Tool "${info.tool.name}": the approval policy did not answer within ${deadline.timeout} ms; nothing was sent`,
    );
  } catch (error) {
    // The deadline or the caller ended the wait (the policy's own rejection may follow, to nobody).
    if (deadline.aborted && (isRcpError(error, 'RCP_TIMEOUT') || isRcpError(error, 'RCP_ABORTED'))) throw error;
    // Failing closed: a policy that cannot decide lets nothing through.
    throw new RcpApprovalDeniedError(info.tool.name, undefined, error);
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null | undefined)?.then === 'function';
}

/** The operator's policy on one call (failing closed: a throw or no decision is a denial; a late answer `RCP_TIMEOUT`). */
async function decideByPolicy(
  policy: RcpApprovalPolicy | undefined,
  tool: RcpClientTool,
  args: Readonly<Record<string, unknown>>,
  ctx: unknown,
  bound: PolicyBound,
): Promise<RcpApprovalVerdict> {
  if (policy === undefined) return { decision: 'not-applicable' };
  const effects = tool.effects;
  if (policy === 'writes') return effects.readOnly ? { decision: 'not-applicable' } : { decision: 'user-approval', reason: WRITES_REASON };
  if (typeof policy === 'function') {
    const answer = await askPolicy(policy, { tool, effects, declared: tool.declaredEffects, args, ctx }, bound);
    const verdict = verdictOf(answer);
    if (verdict === undefined) throw new RcpApprovalDeniedError(tool.name, undefined, new TypeError('the approval policy returned no decision'));
    return verdict;
  }
  const entry = Object.hasOwn(policy, tool.name) ? (policy as Record<string, unknown>)[tool.name] : undefined;
  return entry === undefined ? { decision: 'not-applicable' } : verdictOf(entry)!;
}

/**
 * Takes an approval given with a call: `RCP_APPROVAL_MISMATCH` unless it is one `approve()` made,
 * for this tool, not used yet, and its digest is this request's. Consumed once it passes.
 */
async function consumeApproval(
  consumed: Set<string>,
  digest: Digest,
  tool: RcpClientTool,
  request: () => RcpPreparedRequest,
  approval: RcpApproval,
): Promise<void> {
  if (typeof approval !== 'object' || approval === null || typeof approval.digest !== 'string' || typeof approval.id !== 'string') {
    throw new RcpApprovalMismatchError(tool.name, 'the approval is not one approve() made');
  }
  if (approval.tool !== tool.name) throw new RcpApprovalMismatchError(tool.name, 'the approval is for another tool');
  if (consumed.has(approval.id)) throw new RcpApprovalMismatchError(tool.name, 'the approval was already used');
  // Taken before the digest is awaited, so two calls racing with one approval cannot both pass.
  consumed.add(approval.id);
  if ((await digest(tool, request(), approval.id)) !== approval.digest) {
    consumed.delete(approval.id);
    throw new RcpApprovalMismatchError(tool.name, 'the call would not send the request that was approved (arguments, resolver values or destination differ)');
  }
}

/** The approval gate of one client (see {@link createApprovalGate}). */
export type ApprovalGate = ReturnType<typeof createApprovalGate>;

/** The client's approval gate: one per client (it remembers which approvals were used). */
export function createApprovalGate(policy: RcpApprovalPolicy | undefined, secret: Uint8Array | undefined) {
  const consumed = new Set<string>();
  const digest = createDigest(secret);
  const decide = (tool: RcpClientTool, args: Readonly<Record<string, unknown>>, ctx: unknown, bound: PolicyBound): Promise<RcpApprovalVerdict> =>
    decideByPolicy(policy, tool, args, ctx, bound);

  /** What a person is shown: the decision, the request, and its digest under a new one-call id. */
  async function requestFor(tool: RcpClientTool, verdict: RcpApprovalVerdict, request: RcpPreparedRequest): Promise<RcpApprovalRequest> {
    const id = newId();
    return Object.freeze({
      tool: tool.name,
      decision: verdict.decision,
      ...(verdict.reason !== undefined && { reason: verdict.reason }),
      request: Object.freeze({ ...request, headers: Object.freeze({ ...request.headers }) }),
      digest: await digest(tool, request, id),
      id,
    });
  }

  /** What a person would be shown for this call (nothing sent). */
  async function review(
    tool: RcpClientTool,
    args: Readonly<Record<string, unknown>>,
    ctx: unknown,
    request: RcpPreparedRequest,
    bound: PolicyBound,
  ): Promise<RcpApprovalRequest> {
    return requestFor(tool, await decide(tool, args, ctx, bound), request);
  }

  /**
   * Before a call is sent: `RCP_APPROVAL_DENIED`, `RCP_APPROVAL_REQUIRED` (with the review) or
   * `RCP_APPROVAL_MISMATCH` stop it; otherwise it may go. An approval given is always checked.
   */
  async function admit(
    tool: RcpClientTool,
    args: Readonly<Record<string, unknown>>,
    ctx: unknown,
    request: () => RcpPreparedRequest,
    approval: RcpApproval | undefined,
    bound: PolicyBound,
  ): Promise<void> {
    const verdict = await decide(tool, args, ctx, bound);
    if (verdict.decision === 'denied') throw new RcpApprovalDeniedError(tool.name, verdict.reason);
    if (approval !== undefined) return consumeApproval(consumed, digest, tool, request, approval);
    if (verdict.decision === 'user-approval') throw new RcpApprovalRequiredError(await requestFor(tool, verdict, request()));
  }

  /**
   * The same call sent again (after a 401): its request, built again, must still be the approved
   * one — only the credential may have changed (it is not in the digest). The approval is not
   * taken a second time.
   */
  async function recheck(tool: RcpClientTool, request: () => RcpPreparedRequest, approval: RcpApproval | undefined): Promise<void> {
    if (approval === undefined) return;
    if ((await digest(tool, request(), approval.id)) !== approval.digest) {
      throw new RcpApprovalMismatchError(tool.name, 'the retried call would not send the request that was approved');
    }
  }

  return { decide, review, admit, recheck, enabled: policy !== undefined };
}
