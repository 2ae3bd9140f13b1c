/**
 * The approval gate of execution, between building the request and sending it: the operator's
 * policy decides; a call that needs a person is stopped with the request to show them; an
 * approval is honoured only for exactly the request it was given for, for the same caller,
 * before it expires, once (claimed in the client's approval ledger, which clients of several
 * processes may share). The digest — an HMAC under the client's approval secret — binds it, so a
 * stored approval works in another process that holds the same secret, and only there; a review
 * kept in the ledger is verified against it before it is shown or approved.
 */
import { RcpError, isRcpError } from 'rcp-errors';
import type { RcpApprovalLedger } from '../../approval-ledger';
import {
  approve,
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
const DESTRUCTIVE_REASON = 'the call may delete or overwrite data (approval: "destructive")';

function verdictOf(value: unknown): RcpApprovalVerdict | undefined {
  if (typeof value === 'string') return DECISIONS.has(value) ? { decision: value as RcpApprovalDecision } : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  const { decision, reason } = value as { decision?: unknown; reason?: unknown };
  if (typeof decision !== 'string' || !DECISIONS.has(decision) || (reason !== undefined && typeof reason !== 'string')) return undefined;
  return reason === undefined ? { decision: decision as RcpApprovalDecision } : { decision: decision as RcpApprovalDecision, reason };
}

/** Checks a policy option once, at `createRcpClient` (`RCP_INVALID_OPTIONS`). */
export function checkApprovalPolicy(value: unknown): RcpApprovalPolicy | undefined {
  if (value === undefined || value === 'writes' || value === 'destructive' || typeof value === 'function') return value as RcpApprovalPolicy | undefined;
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
  if (policy === 'destructive') return effects.destructive ? { decision: 'user-approval', reason: DESTRUCTIVE_REASON } : { decision: 'not-applicable' };
  if (typeof policy === 'function') {
    const answer = await askPolicy(policy, { tool, effects, declared: tool.declaredEffects, args, ctx }, bound);
    const verdict = verdictOf(answer);
    if (verdict === undefined) throw new RcpApprovalDeniedError(tool.name, undefined, new TypeError('the approval policy returned no decision'));
    return verdict;
  }
  const entry = Object.hasOwn(policy, tool.name) ? (policy as Record<string, unknown>)[tool.name] : undefined;
  return entry === undefined ? { decision: 'not-applicable' } : verdictOf(entry)!;
}

/** An approval's default time to live: one hour (SPEC §19). */
export const DEFAULT_APPROVAL_EXPIRES_IN = 3_600_000;
/** The longest time to live an approval may be given: one week. */
const MAX_APPROVAL_EXPIRES_IN = 7 * 86_400_000;

/** Checks the `approvalExpiresIn` option once, at `createRcpClient` (`RCP_INVALID_OPTIONS`). */
export function checkApprovalExpiresIn(value: unknown): number {
  if (value === undefined) return DEFAULT_APPROVAL_EXPIRES_IN;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1_000 || value > MAX_APPROVAL_EXPIRES_IN) {
    throw new RcpError('RCP_INVALID_OPTIONS', 'Option "approvalExpiresIn" must be a whole number of milliseconds from 1000 (a second) to 604800000 (a week)');
  }
  return value;
}

/** Checks the `approvalLedger` option once, at `createRcpClient` (`RCP_INVALID_OPTIONS`). */
export function checkApprovalLedger(value: unknown): RcpApprovalLedger | undefined {
  if (value === undefined) return undefined;
  const ledger = value as Partial<RcpApprovalLedger> | null;
  if (
    typeof ledger !== 'object' ||
    ledger === null ||
    typeof ledger.save !== 'function' ||
    typeof ledger.load !== 'function' ||
    typeof ledger.claim !== 'function'
  ) {
    throw new RcpError('RCP_INVALID_OPTIONS', 'Option "approvalLedger" must have save, load and claim functions (an RcpApprovalLedger)');
  }
  return ledger as RcpApprovalLedger;
}

/** What the gate binds a review to besides the request: the manifest, the tool's name, the caller, the expiry, the id. */
interface Binding {
  readonly manifestUrl: string;
  readonly tool: string;
  readonly caller: string;
  readonly expiresAt: number;
  readonly id: string;
}

/** The canonical text of a review's digest: one JSON array, headers by lower-case name. */
function canonicalOf(binding: Binding, request: RcpPreparedRequest): string {
  const headers = Object.entries(request.headers)
    .map(([name, value]): [string, string] => [name.toLowerCase(), value])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([
    'rcp-approval/2',
    binding.manifestUrl,
    binding.tool,
    request.method,
    request.url,
    headers,
    request.body ?? null,
    binding.caller,
    binding.expiresAt,
    binding.id,
  ]);
}

