import { RcpError } from 'rcp-errors';
import type { RcpDeclaredEffects, RcpToolEffects } from 'rcp-manifest';
import type { RcpClientTool } from './client-tool';

export type { RcpToolEffects };

/**
 * What the operator's policy decides for one call, after the AI SDK 7 / MCP vocabulary:
 * `not-applicable` (no approval is needed), `approved` (the policy approves it itself),
 * `denied` (refused: the model reads the reason as the call's result), `user-approval` (a
 * person must approve the exact request first).
 *
 * @example
 * ```ts
 * const decision: RcpApprovalDecision = 'user-approval';
 * ```
 */
export type RcpApprovalDecision = 'not-applicable' | 'approved' | 'denied' | 'user-approval';

/**
 * What a policy function is given: the tool, its effects, the validated arguments the model
 * sent, the call's context, and a signal that aborts when the call stops waiting for it.
 *
 * @example
 * ```ts
 * const policy = ({ tool, effects, args }: RcpApprovalInfo) => (effects.destructive ? 'user-approval' : 'not-applicable');
 * ```
 */
export interface RcpApprovalInfo<Context = any> {
  readonly tool: RcpClientTool;
  /** The tool's effects: the method's, with the manifest's claims only adding caution (`toolEffects`). */
  readonly effects: RcpToolEffects;
  /** What the manifest claims, as written (RCP 0.3), for a policy that chooses to trust a server further. */
  readonly declared: RcpDeclaredEffects | undefined;
  /** The model's arguments, validated (declared params only). */
  readonly args: Readonly<Record<string, unknown>>;
  readonly ctx: Context;
  /**
   * Aborts when the call's deadline passes (the client's `timeout`) or the caller's signal
   * aborts: the call no longer waits for the policy then (`RCP_TIMEOUT` / `RCP_ABORTED`, nothing
   * sent). Pass it on to whatever the policy asks (`fetch(url, { signal })`).
   */
  readonly signal: AbortSignal;
}

/** A decision with its reason (shown to the person, and to the model for a denial). */
export interface RcpApprovalVerdict {
  readonly decision: RcpApprovalDecision;
  readonly reason?: string;
}

/**
 * The client's approval policy (`createRcpClient({ approval })`): `'writes'` — the one line that
 * makes every call that is not read-only (POST, PUT, PATCH, DELETE, or declared so) wait for a
 * person; `'destructive'` — only the calls whose effects are destructive (a DELETE, or declared
 * so); a map per tool name; or a function of the tool, its effects, the validated arguments
 * and the context, returning a decision (or a verdict with a reason), sync or async.
 *
 * @default undefined (nothing needs approval)
 * @example
 * ```ts
 * createRcpClient({ approval: 'writes' });
 * createRcpClient({ approval: 'destructive' });
 * createRcpClient({ approval: { delete_note: 'user-approval', wipe_all: 'denied' } });
 * createRcpClient({ approval: ({ effects }) => (effects.destructive ? { decision: 'user-approval', reason: 'deletes data' } : 'not-applicable') });
 * ```
 */
export type RcpApprovalPolicy<Context = any> =
  | 'writes'
  | 'destructive'
  | Readonly<Record<string, RcpApprovalDecision | RcpApprovalVerdict>>
  | ((info: RcpApprovalInfo<Context>) => RcpApprovalDecision | RcpApprovalVerdict | Promise<RcpApprovalDecision | RcpApprovalVerdict>);

/**
 * What a person is asked to approve: the request the call will really send — method, URL,
 * headers and body, resolver values included, the credential shown as `[redacted]` — and the
 * digest that binds an approval to exactly it, to the caller and to its expiry. Plain JSON: it
 * can be stored and shown in another process (a run state, a checkpoint, the client's approval
 * ledger), and approved there; a stored review is verified against its digest before it is shown
 * or approved.
 *
 * @example
 * ```ts
 * const review = await client.review(discovery.tool('delete_note'), { noteId: 'n-1' }, ctx);
 * if (review.decision === 'user-approval') console.log(review.request.method, review.request.url, review.reason);
 * ```
 */
export interface RcpApprovalRequest {
  readonly tool: string;
  /** The manifest the tool is from. */
  readonly manifestUrl: string;
  readonly decision: RcpApprovalDecision;
  readonly reason?: string;
  readonly request: { readonly method: string; readonly url: string; readonly headers: Readonly<Record<string, string>>; readonly body?: unknown };
  /**
   * Who the call is made for: a keyed fingerprint (HMAC under the client's approval secret, hex)
   * of the credential the call sends, or of the operator's `approvalSubject(ctx)` — never the
   * credential itself. Another caller's call does not match it.
   */
  readonly caller: string;
  /** When the approval stops being good (milliseconds since the epoch); the `id` carries it too. */
  readonly expiresAt: number;
  /**
   * An HMAC-SHA-256 (hex) under the client's approval secret of the manifest URL, tool, request,
   * `caller`, `expiresAt` and `id`; never of the credential itself.
   */
  readonly digest: string;
  /** Unique per review, ending in `.<expiresAt>`: an approval is good for one call. */
  readonly id: string;
}

