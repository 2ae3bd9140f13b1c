/**
 * Long-running operations (SPEC §20.8): a tool that declares `operation` and answers `202` is
 * followed — its status URL (a header, or a path of the 202's JSON; on the tool's origin only) is
 * polled with GET, with the tool's credential and rendered headers, inside the call's one
 * deadline, until a status answer says done (the result) or failed (`RCP_OPERATION_FAILED`).
 * When the next poll would end past the deadline, the call returns `pending` with a sealed handle
 * (`operation-handle.ts`) that `resume` opens — in this client or another sharing its secret —
 * for the same caller only.
 */
import { RcpError } from 'rcp-errors';
import { compileResponseMappings, type CompiledResponseMappings, type ParseManifestOptions, type RcpTool } from 'rcp-manifest';
import { percentEncode } from 'rcp-template';
import type { RcpExecuteResult } from '../../call-outcome';
import type { RcpClientTool } from '../../client-tool';
import type { CallObserver } from '../../hooks';
import { RcpResponseError } from '../../response-error';
import type { CompiledTool } from '../discovery/tool-registry';
import { createRedactor } from '../redaction/redact';
import { decodeResponse } from '../respond/decode-response';
import { mediaTypeLabel } from '../respond/media-type';
import { sleep, type Deadline } from '../send/deadline';
import { parseRetryAfter } from '../send/retry-policy';
import { cleanReasonPhrase, type SendCallOptions, type SendRequest, type SendResult, type Sender } from '../send/send';
import type { HandleSealer, OperationHandleContent } from './operation-handle';

/** A tool's declared operation, compiled once at discovery. */
export interface OperationPlan {
  /** The header that names the status URL (lower-case), when `statusUrl` is `header:<Name>`. */
  readonly statusHeader: string | undefined;
  /** The 202 answer's path to the status URL (as the mapping `{ value: path }`), otherwise. */
  readonly statusPath: CompiledResponseMappings | undefined;
  readonly state: CompiledResponseMappings | undefined;
  readonly done: readonly string[];
  readonly failed: readonly string[];
  readonly result: CompiledResponseMappings | undefined;
  /** The wait between polls when an answer sends no `Retry-After`, in milliseconds. */
  readonly pollMs: number;
}

/** Seconds between polls when a tool declares none. */
const DEFAULT_POLL_SECONDS = 2;
/** The longest `Retry-After` a status answer is obeyed for, in milliseconds (a longer one is cut to it). */
const MAX_POLL_WAIT_MS = 3_600_000;
/** Sent with every poll: a status answer is JSON. */
const POLL_ACCEPT = 'application/json, */*;q=0.8';
/** The longest state shown in an error (it is the server's text). */
const MAX_STATE_CHARS = 64;

/** The tool's declared operation (RCP 0.4), compiled: its paths once, as mappings of one value. */
export function operationOf(source: RcpTool, prepared: Pick<ParseManifestOptions, 'filterEngine'> | undefined): OperationPlan | undefined {
  const declared = source.operation;
  if (declared === undefined) return undefined;
  const path = (value: string | undefined) => (value === undefined ? undefined : compileResponseMappings({ value }, prepared));
  const header = declared.statusUrl.startsWith('header:') ? declared.statusUrl.slice('header:'.length).toLowerCase() : undefined;
  return Object.freeze({
    statusHeader: header,
    statusPath: header === undefined ? path(declared.statusUrl) : undefined,
    state: path(declared.state),
    done: declared.done ?? [],
    failed: declared.failed ?? [],
    result: path(declared.result),
    pollMs: (declared.pollSeconds ?? DEFAULT_POLL_SECONDS) * 1_000,
  });
}

/** The one value a compiled path takes from JSON, or `undefined`. */
function valueAt(path: CompiledResponseMappings, json: unknown): unknown {
  const taken = path.apply(json);
  return Object.hasOwn(taken, 'value') ? taken['value'] : undefined;
}

/** What a poll loop runs with: the client's sender and sealer, and the call's bounds and secrets. */
export interface PollContext {
  readonly send: Sender;
  readonly sealer: HandleSealer;
  readonly tool: RcpClientTool;
  readonly compiled: CompiledTool;
  readonly plan: OperationPlan;
  readonly deadline: Deadline;
  readonly signal: AbortSignal | undefined;
  /** The credential each poll carries (fresh for a resumed operation), when the tool needs one. */
  readonly credential: string | undefined;
  /** Every secret of the call (the credential, the resolver values' forms), for errors. */
  readonly secrets: () => readonly string[];
  readonly observer: CallObserver | undefined;
  /** Who may resume it (a keyed fingerprint) and until when. */
  readonly binding: string;
  readonly expiresAt: number;
}

