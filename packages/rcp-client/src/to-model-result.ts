import { MEDIA_TYPE_PATTERN } from 'rcp-manifest';
import { isRcpError, type RcpError, type RcpErrorCode } from 'rcp-errors';
import type { RcpCallOutcome, RcpExecuteResult, RcpPage, RcpPending } from './call-outcome';
import type { RcpClientTool } from './client-tool';
import { toBase64 } from './internal/respond/base64';
import { findCompiledTool } from './internal/discovery/tool-registry';

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
 * A binary answer as the model is given it (SPEC §18.3): its media type, its size in bytes and
 * the bytes as standard base64. Each adapter maps it to its stack's native shape (an image, a
 * document, a file); {@link toModelText} leaves `data` out.
 *
 * @example
 * ```ts
 * const media: ModelMedia = { mediaType: 'image/png', size: 68, data: 'iVBORw0KGgo...' };
 * ```
 */
export interface ModelMedia {
  readonly mediaType: string;
  readonly size: number;
  /** The bytes, standard base64 (RFC 4648 §4, padded). */
  readonly data: string;
}

/**
 * Whether there is a next page and the exact arguments of the same tool's call that asks for it
 * (`null`: there is more, but it cannot be asked for with this tool). SPEC §18.4.
 *
 * @example
 * ```ts
 * const page: ModelPage = { hasMore: true, nextArguments: { cursor: 'c-2' } };
 * ```
 */
export type ModelPage = RcpPage;

/**
 * A long-running operation the model may check later (SPEC §20.8): the sealed handle to pass to
 * the stack's check tool and the seconds to wait first.
 *
 * @example
 * ```ts
 * const pending: ModelPending = { handle: 'rcp1.q2Vb…', checkAfterSeconds: 5 };
 * ```
 */
export type ModelPending = RcpPending;

/**
 * A failed call as the model is told it: a stable code, a message that is safe to show, and —
 * when the server said how long to wait — `retryAfterSeconds`.
 *
 * @example
 * ```ts
 * const error: ModelError = { code: 'RCP_HTTP_ERROR', message: "The tool's server answered HTTP 429. It asks to be called again in 120 seconds.", retryAfterSeconds: 120 };
 * ```
 */
export interface ModelError {
  readonly code: ModelErrorCode;
  readonly message: string;
  /** Seconds the server's `Retry-After` asked to wait (a 429, a 503), when it sent one. */
  readonly retryAfterSeconds?: number;
}

/**
 * What goes back to the model after a tool call: the data — with a media part, a page and a
 * `truncated` flag when the answer has them — or a stable code and a message that is safe to
 * show it. `boundary` is set when the client marks untrusted text (`markUntrustedText`): the
 * per-call delimiter {@link toModelText} wraps the text in.
 *
 * @example
 * ```ts
 * const ok: ModelResult = { ok: true, data: { name: 'Ada' }, page: { hasMore: true, nextArguments: { page: 2 } } };
 * const image: ModelResult = { ok: true, data: null, media: { mediaType: 'image/png', size: 68, data: 'iVBORw0KGgo...' } };
 * const failed: ModelResult = { ok: false, error: { code: 'RCP_UNRESOLVED', message: 'A value the client must supply is unavailable.' } };
 * ```
 */
export type ModelResult =
  | {
      readonly ok: true;
      readonly data: unknown;
      /** A binary answer: `data` is `null` then. */
      readonly media?: ModelMedia;
      readonly page?: ModelPage;
      /** The answer was text longer than `maxResponseBytes`: `data` is its start. */
      readonly truncated?: true;
      /** The tool's operation goes on (SPEC §20.8): `data` is its last status; check it with the handle later. */
      readonly pending?: ModelPending;
      readonly boundary?: string;
    }
  | { readonly ok: false; readonly error: ModelError; readonly boundary?: string };

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
  RCP_OPERATION_FAILED: "The tool's operation failed.",
  RCP_INVALID_HANDLE: 'The operation handle cannot be checked here: it expired, was altered, or belongs to another user.',
};

/** Every other code, and the text of anything that is not an RCP error. */
const FALLBACK = 'The tool could not be called.';

