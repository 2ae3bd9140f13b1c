/**
 * Execution, the call's one-way path: validate → resolve → credential → render → trust check
 * (`build-request.ts`, nothing sent), then send (`send.ts`: redirects, retries, the size cap),
 * then respond (decode, refuse what must not pass for data, map, take out the credential). One
 * deadline is started before the first step and carried to the last.
 */
import { RcpError, isRcpError } from 'rcp-errors';
import type { RcpCallOutcome, RcpExecuteResult, RcpMedia, RcpPage, RcpToolCall } from '../../call-outcome';
import { RcpResponseError } from '../../response-error';
import { nextPage } from '../respond/next-page';
import { responseKind } from '../respond/response-kind';
import type { RcpClientTool } from '../../client-tool';
import type { RcpDiscovery, RcpExecuteOptions, RcpObservedResponse, RcpPreparedRequest, RcpToolSource } from '../../client-types';
import { observeCall, type CallObserver } from '../../hooks';
import { findEntry, findInToolSet, isToolSet, type RcpToolSetEntry } from '../../tool-set';
import { buildRequest, type BuiltRequest } from '../build/build-request';
import { decodeResponse, withoutPartialCharacter } from '../respond/decode-response';
import { startDeadline, type Deadline } from '../send/deadline';
import { entriesOf } from '../discovery/discovery';
import { isHtmlMediaType, isJsonMediaType, mediaTypeLabel } from '../respond/media-type';
import { REDACTED, createRedactor, redactError } from '../redaction/redact';
import type { ResolvedClientOptions } from '../options/resolve-options';
import { abortedError, cleanReasonPhrase, type SendCallOptions, type SendResult, type Sender, type WireResponse } from '../send/send';
import { compiledToolOf, type CompiledTool } from '../discovery/tool-registry';
import { retriesAfterUnauthorized } from './unauthorized';
import { createApprovalGate } from './approval-gate';
import type { RcpApprovalRequest, RcpApprovalVerdict } from '../../approval';

/**
 * Characters dropped from the end of a cut text per character of the credential: the longest
 * form an encoder writes one character in (`\\\\u00eb`, a percent-encoded astral half) is
 * shorter, so a credential the cut went through is gone from what is left.
 */
const CUT_MARGIN_PER_CHARACTER = 12;

/** `work`, or `RCP_TIMEOUT` / `RCP_ABORTED` when the call's deadline or the caller's signal ends first. */
function withinDeadline<T>(work: Promise<T>, deadline: Deadline, signal: AbortSignal | undefined, tool: RcpClientTool): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      work.catch(() => {}); // settles later, to nobody
      reject(deadline.timedOut() ? new RcpError('RCP_TIMEOUT', `Tool "${tool.name}": inspectResult did not answer within ${deadline.timeout} ms`) : abortedError(signal?.reason));
    };
    if (deadline.aborted) {
      onAbort();
      return;
    }
    deadline.once('abort', onAbort);
    void work.then(resolve, reject).finally(() => deadline.removeListener('abort', onAbort));
  });
}

/** Characters of a body an observer is shown. */
const OBSERVED_BODY_CHARS = 65_536;
/** Sent with every tool call unless the tool sets its own Accept header. */
const ACCEPT = 'application/json, */*;q=0.8';


/** What `prepare` shows of a built request: the credential `[redacted]`, the body before serialisation. */
function preparedOf(compiled: CompiledTool, built: BuiltRequest): RcpPreparedRequest {
  const headers = { ...built.request.headers };
  if (built.credential !== undefined && compiled.auth!.auth.type === 'header') headers[compiled.auth!.auth.name] = compiled.auth!.prefix + REDACTED;
  const prepared: RcpPreparedRequest = { method: built.request.method, url: built.shownUrl, headers };
  if (built.body !== undefined) prepared.body = built.body;
  return prepared;
}

/** The client's `prepare`, `decide`, `review`, `execute` and `call`. */
const NOT_APPLICABLE: RcpApprovalVerdict = Object.freeze({ decision: 'not-applicable' });