/** Where the operation is polled: the status URL (no credential in it) and the headers of each poll. */
export interface PollTarget {
  readonly statusUrl: string;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * The status URL a 202 names, resolved against the URL that answered, on the tool's origin —
 * else `RCP_ORIGIN_NOT_ALLOWED` (nothing is sent there), as for a cross-origin redirect.
 */
export function statusUrlOf(tool: RcpClientTool, compiled: CompiledTool, plan: OperationPlan, answer: SendResult): string {
  let location: unknown;
  if (plan.statusHeader !== undefined) location = answer.headers.get(plan.statusHeader) ?? undefined;
  else if (answer.body.byteLength > 0) location = valueAt(plan.statusPath!, decodeResponse(answer).data);
  const where = plan.statusHeader === undefined ? 'its JSON' : `its ${plan.statusHeader} header`;
  if (typeof location !== 'string' || location.trim() === '') {
    throw new RcpResponseError('no-status-location', `Tool "${tool.name}" answered 202 without a status URL in ${where}`, { tool: tool.name });
  }
  let url: URL;
  try {
    url = new URL(location.trim(), answer.url);
  } catch {
    throw new RcpResponseError('no-status-location', `Tool "${tool.name}" answered 202 with a status URL in ${where} that is not a URL`, { tool: tool.name });
  }
  url.hash = '';
  if (url.origin !== tool.origin || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new RcpError(
      'RCP_ORIGIN_NOT_ALLOWED',
      `Tool "${tool.name}" answered 202 with a status URL on another origin (${url.protocol}//${url.host}); it is not polled (only ${tool.origin} is)`,
    );
  }
  if (compiled.isAllowed !== undefined && !compiled.isAllowed(url.href)) {
    throw new RcpError('RCP_ORIGIN_NOT_ALLOWED', `The client's "allowOrigin" policy refuses the status URL of tool "${tool.name}"`);
  }
  return url.href;
}

/** The headers of each poll: the call's rendered headers without its body's, its key's and its credential's. */
export function pollHeadersOf(compiled: CompiledTool, sent: SendRequest): Record<string, string> {
  const dropped = new Set(['content-type', 'content-length', 'accept']);
  const auth = compiled.auth?.auth;
  if (auth?.type === 'header') dropped.add(auth.name.toLowerCase());
  const idempotency = compiled.source.idempotency?.header;
  if (idempotency !== undefined) dropped.add(idempotency.toLowerCase());
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(sent.headers)) if (!dropped.has(name.toLowerCase())) headers[name] = value;
  return headers;
}

/** One poll's request: the status URL and headers, with the credential where the tool's auth puts it. */
function pollRequest(context: PollContext, target: PollTarget): SendRequest {
  const { credential, compiled, tool } = context;
  const auth = compiled.auth;
  let url = target.statusUrl;
  let headers = { ...target.headers };
  if (credential !== undefined && auth !== undefined) {
    if (auth.auth.type === 'query') url += `${url.includes('?') ? '&' : '?'}${percentEncode(auth.auth.name)}=${percentEncode(credential)}`;
    else headers = { ...headers, [auth.auth.name]: auth.prefix + credential };
  }
  return { method: 'GET', url, headers, origin: tool.origin };
}

/** The wait an answer asks for: its `Retry-After` (at most an hour), else the tool's interval. */
function waitOf(plan: OperationPlan, answer: SendResult): number {
  const asked = parseRetryAfter(answer.headers.get('retry-after'));
  return asked === undefined ? plan.pollMs : Math.min(asked, MAX_POLL_WAIT_MS);
}

type StatusReading =
  | { readonly kind: 'pending'; readonly data: unknown; readonly contentType: string }
  | { readonly kind: 'done'; readonly result: RcpExecuteResult };

/** What one status answer says: still pending, done (the result), or failed (thrown). */
function readStatus(context: PollContext, answer: SendResult): StatusReading {
  const { plan, tool, compiled } = context;
  const decoded = answer.body.byteLength === 0 ? { data: null, contentType: answer.headers.get('content-type') ?? '', text: '' } : decodeResponse(answer);
  if (answer.status === 202) return { kind: 'pending', data: decoded.data, contentType: decoded.contentType };
  if (plan.state !== undefined) {
    const state = stateText(valueAt(plan.state, decoded.data));
    if (state !== undefined && plan.failed.includes(state)) {
      throw new RcpError('RCP_OPERATION_FAILED', `Tool "${tool.name}": the operation failed (state "${shownState(state)}")`);
    }
    if (state === undefined || !plan.done.includes(state)) return { kind: 'pending', data: decoded.data, contentType: decoded.contentType };
  }
  let data = plan.result === undefined ? decoded.data : (valueAt(plan.result, decoded.data) ?? null);
  if (compiled.mappings !== undefined) {
    if (typeof decoded.data !== 'object' || decoded.data === null) {
      throw new RcpError(
        'RCP_INVALID_RESPONSE',
        `Tool "${tool.name}" has responseMappings but its operation's result is not JSON (${mediaTypeLabel(decoded.contentType)})`,
      );
    }
    data = compiled.mappings.apply(data);
  }
  return { kind: 'done', result: { status: answer.status, data, contentType: decoded.contentType } };
}