/** Codes whose message is about what the model itself sent or selected: passed on as is. */
const MODEL_FACING: ReadonlySet<string> = new Set<RcpErrorCode>(['RCP_INVALID_ARGUMENTS', 'RCP_UNKNOWN_TOOL', 'RCP_TOOL_NOT_IN_STAGE']);

/** The per-call delimiter of a tool whose client marks untrusted text: 96 random bits, hex. */
function boundaryFor(tool: unknown): string | undefined {
  if (findCompiledTool(tool)?.marksUntrustedText !== true) return undefined;
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function failure(code: ModelErrorCode, message: string, boundary: string | undefined, retryAfterSeconds?: number): ModelResult {
  const error: ModelError = retryAfterSeconds === undefined ? { code, message } : { code, message, retryAfterSeconds };
  return Object.freeze(
    boundary === undefined ? { ok: false as const, error: Object.freeze(error) } : { ok: false as const, error: Object.freeze(error), boundary },
  );
}

/** The seconds an HTTP error's `Retry-After` asked for, when it is a number the model may read. */
function retryAfterOf(error: RcpError): number | undefined {
  const seconds = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
  return isRcpError(error, 'RCP_HTTP_ERROR') && typeof seconds === 'number' && Number.isSafeInteger(seconds) && seconds >= 0 ? seconds : undefined;
}

/** A media type as the client's response errors carry it (an RFC 6838 type/subtype, rcp-manifest's MEDIA_TYPE_PATTERN), else a neutral word. */
const SAFE_MEDIA_TYPE = new RegExp(MEDIA_TYPE_PATTERN);

/** What the model reads of a client's response error (`RcpResponseError`), by its fields; undefined for other errors. */
function responseProblemMessage(error: RcpError): string | undefined {
  const { problem, mediaType, size, limit, reason, event } = error as {
    problem?: unknown;
    mediaType?: unknown;
    size?: unknown;
    limit?: unknown;
    reason?: unknown;
    event?: unknown;
  };
  const type = typeof mediaType === 'string' && SAFE_MEDIA_TYPE.test(mediaType) ? mediaType : 'a media type';
  if (problem === 'media-too-large' && typeof size === 'number' && typeof limit === 'number') {
    return `The tool answered with ${type} of ${size} bytes, more than the ${limit} bytes the client passes on.`;
  }
  if (problem === 'media-not-allowed') return `The tool answered with ${type}, which the client does not pass on.`;
  if (problem === 'not-a-stream') return `The tool was to answer with a stream but answered with ${type}.`;
  const at = typeof event === 'number' && Number.isSafeInteger(event) ? ` (event ${event})` : '';
  if (problem === 'stream-error') return `The tool's server reported an error in its stream${at}.`;
  if (problem === 'stream-malformed') return `The tool's stream could not be read${at}.`;
  if (problem === 'refused-by-inspector') {
    return typeof reason === 'string' && reason !== '' ? `The client refused the tool's response: ${reason}` : "The client refused the tool's response.";
  }
  return undefined;
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
    const head = error.status === 401 ? `The tool's server answered HTTP 401: authorization required.` : `The tool's server answered HTTP ${error.status}.`;
    const seconds = retryAfterOf(error);
    const wait = seconds === undefined ? '' : ` It asks to be called again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
    return error.bodyExcerpt === '' ? `${head}${wait}` : `${head}${wait} Response: ${error.bodyExcerpt}`;
  }
  if (isRcpError(error, 'RCP_INVALID_RESPONSE') || isRcpError(error, 'RCP_RESPONSE_TOO_LARGE')) {
    const problem = responseProblemMessage(error);
    if (problem !== undefined) return problem;
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

/** What the model is given of a successful result: the data, and a media part, a page, the cut flag when present. */
function success(result: RcpExecuteResult, boundary: string | undefined): ModelResult {
  const out: { ok: true; data: unknown; media?: ModelMedia; page?: ModelPage; truncated?: true; pending?: ModelPending; boundary?: string } = {
    ok: true,
    data: result.data,
  };
  const media = result.media;
  if (media !== undefined && media !== null && media.bytes instanceof Uint8Array) {
    out.media = Object.freeze({ mediaType: media.mediaType, size: media.bytes.byteLength, data: toBase64(media.bytes) });
  }
  if (result.page !== undefined) out.page = result.page;
  if (result.truncated === true) out.truncated = true;
  if (result.pending !== undefined) out.pending = result.pending;
  if (boundary !== undefined) out.boundary = boundary;
  return Object.freeze(out);
}

/**
 * Turns what a tool call produced into what goes back to the model: `{ ok: true, data }` — with
 * `media` (a binary answer, base64), `page` (is there more, and the exact arguments that ask for
 * it) and `truncated` (a text answer cut at `maxResponseBytes`) when the answer has them — or
 * `{ ok: false, error: { code, message, retryAfterSeconds? } }`. It takes a `client.call()`
 * outcome, a `client.execute()` result, or what a failed `execute` threw (then pass the tool as
 * `context.tool`, so a template error naming a model-fillable param can keep its message, and
 * so a client that marks untrusted text sets the result's `boundary`).
 *
 * The one rule of what a model may be told (SPEC §14): the data, as the server sent it (after
 * `responseMappings`); for `RCP_INVALID_ARGUMENTS`, `RCP_UNKNOWN_TOOL` and
 * `RCP_TOOL_NOT_IN_STAGE` the error's own message, which speaks only of what the model sent and
 * the tool's public schema; for `RCP_HTTP_ERROR` the status, how long the server asked to wait
 * and the server's own (bounded, secret-redacted) answer; for a media answer the client does not
 * pass on, its type and size; for template errors the message when its token is a model-fillable
 * param; for every other code a fixed generic sentence; for anything that is not an RCP error
 * `UNKNOWN_ERROR`. It never contains a credential or a resolver's value and never names a
 * resolver-bound param the model did not send. Everything else (URLs, origins, param names,
 * causes) is for the operator: read it from `outcome.error`. As text for a model, use
 * {@link toModelText} (it leaves the media bytes out and applies the marking).
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
    return outcome.ok ? toModelResult(outcome.result, { tool: outcome.tool }) : toModelResult(outcome.error, { tool: outcome.tool });
  }
  const boundary = boundaryFor(context?.tool);
  if (isRcpError(outcome)) return failure(outcome.code, modelMessage(outcome, context?.tool), boundary, retryAfterOf(outcome));
  if (!(outcome instanceof Error) && typeof outcome === 'object' && outcome !== null && Object.hasOwn(outcome, 'data')) {
    return success(outcome as RcpExecuteResult, boundary);
  }
  return failure('UNKNOWN_ERROR', FALLBACK, boundary);
}

/**
 * The text a model reads of a result, for every stack that takes text (a tool message, a
 * function output, MCP's text content): `toModelResult`'s object as JSON, with a media part's
 * bytes left out (its type and size stay: what was received and how big) and `boundary` not
 * shown. When the result has a `boundary` (`markUntrustedText`), the text is wrapped in
 * `<untrusted-<boundary>>` … `</untrusted-<boundary>>`, and every `<` and `>` inside is written
 * as a JSON escape (`\u003c`, `\u003e`: the same data to a JSON reader), so no text of the API's
 * can close the block or open another, whatever boundary it guesses.
 *
 * @example
 * ```ts
 * import { toModelResult, toModelText } from 'rcp-client';
 * const result = toModelResult(await client.call(discovery, call, ctx));
 * messages.push({ role: 'tool', tool_call_id: id, content: toModelText(result) });
 * // '{"ok":true,"data":null,"media":{"mediaType":"image/png","size":68}}' for an image
 * ```
 */
export function toModelText(result: ModelResult): string {
  const { boundary, ...shown } = result;
  const text = JSON.stringify(
    shown.ok && shown.media !== undefined ? { ...shown, media: { mediaType: shown.media.mediaType, size: shown.media.size } } : shown,
  );
  if (boundary === undefined) return text;
  const escaped = text.replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
  return `<untrusted-${boundary}>\n${escaped}\n</untrusted-${boundary}>`;
}
