import { isRcpError, type RcpError, type RcpErrorCode } from 'rcp-errors';
import type { RcpCallOutcome } from './call-outcome';
import type { RcpClientTool } from './client-tool';

/**
 * The code of a failed {@link ModelResult}: an {@link RcpErrorCode}, or `'UNKNOWN_ERROR'`
 * for anything that is not an RCP error (its message is never passed on).
 *
 * @example
 * ```ts
 * const code: ModelErrorCode = 'RCP_HTTP_ERROR';
 * ```
 */
export type ModelErrorCode = RcpErrorCode | 'UNKNOWN_ERROR';

/**
 * What goes back to the model after a tool call: the data, or a stable code and a message
 * that is safe to show it.
 *
 * @example
 * ```ts
 * const ok: ModelResult = { ok: true, data: { name: 'Ada' } };
 * const failed: ModelResult = { ok: false, error: { code: 'RCP_UNRESOLVED', message: 'A value the client must supply is unavailable.' } };
 * ```
 */
export type ModelResult =
  | { readonly ok: true; readonly data: unknown }
  | { readonly ok: false; readonly error: { readonly code: ModelErrorCode; readonly message: string } };

/**
 * Fixed messages for codes whose own message may name a resolver-bound param, a URL (whose
 * path can hold a resolver's value) or other client internals.
 */
const GENERIC: Partial<Record<RcpErrorCode, string>> = {
  RCP_UNRESOLVED: 'A value the client must supply is unavailable.',
  RCP_RESOLVER_FAILED: 'A value the client must supply could not be obtained.',
  RCP_MISSING_CREDENTIALS: 'The client has no credentials for this tool.',
  RCP_ORIGIN_NOT_ALLOWED: "The client does not allow calls to this tool's destination.",
  RCP_TIMEOUT: 'The tool did not answer in time.',
  RCP_ABORTED: 'The tool call was cancelled.',
  RCP_NETWORK_ERROR: "The tool's server could not be reached.",
  RCP_RESPONSE_TOO_LARGE: "The tool's response was too large.",
  RCP_INVALID_RESPONSE: "The tool's response could not be read.",
  RCP_TEMPLATE_VALUE: 'A value could not be placed in the request.',
  RCP_TEMPLATE_MISSING: 'A value the request needs is missing.',
  RCP_APPROVAL_REQUIRED: "The call is waiting for a person's approval; it was not made.",
  RCP_APPROVAL_MISMATCH: 'The approval does not cover this call; it was not made.',
};

/** Every other code, and the text of anything that is not an RCP error. */
const FALLBACK = 'The tool could not be called.';

/** Codes whose message is about what the model itself sent or selected: passed on as is. */
const MODEL_FACING: ReadonlySet<string> = new Set<RcpErrorCode>([
  'RCP_INVALID_ARGUMENTS',
  'RCP_UNKNOWN_TOOL',
  'RCP_TOOL_NOT_IN_STAGE',
]);

function failure(code: ModelErrorCode, message: string): ModelResult {
  return Object.freeze({ ok: false as const, error: Object.freeze({ code, message }) });
}

function modelMessage(error: RcpError, tool: Pick<RcpClientTool, 'resolvedParams'> | undefined): string {
  if (MODEL_FACING.has(error.code)) return error.message;
  if (isRcpError(error, 'RCP_APPROVAL_DENIED')) {
    // A denial is data: the model reads the operator's reason (never a request detail).
    return typeof error.reason === 'string' && error.reason !== '' ? `The call was denied: ${error.reason}` : 'The call was denied.';
  }
  if (isRcpError(error, 'RCP_HTTP_ERROR')) {
    // Built from the status and the server's own text, never from the client's message
    // (which names the URL, whose path may hold a resolver's value).
    // A 401 says what the model needs to know (the application must sign in or connect an
    // account); what the challenge asks for is the application's to read, not the model's.
    const head =
      error.status === 401
        ? `The tool's server answered HTTP 401: authorization required.`
        : `The tool's server answered HTTP ${error.status}.`;
    return error.bodyExcerpt === '' ? head : `${head} Response: ${error.bodyExcerpt}`;
  }
  if (isRcpError(error, 'RCP_TEMPLATE_VALUE') || isRcpError(error, 'RCP_TEMPLATE_MISSING')) {
    // Name the token only when it is known to be a model-fillable param.
    const { token } = error;
    const resolved = tool?.resolvedParams;
    if (typeof token === 'string' && Array.isArray(resolved) && !resolved.includes(token)) return error.message;
  }
  return GENERIC[error.code] ?? FALLBACK;
}

function isCallOutcome(value: unknown): value is RcpCallOutcome {
  if (typeof value !== 'object' || value === null || value instanceof Error) return false;
  const ok = (value as { ok?: unknown }).ok;
  return (ok === true && Object.hasOwn(value, 'result')) || (ok === false && Object.hasOwn(value, 'error'));
}

/**
 * Turns what a tool call produced into what goes back to the model: `{ ok: true, data }` or
 * `{ ok: false, error: { code, message } }`. It takes a `client.call()` outcome, a
 * `client.execute()` result, or what a failed `execute` threw (then pass the tool as
 * `context.tool`, so a template error naming a model-fillable param can keep its message).
 *
 * The one rule of what a model may be told (SPEC §14): the data, as the server sent it (after
 * `responseMappings`); for `RCP_INVALID_ARGUMENTS`, `RCP_UNKNOWN_TOOL` and
 * `RCP_TOOL_NOT_IN_STAGE` the error's own message, which speaks only of what the model sent and
 * the tool's public schema; for `RCP_HTTP_ERROR` the status and the server's own (bounded,
 * secret-redacted) answer; for template errors the message when its token is a model-fillable
 * param; for every other code a fixed generic sentence; for anything that is not an RCP error
 * `UNKNOWN_ERROR`. It never contains a credential or a resolver's value and never names a
 * resolver-bound param the model did not send. Everything else (URLs, origins, param names,
 * causes) is for the operator: read it from `outcome.error`.
 *
 * @example
 * ```ts
 * import { toModelResult } from 'rcp-client';
 * const outcome = await client.call(discovery, { name: 'get_note', arguments: '{"noteId":"n-1"}' }, ctx);
 * const forModel = toModelResult(outcome);
 * // { ok: true, data: {...} } or { ok: false, error: { code: 'RCP_UNRESOLVED', message: 'A value the client must supply is unavailable.' } }
 * ```
 */
export function toModelResult(
  outcome: RcpCallOutcome | { readonly data: unknown } | unknown,
  context?: { readonly tool?: Pick<RcpClientTool, 'resolvedParams'> | undefined },
): ModelResult {
  if (isCallOutcome(outcome)) {
    return outcome.ok ? toModelResult(outcome.result) : toModelResult(outcome.error, { tool: outcome.tool });
  }
  if (isRcpError(outcome)) return failure(outcome.code, modelMessage(outcome, context?.tool));
  if (!(outcome instanceof Error) && typeof outcome === 'object' && outcome !== null && Object.hasOwn(outcome, 'data')) {
    return Object.freeze({ ok: true as const, data: (outcome as { data: unknown }).data });
  }
  return failure('UNKNOWN_ERROR', FALLBACK);
}