/** A state as text: a string as it is, a number or boolean as JSON writes it; anything else is no state. */
function stateText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  return undefined;
}

/** A server's state, cleaned and cut for a message. */
function shownState(state: string): string {
  const clean = cleanReasonPhrase(state);
  return clean.length > MAX_STATE_CHARS ? `${clean.slice(0, MAX_STATE_CHARS)}…` : clean;
}

/**
 * Polls `target` until done or failed, or until the next poll would end past the deadline: then
 * the result is `pending`, with a sealed handle and the seconds to wait before checking again.
 * `first` is the answer the loop starts from (the 202, or nothing for a resumed operation: the
 * first poll is sent at once).
 */
export async function pollOperation(context: PollContext, target: PollTarget, first: SendResult | undefined): Promise<RcpExecuteResult> {
  const { deadline, signal, plan } = context;
  let last: { data: unknown; contentType: string; status: number } =
    first === undefined ? { data: null, contentType: '', status: 202 } : { ...pendingDataOf(first), status: 202 };
  let wait = first === undefined ? 0 : waitOf(plan, first);
  for (;;) {
    if (!deadline.fits(wait)) return pending(context, target, last, wait);
    let answer: SendResult;
    try {
      if (wait > 0) await sleep(wait, deadline.signal);
      answer = await context.send(pollRequest(context, target), pollOptions(context));
    } catch (error) {
      // The deadline ended the wait or the poll: the operation goes on at the server.
      if (deadline.timedOut() && signal?.aborted !== true) return pending(context, target, last, plan.pollMs);
      throw error;
    }
    const reading = readStatus(context, answer);
    if (reading.kind === 'done') return cleaned(context, reading.result);
    last = { data: reading.data, contentType: reading.contentType, status: answer.status };
    wait = waitOf(plan, answer);
  }
}

/** The data of the 202 that started the operation (JSON or text; not mapped: it is not the result). */
function pendingDataOf(answer: SendResult): { data: unknown; contentType: string } {
  if (answer.body.byteLength === 0) return { data: null, contentType: answer.headers.get('content-type') ?? '' };
  const decoded = decodeResponse(answer);
  return { data: decoded.data, contentType: decoded.contentType };
}

/** The sender's options for one poll: the call's deadline, transport, redirect policy and secrets. */
function pollOptions(context: PollContext): SendCallOptions {
  const options: SendCallOptions = {
    isRedirectAllowed: context.compiled.isRedirectAllowed,
    accept: POLL_ACCEPT,
    deadline: context.deadline,
    secrets: context.secrets,
  };
  if (context.compiled.transport !== undefined) options.transport = context.compiled.transport;
  if (context.observer !== undefined) options.observer = context.observer;
  if (context.signal !== undefined) options.signal = context.signal;
  return options;
}

/** A credential the server echoed is taken out of what the model reads (SPEC §14). */
function cleaned(context: PollContext, result: RcpExecuteResult): RcpExecuteResult {
  const redactor = createRedactor(context.credential === undefined ? [] : [context.credential]);
  if (redactor !== undefined) {
    const text = typeof result.data === 'string' ? result.data : (JSON.stringify(result.data) ?? '');
    if (redactor.test(text)) result.data = redactor.redactData(result.data);
  }
  return result;
}

/** The pending result: the last status the server gave, a sealed handle, and when to check again. */
async function pending(
  context: PollContext,
  target: PollTarget,
  last: { data: unknown; contentType: string; status: number },
  wait: number,
): Promise<RcpExecuteResult> {
  const content: OperationHandleContent = {
    manifestUrl: context.tool.manifestUrl,
    tool: context.tool.name,
    statusUrl: target.statusUrl,
    headers: target.headers,
    binding: context.binding,
    expiresAt: context.expiresAt,
  };
  const handle = await context.sealer.seal(content);
  const result = cleaned(context, { status: last.status, data: last.data, contentType: last.contentType });
  result.pending = Object.freeze({ handle, checkAfterSeconds: Math.max(1, Math.ceil(wait / 1_000)) });
  return result;
}