export function createExecution<Context>(options: ResolvedClientOptions, send: Sender, owner: object) {
  const resolved = options;
  const gate = createApprovalGate(resolved.approval, resolved.approvalSecret);

  /**
   * Steps 1–4 within the call's deadline: resolvers and the credentials provider that do not
   * answer in time are `RCP_TIMEOUT` (nothing is sent); the caller's signal ends the wait.
   */
  function buildWithin(
    compiled: CompiledTool,
    tool: RcpClientTool,
    args: unknown,
    ctx: Context | undefined,
    deadline: Deadline,
    signal: AbortSignal | undefined,
  ): BuiltRequest | Promise<BuiltRequest> {
    const building = buildRequest(compiled, tool, args, ctx);
    if (!(building instanceof Promise)) return building;
    return new Promise<BuiltRequest>((resolve, reject) => {
      const onAbort = (): void => {
        const timedOut = deadline.timedOut();
        reject(
          timedOut
            ? new RcpError(
                'RCP_TIMEOUT',
                `Tool "${tool.name}": the resolvers and the credentials provider did not answer within ${deadline.timeout} ms; nothing was sent`,
              )
            : abortedError(signal?.reason),
        );
      };
      if (deadline.aborted) {
        building.catch(() => {}); // settles later, to nobody
        onAbort();
        return;
      }
      deadline.once('abort', onAbort);
      void building.then(resolve, reject).finally(() => deadline.removeListener('abort', onAbort));
    });
  }

  /** Steps 1–4 under a deadline of their own (nothing is sent after them). */
  async function buildOnly(compiled: CompiledTool, tool: RcpClientTool, args: unknown, ctx: Context | undefined): Promise<BuiltRequest> {
    const deadline = startDeadline(resolved.timeout, undefined);
    try {
      return await buildWithin(compiled, tool, args, ctx, deadline, undefined);
    } finally {
      deadline.end();
    }
  }

  async function prepare(tool: RcpClientTool, args: unknown, ctx?: Context): Promise<RcpPreparedRequest> {
    const compiled = compiledToolOf(tool, owner);
    return preparedOf(compiled, await buildOnly(compiled, tool, args, ctx));
  }

  async function decide(tool: RcpClientTool, args: unknown, ctx?: Context): Promise<RcpApprovalVerdict> {
    const compiled = compiledToolOf(tool, owner);
    // The policy sees the model's validated arguments only: no resolver runs, no credential is asked.
    const validated = compiled.checkArguments(args);
    return gate.enabled ? gate.decide(tool, validated, ctx) : NOT_APPLICABLE;
  }

  async function review(tool: RcpClientTool, args: unknown, ctx?: Context): Promise<RcpApprovalRequest> {
    const compiled = compiledToolOf(tool, owner);
    const built = await buildOnly(compiled, tool, args, ctx);
    return gate.review(tool, built.args ?? {}, ctx, preparedOf(compiled, built));
  }

  async function execute(
    tool: RcpClientTool,
    args: unknown,
    ctx?: Context,
    executeOptions?: RcpExecuteOptions,
  ): Promise<RcpExecuteResult> {
    const compiled = compiledToolOf(tool, owner);
    const observer = observeCall(resolved.hooks, resolved.tracer, tool, performance.now());
    try {
      const result = await run(compiled, tool, args, ctx, executeOptions, observer);
      observer?.end();
      return result;
    } catch (error) {
      const code = isRcpError(error) ? error.code : 'UNKNOWN_ERROR';
      observer?.emit('onError', { code });
      observer?.end(code);
      throw error;
    }
  }

  async function run(
    compiled: CompiledTool,
    tool: RcpClientTool,
    args: unknown,
    ctx: Context | undefined,
    executeOptions: RcpExecuteOptions | undefined,
    observer: CallObserver | undefined,
  ): Promise<RcpExecuteResult> {
    const signal = executeOptions?.signal;
    if (signal?.aborted) throw abortedError(signal?.reason);
    // One deadline for the whole call, started before the resolvers run and carried to the
    // last byte of the body (a retry after a 401 included): one timer per call.
    const deadline = startDeadline(resolved.timeout, signal);
    const attempt = async (retried: boolean): Promise<RcpExecuteResult> => {
      let built: BuiltRequest | undefined;
      try {
        built = await buildWithin(compiled, tool, args, ctx, deadline, signal);
        if (signal?.aborted) throw abortedError(signal?.reason);
        // The approval gate, between the request built and the request sent (once per call: a
        // retry after a 401 was admitted already).
        const approval = executeOptions?.approval;
        if (gate.enabled || approval !== undefined) {
          const done = built;
          if (retried) await gate.recheck(tool, () => preparedOf(compiled, done), approval);
          else await gate.admit(tool, done.args ?? {}, ctx, () => preparedOf(compiled, done), approval);
          if (signal?.aborted) throw abortedError(signal?.reason);
        }
        const call: SendCallOptions = { isRedirectAllowed: compiled.isRedirectAllowed, accept: ACCEPT, deadline, cutText: true };
        if (compiled.transport !== undefined) call.transport = compiled.transport;
        if (observer !== undefined) call.observer = observer;
        if (signal !== undefined) call.signal = signal;
        if (built.secrets !== undefined) call.secrets = built.secrets;
        const observeResponse = executeOptions?.observeResponse;
        const credential = built.credential;
        if (observeResponse !== undefined) call.observe = (response) => observed(observeResponse, response, credential);
        return await inspected(tool, respond(tool, compiled, await send(built.request, call), built), ctx, deadline, signal);
      } catch (error) {
        // A 401 the operator's `onUnauthorized` answers `true` to: built again and sent once more.
        if (!retried && built !== undefined && (await retriesAfterUnauthorized(resolved.onUnauthorized, error, compiled, tool, ctx, built.credential, deadline))) {
          return attempt(true);
        }
        // Everything built from server-controlled text leaves through the one redaction routine.
        throw built === undefined ? error : redactError(error, built.secrets?.());
      }
    };
    try {
      return await attempt(false);
    } finally {
      deadline.end();
    }
  }

  /**
   * Steps 7 and after: decode (JSON, text, a media part, or refused — SPEC §11 step 7, §25.3),
   * refuse what must not pass for data, map, take out the credential, then the page (§25.4).
   */
  function respond(tool: RcpClientTool, compiled: CompiledTool, result: SendResult, built: BuiltRequest): RcpExecuteResult {
    const credential = built.credential;
    const contentType = result.headers.get('content-type') ?? '';
    const page = (json: unknown): RcpPage | undefined =>
      nextPage(compiled, { headers: result.headers, url: result.url, json, args: built.args ?? {}, values: built.values });
    if (result.body.byteLength === 0) {
      // An empty body (204, Content-Length: 0) is "no data", whatever its type says.
      return withPage({ status: result.status, data: null, contentType }, page(undefined), credential);
    }
    if (!resolved.allowHtmlResponses && isHtmlMediaType(contentType)) {
      throw new RcpError(
        'RCP_INVALID_RESPONSE',
        `Tool "${tool.name}" was answered with an HTML page (${mediaTypeLabel(contentType)}), not data: ` +
          `a login wall or a proxy's error page? (set "allowHtmlResponses" to accept HTML as text)`,
      );
    }
    const { kind, mediaType } = responseKind(contentType, result.body, compiled.mediaRanges);
    if (kind === 'refused') {
      throw new RcpResponseError('media-not-allowed', `Tool "${tool.name}" was answered with ${mediaTypeLabel(mediaType)}, which the client does not pass on (option "mediaTypes", or the tool's "responseMediaTypes")`, {
        tool: tool.name,
        mediaType,
      });
    }
    if (kind === 'media') {
      if (compiled.mappings !== undefined) {
        throw new RcpError('RCP_INVALID_RESPONSE', `Tool "${tool.name}" has responseMappings but the response is not JSON (${mediaTypeLabel(mediaType)})`);
      }
      const size = result.body.byteLength;
      if (size > compiled.maxMediaBytes) {
        throw new RcpResponseError('media-too-large', `Tool "${tool.name}" was answered with ${mediaTypeLabel(mediaType)} of ${size} bytes, more than the ${compiled.maxMediaBytes} the client passes on (maxMediaBytes)`, {
          tool: tool.name,
          mediaType,
          size,
          limit: compiled.maxMediaBytes,
        });
      }
      const media: RcpMedia = Object.freeze({ mediaType, bytes: result.body });
      return withPage({ status: result.status, data: null, contentType, media }, page(undefined), credential);
    }
    const decoded = decodeResponse(result.truncated === true ? { ...result, body: withoutPartialCharacter(result.body, contentType) } : result);
    let data = decoded.data;
    let text = decoded.text;
    if (result.truncated === true && typeof data === 'string' && credential !== undefined) {
      // A credential the cut went through cannot be found whole: the end it could be in goes too.
      data = text = data.slice(0, Math.max(0, data.length - CUT_MARGIN_PER_CHARACTER * credential.length));
    }
    if (compiled.mappings !== undefined) {
      if (!isJsonMediaType(decoded.contentType)) {
        throw new RcpError(
          'RCP_INVALID_RESPONSE',
          `Tool "${tool.name}" has responseMappings but the response is not JSON (${mediaTypeLabel(decoded.contentType)})`,
        );
      }
      data = compiled.mappings.apply(data);
    }
    // A server that echoes the credential in its answer does not hand it to the model (SPEC §14):
    // looked for in the body as sent (every encoding), taken out of the data only when found there.
    const redactor = credential === undefined ? undefined : createRedactor([credential]);
    if (redactor !== undefined && redactor.test(text)) data = redactor.redactData(data);
    const out: RcpExecuteResult = { status: result.status, data, contentType: decoded.contentType };
    if (result.truncated === true) out.truncated = true;
    return withPage(out, page(kind === 'json' ? decoded.data : undefined), credential);
  }

  /** The result with its page, unless the page's arguments would hand the model the credential. */
  function withPage(result: RcpExecuteResult, page: RcpPage | undefined, credential: string | undefined): RcpExecuteResult {
    if (page === undefined) return result;
    const redactor = credential === undefined ? undefined : createRedactor([credential]);
    const safe = page.nextArguments !== null && redactor?.test(JSON.stringify(page.nextArguments)) === true ? Object.freeze({ hasMore: true, nextArguments: null }) : page;
    result.page = safe;
    return result;
  }

  /**
   * The operator's `inspectResult`, within the call's deadline: nothing → the result stands; a
   * refusal or a throw (failing closed) → `RCP_INVALID_RESPONSE` the model reads.
   */
  async function inspected(tool: RcpClientTool, result: RcpExecuteResult, ctx: Context | undefined, deadline: Deadline, signal: AbortSignal | undefined): Promise<RcpExecuteResult> {
    const inspect = resolved.inspectResult;
    if (inspect === undefined) return result;
    const refused = (reason: string | undefined, cause?: unknown): RcpResponseError =>
      new RcpResponseError('refused-by-inspector', `The client's inspectResult refused the response of tool "${tool.name}"`, {
        tool: tool.name,
        ...(reason !== undefined && { reason }),
        ...(cause !== undefined && { cause }),
      });
    let verdict: unknown;
    try {
      verdict = await withinDeadline(Promise.resolve().then(() => inspect({ tool, result: Object.freeze({ ...result }), ctx })), deadline, signal, tool);
    } catch (error) {
      if (isRcpError(error, 'RCP_TIMEOUT') || isRcpError(error, 'RCP_ABORTED')) throw error;
      throw refused(undefined, error);
    }
    if (verdict === undefined || verdict === null) return result;
    // Anything but nothing, `{ refuse: true | reason }` or `{ refuse: false }` refuses: it fails closed.
    const refuse = typeof verdict === 'object' ? (verdict as { refuse?: unknown }).refuse : true;
    if (refuse === undefined || refuse === false) return result;
    throw refused(typeof refuse === 'string' && refuse !== '' ? refuse : undefined);
  }

  async function call(
    source: RcpToolSource,
    toolCall: RcpToolCall,
    ctx?: Context,
    executeOptions?: RcpExecuteOptions,
  ): Promise<RcpCallOutcome> {
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

  return { prepare, decide, review, execute, call };
}

const UTF8 = new TextDecoder();

/** Hands the operator's observer the final response, the credential redacted; its throw is ignored. */
function observed(observer: (response: RcpObservedResponse) => void, response: WireResponse, credential: string | undefined): void {
  const redactor = createRedactor(credential === undefined ? [] : [credential]);
  const clean = (text: string): string => (redactor === undefined ? text : redactor.redact(text));
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers.entries()) headers[name.toLowerCase()] = clean(value);
  const body = clean(UTF8.decode(response.body));
  const url = new URL(response.url);
  try {
    const returned: unknown = observer(
      Object.freeze({
        status: response.status,
        statusText: clean(cleanReasonPhrase(response.statusText)),
        url: clean(url.origin + url.pathname),
        headers: Object.freeze(headers),
        body: body.length > OBSERVED_BODY_CHARS ? body.slice(0, OBSERVED_BODY_CHARS) : body,
        truncated: !response.complete || body.length > OBSERVED_BODY_CHARS,
      }),
    );
    // An async observer's rejection is nobody's: it must not become an unhandled one.
    if (typeof (returned as PromiseLike<unknown> | undefined)?.then === 'function') (returned as Promise<unknown>).then(undefined, () => {});
  } catch {
    // An observer watches; it cannot change or fail the call.
  }
}

/**
 * How a call's source finds a tool by name (`RCP_INVALID_OPTIONS` for a source that is none):
 * a tool set tells a name outside its stage from an unknown one.
 */
function lookUpIn(source: RcpToolSource): (name: string) => RcpToolSetEntry {
  if (isToolSet(source)) return (name) => findInToolSet(source, name);
  const entries = entriesOfSource(source);
  return (name) => findEntry(entries, name);
}

/** The named tools of a discovery or a list of tools. */
function entriesOfSource(source: RcpDiscovery | readonly RcpClientTool[]): readonly RcpToolSetEntry[] {
  if (Array.isArray(source)) return entriesOf(source);
  const tools = typeof source === 'object' && source !== null ? (source as RcpDiscovery).tools : undefined;
  if (!Array.isArray(tools)) {
    throw new RcpError(
      'RCP_INVALID_OPTIONS',
      'client.call() needs a discovery (from client.discover), a list of its tools, or a tool set',
    );
  }
  return entriesOf(tools);
}