function hexOf(bytes: ArrayBuffer): string {
  let hex = '';
  for (const byte of new Uint8Array(bytes)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Equal strings, compared in time that does not depend on where they differ. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}

/** The expiry an approval id carries (`<uuid>.<expiresAt>`), or `undefined` when it carries none. */
function expiryOf(id: string): number | undefined {
  const match = /^[0-9a-f-]{36}\.(\d{1,15})$/.exec(id);
  return match === null ? undefined : Number(match[1]);
}

/** The keyed functions of one client: the digest of a review, the fingerprint of a caller, an idempotency key. */
function createSigner(secret: Uint8Array | undefined) {
  // The client's one secret (the operator's, or random: valid in this client only).
  const raw = secret ?? globalThis.crypto.getRandomValues(new Uint8Array(MIN_SECRET_BYTES));
  let key: Promise<SigningKey> | undefined;
  const keyOf = (): Promise<SigningKey> => (key ??= globalThis.crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']));
  const sign = async (text: string): Promise<string> => hexOf(await globalThis.crypto.subtle.sign('HMAC', await keyOf(), new TextEncoder().encode(text)));
  return {
    digest: (binding: Binding, request: RcpPreparedRequest): Promise<string> => sign(canonicalOf(binding, request)),
    /** The caller's fingerprint: of the operator's subject when there is one, else of the credential (none: the empty one). */
    caller: (subject: string | undefined, credential: string | undefined): Promise<string> =>
      sign(JSON.stringify(subject !== undefined ? ['rcp-approval-caller/subject', subject] : ['rcp-approval-caller/credential', credential ?? ''])),
    /** The idempotency key of an approved call: the same for the same approval, unguessable without the secret. */
    idempotencyKey: (approvalId: string): Promise<string> => sign(JSON.stringify(['rcp-idempotency-key', approvalId])),
    /** A keyed fingerprint of any JSON value under a purpose (an operation's caller binding). */
    fingerprint: (purpose: string, value: unknown): Promise<string> => sign(JSON.stringify([purpose, value])),
    /** The same secret, for the operation-handle sealer (`operation-handle.ts`). */
    secret: raw,
  };
}

/** The approval gate of one client (see {@link createApprovalGate}). */
export type ApprovalGate = ReturnType<typeof createApprovalGate>;

/** What a client's approval gate is made from (its checked options). */
export interface ApprovalGateOptions {
  readonly policy: RcpApprovalPolicy | undefined;
  readonly secret: Uint8Array | undefined;
  readonly ledger: RcpApprovalLedger;
  readonly subject: ((ctx: any) => string) | undefined;
  readonly expiresIn: number;
}

/** A review as it was loaded from a ledger: checked field by field before its digest is. */
function reviewShapeOf(value: unknown): RcpApprovalRequest | undefined {
  const review = value as Partial<Record<keyof RcpApprovalRequest, unknown>> | null | undefined;
  if (typeof review !== 'object' || review === null) return undefined;
  const request = review.request as Partial<Record<'method' | 'url' | 'headers', unknown>> | null | undefined;
  if (
    typeof review.tool !== 'string' ||
    typeof review.manifestUrl !== 'string' ||
    typeof review.decision !== 'string' ||
    !DECISIONS.has(review.decision) ||
    (review.reason !== undefined && typeof review.reason !== 'string') ||
    typeof review.caller !== 'string' ||
    typeof review.expiresAt !== 'number' ||
    typeof review.digest !== 'string' ||
    typeof review.id !== 'string' ||
    typeof request !== 'object' ||
    request === null ||
    typeof request.method !== 'string' ||
    typeof request.url !== 'string' ||
    typeof request.headers !== 'object' ||
    request.headers === null ||
    !Object.values(request.headers).every((header) => typeof header === 'string')
  ) {
    return undefined;
  }
  return review as RcpApprovalRequest;
}

/** A review, deeply frozen, as the client hands it out. */
function frozenReview(review: RcpApprovalRequest): RcpApprovalRequest {
  const { request } = review;
  return Object.freeze({
    tool: review.tool,
    manifestUrl: review.manifestUrl,
    decision: review.decision,
    ...(review.reason !== undefined && { reason: review.reason }),
    request: Object.freeze({ ...request, headers: Object.freeze({ ...request.headers }) }),
    caller: review.caller,
    expiresAt: review.expiresAt,
    digest: review.digest,
    id: review.id,
  });
}

/**
 * The client's approval gate: one per client, over the client's approval ledger (its own
 * in-memory one unless the operator shares one).
 */
export function createApprovalGate(options: ApprovalGateOptions) {
  const { policy, ledger, subject, expiresIn } = options;
  const signer = createSigner(options.secret);
  const decide = (tool: RcpClientTool, args: Readonly<Record<string, unknown>>, ctx: unknown, bound: PolicyBound): Promise<RcpApprovalVerdict> =>
    decideByPolicy(policy, tool, args, ctx, bound);

  /** The caller a call is made for (failing closed: a subject function that throws or gives no string denies the call). */
  function callerOf(tool: RcpClientTool, ctx: unknown, credential: string | undefined): Promise<string> {
    if (subject === undefined) return signer.caller(undefined, credential);
    let given: unknown;
    try {
      given = subject(ctx);
    } catch (error) {
      throw new RcpApprovalDeniedError(tool.name, undefined, error);
    }
    if (typeof given !== 'string' || given === '') {
      throw new RcpApprovalDeniedError(tool.name, undefined, new TypeError('approvalSubject(ctx) gave no subject'));
    }
    return signer.caller(given, undefined);
  }

  /** What a person is shown: the decision, the request, the caller and the expiry, and their digest under a new one-call id. */
  async function requestFor(tool: RcpClientTool, verdict: RcpApprovalVerdict, request: RcpPreparedRequest, caller: string): Promise<RcpApprovalRequest> {
    const expiresAt = Date.now() + expiresIn;
    const binding: Binding = { manifestUrl: tool.manifestUrl, tool: tool.name, caller, expiresAt, id: `${globalThis.crypto.randomUUID()}.${expiresAt}` };
    return frozenReview({
      tool: tool.name,
      manifestUrl: tool.manifestUrl,
      decision: verdict.decision,
      ...(verdict.reason !== undefined && { reason: verdict.reason }),
      request,
      caller,
      expiresAt,
      digest: await signer.digest(binding, request),
      id: binding.id,
    });
  }

  /** What a person would be shown for this call (nothing sent); kept in the ledger under `key` when one is given. */
  async function review(
    tool: RcpClientTool,
    args: Readonly<Record<string, unknown>>,
    ctx: unknown,
    request: RcpPreparedRequest,
    credential: string | undefined,
    bound: PolicyBound,
    key: string | undefined,
  ): Promise<RcpApprovalRequest> {
    const verdict = await decide(tool, args, ctx, bound);
    const made = await requestFor(tool, verdict, request, await callerOf(tool, ctx, credential));
    if (key !== undefined) await fromLedger(tool, bound, () => ledger.save(key, made, made.expiresAt - Date.now()));
    return made;
  }

  /**
   * A review as a ledger gave it back: `RCP_APPROVAL_MISMATCH` unless its digest is the one this
   * client's secret makes of its fields (an edited review — another request shown than the one
   * approved — is refused); `undefined` once it expired.
   */
  async function verified(value: unknown, key: string): Promise<RcpApprovalRequest | undefined> {
    const shaped = reviewShapeOf(value);
    const name = typeof (value as { tool?: unknown } | null)?.tool === 'string' ? (value as { tool: string }).tool : `(review "${key.slice(0, 64)}")`;
    if (shaped === undefined || expiryOf(shaped.id) !== shaped.expiresAt)
      throw new RcpApprovalMismatchError(name, 'the stored review is not one this client made');
    const binding: Binding = { manifestUrl: shaped.manifestUrl, tool: shaped.tool, caller: shaped.caller, expiresAt: shaped.expiresAt, id: shaped.id };
    if (!sameText(await signer.digest(binding, shaped.request), shaped.digest)) {
      throw new RcpApprovalMismatchError(shaped.tool, 'the stored review was changed after it was made (its digest does not match)');
    }
    return shaped.expiresAt <= Date.now() ? undefined : frozenReview(shaped);
  }

  /** The review kept under `key`, verified; `undefined` when none is (or it expired). */
  async function stored(key: string): Promise<RcpApprovalRequest | undefined> {
    const value = await ledger.load(key);
    return value === undefined || value === null ? undefined : verified(value, key);
  }

  /** The approval of the review kept under `key`, for a call that resumes it: none kept is a refusal, never a new review. */
  async function resumed(tool: RcpClientTool, key: string, bound: PolicyBound): Promise<RcpApproval> {
    const review = await fromLedger(tool, bound, () => stored(key));
    if (review === undefined) {
      throw new RcpApprovalMismatchError(
        tool.name,
        'no review is stored for this call (it was never paused here, its approval expired, or the ledger is not shared): a resumed call is never reviewed again',
      );
    }
    if (review.decision !== 'user-approval') throw new RcpApprovalMismatchError(tool.name, 'the stored review is not one a person approves');
    return approve(review);
  }

  /**
   * Takes an approval given with a call: `RCP_APPROVAL_MISMATCH` unless it is one `approve()`
   * made, for this tool, not expired, its digest is this request's for this caller, and its
   * claim in the ledger is the first.
   */
  async function consume(tool: RcpClientTool, request: RcpPreparedRequest, caller: string, approval: RcpApproval, bound: PolicyBound): Promise<void> {
    if (typeof approval !== 'object' || approval === null || typeof approval.digest !== 'string' || typeof approval.id !== 'string') {
      throw new RcpApprovalMismatchError(tool.name, 'the approval is not one approve() made');
    }
    if (approval.tool !== tool.name) throw new RcpApprovalMismatchError(tool.name, 'the approval is for another tool');
    const expiresAt = expiryOf(approval.id);
    if (expiresAt === undefined) throw new RcpApprovalMismatchError(tool.name, 'the approval is not one approve() made');
    if (expiresAt <= Date.now()) throw new RcpApprovalMismatchError(tool.name, 'the approval expired');
    const binding: Binding = { manifestUrl: tool.manifestUrl, tool: tool.name, caller, expiresAt, id: approval.id };
    if (!sameText(await signer.digest(binding, request), approval.digest)) {
      throw new RcpApprovalMismatchError(
        tool.name,
        'the call would not send the request that was approved (arguments, resolver values, destination or caller differ)',
      );
    }
    // Claimed last, so that only a call that would be sent uses the approval up; atomic in the ledger.
    const first = await fromLedger(tool, bound, () => ledger.claim(approval.id, expiresAt - Date.now()));
    if (!first) throw new RcpApprovalMismatchError(tool.name, 'the approval was already used');
  }

  /**
   * Before a call is sent: `RCP_APPROVAL_DENIED`, `RCP_APPROVAL_REQUIRED` (with the review) or
   * `RCP_APPROVAL_MISMATCH` stop it; otherwise it may go. An approval given is always checked.
   * Answers the caller's fingerprint an approval was checked for (what a retry after a 401 keeps).
   */
  async function admit(
    tool: RcpClientTool,
    args: Readonly<Record<string, unknown>>,
    ctx: unknown,
    request: () => RcpPreparedRequest,
    credential: string | undefined,
    approval: RcpApproval | undefined,
    bound: PolicyBound,
  ): Promise<string | undefined> {
    const verdict = await decide(tool, args, ctx, bound);
    if (verdict.decision === 'denied') throw new RcpApprovalDeniedError(tool.name, verdict.reason);
    if (approval !== undefined) {
      const caller = await callerOf(tool, ctx, credential);
      await consume(tool, request(), caller, approval, bound);
      return caller;
    }
    if (verdict.decision === 'user-approval')
      throw new RcpApprovalRequiredError(await requestFor(tool, verdict, request(), await callerOf(tool, ctx, credential)));
    return undefined;
  }

  /**
   * The same call sent again (after a 401): its request, built again, must still be the approved
   * one, for the caller it was admitted for — only the credential may have changed (a refreshed
   * token is the same caller's). The approval is not taken a second time.
   */
  async function recheck(tool: RcpClientTool, request: () => RcpPreparedRequest, approval: RcpApproval | undefined, caller: string | undefined): Promise<void> {
    if (approval === undefined || caller === undefined) return;
    const binding: Binding = { manifestUrl: tool.manifestUrl, tool: tool.name, caller, expiresAt: expiryOf(approval.id) ?? 0, id: approval.id };
    if (!sameText(await signer.digest(binding, request()), approval.digest)) {
      throw new RcpApprovalMismatchError(tool.name, 'the retried call would not send the request that was approved');
    }
  }

  return {
    decide,
    review,
    admit,
    recheck,
    stored,
    resumed,
    idempotencyKey: signer.idempotencyKey,
    callerOf,
    fingerprint: signer.fingerprint,
    secret: signer.secret,
    enabled: policy !== undefined,
  };
}

/**
 * A ledger operation within the call's deadline (`RCP_TIMEOUT` / `RCP_ABORTED` otherwise),
 * failing closed: a ledger that fails (a Redis that is down) denies the call, nothing sent.
 */
async function fromLedger<T>(tool: RcpClientTool, bound: PolicyBound, work: () => Promise<T>): Promise<T> {
  let started: Promise<T>;
  try {
    started = Promise.resolve(work());
  } catch (error) {
    started = Promise.reject(error);
  }
  try {
    return await withinDeadline(
      started,
      bound.deadline,
      bound.signal,
      () => `Tool "${tool.name}": the approval ledger did not answer within ${bound.deadline.timeout} ms; nothing was sent`,
    );
  } catch (error) {
    if (isRcpError(error)) throw error;
    throw new RcpApprovalDeniedError(tool.name, 'the approval ledger failed', error);
  }
}

/** A ledger key as the client takes it: a string of 1 to 512 characters (`RCP_INVALID_OPTIONS`). */
export function ledgerKeyOf(key: unknown): string {
  if (typeof key !== 'string' || key.length === 0 || key.length > 512) {
    throw new RcpError('RCP_INVALID_OPTIONS', 'An approval ledger key (a tool call id) must be a string of 1 to 512 characters');
  }
  return key;
}
