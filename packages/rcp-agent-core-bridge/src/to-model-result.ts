import { isRcpError, type RcpErrorCode } from 'rcp-errors';
import type { RcpExecuteResult } from 'rcp-client';
import type { RcpCallPlan } from './rcp-model-tools';

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
 * path can hold a resolver's value) or other client internals. Codes not listed here and
 * not handled specially get {@link FALLBACK}.
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
};

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

function modelMessage(error: { code: RcpErrorCode; message: string }, plan: Partial<RcpCallPlan> | undefined): string {
  const { code } = error;
  if (MODEL_FACING.has(code)) return error.message;
  if (code === 'RCP_HTTP_ERROR') {
    // Built from the status and the server's own text, never from the client's message
    // (which names the URL, whose path may hold a resolver's value).
    const status = (error as { status?: unknown }).status;
    const excerpt = (error as { bodyExcerpt?: unknown }).bodyExcerpt;
    const head = typeof status === 'number' ? `The tool's server answered HTTP ${status}.` : "The tool's server refused the call.";
    return typeof excerpt === 'string' && excerpt !== '' ? `${head} Response: ${excerpt}` : head;
  }
  if (code === 'RCP_TEMPLATE_VALUE' || code === 'RCP_TEMPLATE_MISSING') {
    // Name the token only when it is known to be a model-fillable param.
    const token = (error as { token?: unknown }).token;
    const resolved = plan?.tool?.resolvedParams;
    if (typeof token === 'string' && Array.isArray(resolved) && !resolved.includes(token)) return error.message;
  }
  return GENERIC[code] ?? FALLBACK;
}

/**
 * Turns a call's outcome into what goes back to the model: `{ ok: true, data }` for a result
 * of `plan.execute()` / `client.execute()`, `{ ok: false, error: { code, message } }` for
 * what a failed call threw. Use it as both handlers of the call's promise.
 *
 * It never contains a credential or a resolver's value, and never names a resolver-bound
 * param: messages are passed on only for `RCP_INVALID_ARGUMENTS`, `RCP_UNKNOWN_TOOL` and
 * `RCP_TOOL_NOT_IN_STAGE` (about what the model sent), and for template errors naming a
 * model-fillable param (only known when `plan` is given). `RCP_HTTP_ERROR` becomes the
 * status and the server's own (bounded, credential-redacted) answer text. Every other RCP
 * code gets a fixed generic message (`RCP_UNRESOLVED`: "A value the client must supply is
 * unavailable."). Anything that is not an RCP error becomes `UNKNOWN_ERROR`, "The tool
 * could not be called.". The server's `data` and error text are passed on as the server sent
 * them: what a server chooses to return is its responsibility.
 *
 * @example
 * ```ts
 * import { toModelResult } from 'rcp-agent-core-bridge';
 * const plan = transport.select({ name: 'get_profile', arguments: '{}' });
 * const outcome = await plan.execute(ctx).then(toModelResult, (error) => toModelResult(error, plan));
 * // { ok: true, data: {...} } or { ok: false, error: { code: 'RCP_UNRESOLVED', message: 'A value the client must supply is unavailable.' } }
 * ```
 */
export function toModelResult(outcome: RcpExecuteResult | unknown, plan?: Pick<RcpCallPlan, 'tool'>): ModelResult {
  if (isRcpError(outcome)) return failure(outcome.code, modelMessage(outcome, plan));
  if (
    !(outcome instanceof Error) &&
    typeof outcome === 'object' &&
    outcome !== null &&
    Object.prototype.hasOwnProperty.call(outcome, 'data')
  ) {
    return Object.freeze({ ok: true as const, data: (outcome as { data: unknown }).data });
  }
  return failure('UNKNOWN_ERROR', FALLBACK);
}