/**
 * A person's approval of one reviewed request: pass it to `execute` / `call` as `{ approval }`.
 * The call is built again and refused (`RCP_APPROVAL_MISMATCH`, nothing sent) unless it renders
 * exactly the reviewed request, for the same caller, before the approval expires; each approval
 * is good for one call among the clients that share an approval ledger.
 *
 * @example
 * ```ts
 * const approval: RcpApproval = approve(review);
 * await client.execute(tool, args, ctx, { approval });
 * ```
 */
export interface RcpApproval {
  readonly tool: string;
  readonly digest: string;
  readonly id: string;
}

/**
 * Approves a reviewed request (the person said yes): the token that lets exactly that request be
 * sent, once.
 *
 * @example
 * ```ts
 * import { approve } from 'rcp-client';
 * const outcome = await client.call(discovery, toolCall, ctx, { approval: approve(review) });
 * ```
 */
export function approve(request: Pick<RcpApprovalRequest, 'tool' | 'digest' | 'id'>): RcpApproval {
  if (
    typeof request !== 'object' ||
    request === null ||
    typeof request.digest !== 'string' ||
    typeof request.id !== 'string' ||
    typeof request.tool !== 'string'
  ) {
    throw new RcpError('RCP_INVALID_OPTIONS', 'approve() takes the review returned by client.review() (or the error of a call that needs approval)');
  }
  return Object.freeze({ tool: request.tool, digest: request.digest, id: request.id });
}

/**
 * Returned in a call outcome (code `RCP_APPROVAL_REQUIRED`) when the policy says a person must
 * approve the call first: nothing was sent. `approval` is the request to show them; `approve()`
 * it and call again with `{ approval }`.
 *
 * @example
 * ```ts
 * if (!outcome.ok && isRcpError(outcome.error, 'RCP_APPROVAL_REQUIRED')) show((outcome.error as RcpApprovalRequiredError).approval);
 * ```
 */
export class RcpApprovalRequiredError extends RcpError<'RCP_APPROVAL_REQUIRED'> {
  readonly tool: string;
  readonly reason: string | undefined;
  /** The request a person must see and approve. */
  readonly approval: RcpApprovalRequest;

  constructor(approval: RcpApprovalRequest) {
    super(
      'RCP_APPROVAL_REQUIRED',
      `Tool "${approval.tool}" needs a person's approval before it is called${approval.reason ? ` (${approval.reason})` : ''}; nothing was sent`,
    );
    this.tool = approval.tool;
    this.reason = approval.reason;
    this.approval = approval;
  }
}

/**
 * Returned in a call outcome (code `RCP_APPROVAL_DENIED`) when the policy denies the call, or
 * its function throws (failing closed): nothing was sent, and the model reads the reason.
 *
 * @example
 * ```ts
 * toModelResult(outcome); // { ok: false, error: { code: 'RCP_APPROVAL_DENIED', message: 'The call was denied: deletes are off today.' } }
 * ```
 */
export class RcpApprovalDeniedError extends RcpError<'RCP_APPROVAL_DENIED'> {
  readonly tool: string;
  readonly reason: string | undefined;

  constructor(tool: string, reason: string | undefined, cause?: unknown) {
    super(
      'RCP_APPROVAL_DENIED',
      `Tool "${tool}" was denied by the approval policy${reason ? `: ${reason}` : ''}; nothing was sent`,
      cause === undefined ? {} : { cause },
    );
    this.tool = tool;
    this.reason = reason;
  }
}

/**
 * Returned (code `RCP_APPROVAL_MISMATCH`) when a call carries an approval that is not for exactly
 * the request it renders now (other arguments, another resolver value, another tool or target,
 * another caller), expired or was already used, or resumes a review that is not stored or was
 * changed where it was stored: nothing was sent.
 *
 * @example
 * ```ts
 * await client.call(discovery, { name: 'delete_note', arguments: { noteId: 'n-2' } }, ctx, { approval }); // approved for n-1
 * ```
 */
export class RcpApprovalMismatchError extends RcpError<'RCP_APPROVAL_MISMATCH'> {
  readonly tool: string;

  constructor(tool: string, why: string) {
    super('RCP_APPROVAL_MISMATCH', `Tool "${tool}": ${why}; nothing was sent`);
    this.tool = tool;
  }
}
