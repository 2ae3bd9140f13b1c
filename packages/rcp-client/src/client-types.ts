import type { RcpManifest } from 'rcp-manifest';
import type { RcpCallOutcome, RcpExecuteResult, RcpToolCall } from './call-outcome';
import type { RcpClientTool } from './client-tool';
import type { RcpToolSet } from './tool-set';
import type { RcpApproval, RcpApprovalRequest, RcpApprovalVerdict } from './approval';

/**
 * A discovery warning: a manifest warning from `rcp-manifest` (an unknown field, an unused
 * param...) or a tool that is listed but cannot be executed as configured (it would send a
 * secret to an untrusted origin, or `allowOrigin` refuses its origin). `path` is a JSON Pointer
 * into the manifest.
 *
 * @example
 * ```ts
 * const { warnings } = await client.discover(url);
 * for (const warning of warnings) console.warn(`${warning.path}: ${warning.message}`);
 * ```
 */
export interface RcpDiscoveryWarning {
  readonly path: string;
  readonly message: string;
  /** The tool concerned, for tool warnings. */
  readonly tool?: string;
  /** Why, as a stable code a program can act on (the `message` wording may change). */
  readonly cause: RcpDiscoveryWarningCause;
}

/**
 * What a discovery warning is about, stable across versions (its `message` is for people):
 *
 * - `manifest`: a warning of `rcp-manifest`'s validation (an unknown field, an unused param …);
 * - `untrusted-origin`: the tool would send a credential or resolver values to an origin the client
 *   does not trust; every call fails with `RCP_ORIGIN_NOT_ALLOWED` (the fix: `trustedOrigins`);
 * - `address-refused`: the private-network boundary refuses the tool's address; every call fails
 *   with `RCP_ORIGIN_NOT_ALLOWED`;
 * - `origin-policy`: the client's `allowOrigin` policy refuses the tool's origin;
 * - `unbound-identity`: a param that names a user or tenant is left to the model (no resolver binds it);
 * - `resolved-cursor`: a resolver fills the tool's pagination cursor, so the model cannot page.
 *
 * @example
 * ```ts
 * const blocked = discovery.warnings.filter((warning) => warning.cause === 'untrusted-origin').map((warning) => warning.tool);
 * ```
 */
export type RcpDiscoveryWarningCause = 'manifest' | 'untrusted-origin' | 'address-refused' | 'origin-policy' | 'unbound-identity' | 'resolved-cursor';

/**
 * What `client.discover()` returns: the validated manifest and its compiled tools.
 *
 * @example
 * ```ts
 * const { manifestUrl, manifest, tools, warnings } = await client.discover('https://example.com/rcp/manifest');
 * ```
 */
export interface RcpDiscovery {
  /** The manifest URL as requested (fragment removed). */
  readonly manifestUrl: string;
  /** The validated, deep-frozen manifest. */
  readonly manifest: RcpManifest;
  /** One frozen tool per manifest tool, in manifest order. */
  readonly tools: readonly RcpClientTool[];
  readonly warnings: readonly RcpDiscoveryWarning[];
  /**
   * HTTP caching of the manifest: its validators (`etag`, `lastModified`) and until when
   * (`freshUntil`, epoch ms, from `Cache-Control: max-age`) it may be reused; see `discover`'s
   * `previous` option.
   */
  readonly cache: { readonly etag?: string; readonly lastModified?: string; readonly freshUntil: number };
  /**
   * The tool named `name`. An unknown name throws `RCP_UNKNOWN_TOOL`, whose message names the
   * closest tool and the available ones — never `undefined` to trip over later.
   *
   * @example
   * ```ts
   * const search = discovery.tool('search_courses');
   * await client.execute(search, { query: 'algebra' });
   * ```
   */
  tool(name: string): RcpClientTool;
}

/**
 * Options of `client.discover()`.
 *
 * @example
 * ```ts
 * await client.discover(url, { signal: AbortSignal.timeout(5_000) });
 * ```
 */
export interface RcpDiscoverOptions {
  /** Aborts the manifest fetch (`RCP_ABORTED`). */
  signal?: AbortSignal;
  /**
   * The caller's previous discovery of the same URL (by this client): reused as is while its
   * `Cache-Control: max-age` lasts, then revalidated with `If-None-Match` / `If-Modified-Since`
   * — a 304 keeps its tools. State the caller owns: the client keeps no cache. Pass the same
   * other options as for the previous discovery.
   * @default undefined (always fetch)
   * @example
   * ```ts
   * discovery = await client.discover(url, { previous: discovery });
   * ```
   */
  previous?: RcpDiscovery;
  /**
   * For this manifest, instead of the client's `trustedOrigins`: the extra origins that may
   * receive its tools' credentials and resolver values. Scope trust to the manifest it is for.
   * @default the client's `trustedOrigins`
   * @example
   * ```ts
   * await client.discover('https://learn.example.com/rcp/manifest', { trustedOrigins: ['https://api.learn-cdn.net'] });
   * ```
   */
  trustedOrigins?: readonly string[];
  /**
   * For this discovery, instead of the client's option: params that must be resolved
   * (see {@link RcpClientOptions.requireResolved}).
   * @default the client's `requireResolved`
   */
  requireResolved?: boolean | readonly string[];
  /**
   * For this discovery, instead of the client's option: params the model may fill
   * (see {@link RcpClientOptions.modelFilledParams}).
   * @default the client's `modelFilledParams`
   */
  modelFilledParams?: readonly string[];
}

/**
 * Options of `client.decide()`.
 *
 * @example
 * ```ts
 * const { decision } = await client.decide(tool, args, ctx, { signal: controller.signal });
 * ```
 */
export interface RcpDecideOptions {
  /** Ends the wait for the approval policy (`RCP_ABORTED`); the policy is handed a signal that follows it. */
  signal?: AbortSignal;
}

/**
 * Options of `client.review()`.
 *
 * @example
 * ```ts
 * const review = await client.review(tool, args, ctx, { key: toolCallId });
 * ```
 */
export interface RcpReviewOptions {
  /**
   * Keep the review in the client's approval ledger under this key (the stack's tool call id, 1
   * to 512 characters) until it expires, replacing what the key held: a call that resumes it
   * (`{ approvalKey }`) is sent only as this request, once; `storedReview(key)` shows it.
   * @default undefined (the review is only returned)
   */
  key?: string;
  /** Ends the wait for the resolvers, the policy and the ledger (`RCP_ABORTED`). */
  signal?: AbortSignal;
}

/**
 * Options of `client.execute()`.
 *
 * @example
 * ```ts
 * await client.execute(tool, args, ctx, { signal: controller.signal });
 * ```
 */
export interface RcpExecuteOptions {
  /** Aborts the call (`RCP_ABORTED`), including retries. */
  signal?: AbortSignal;
  /**
   * Sees the tool's final HTTP response (after redirects and retries), 2xx or not, once the
   * client has read its body: status, headers and body text as the server sent them, with the
   * call's credential redacted in every form. For a debugging view or a recorder — the client
   * keeps its transport, its private-network checks and its caps (never pass a recording
   * `fetch` for this). Called at most once per call; what it throws is ignored.
   * @default undefined
   * @example
   * ```ts
   * await client.execute(tool, args, ctx, { observeResponse: (response) => console.log(response.status, response.body) });
   * ```
   */
  observeResponse?: (response: RcpObservedResponse) => void;
  /**
   * A person's approval of this exact call (`approve(review)`): the call is built again and sent
   * only if it renders exactly the reviewed request, once (`RCP_APPROVAL_MISMATCH` otherwise,
   * nothing sent). Needed when the client's `approval` policy says `user-approval`.
   * @default undefined
   * @example
   * ```ts
   * await client.call(discovery, toolCall, ctx, { approval: approve(outcome.error.approval) });
   * ```
   */
  approval?: RcpApproval;
  /**
   * The call resumes a paused one: it carries the approval of the review kept in the client's
   * approval ledger under this key (`review(…, { key })`, the stack's tool call id). No review
   * kept there (never paused here, expired, a ledger that is not shared) or one changed where it
   * was kept is `RCP_APPROVAL_MISMATCH`, nothing sent — a resumed call is never reviewed again.
   * @default undefined
   * @example
   * ```ts
   * await client.call(discovery, toolCall, ctx, { approvalKey: toolCall.id });
   * ```
   */
  approvalKey?: string;
  /**
   * Sees a streamed answer's progress (a tool with a `stream`, SPEC §20.6): called after each
   * event is read with the events and bytes so far — what an adapter turns into its stack's
   * progress (MCP progress notifications, the AI SDK's preliminary results). Called
   * synchronously; what it throws is ignored.
   * @default undefined
   * @example
   * ```ts
   * await client.execute(tool, args, ctx, { onProgress: ({ events, bytes }) => console.log(events, bytes) });
   * ```
   */
  onProgress?: (progress: RcpStreamProgress) => void;
}

/**
 * Options of one `client.resume(...)`: the caller's signal (`RCP_ABORTED`). The client's
 * `timeout` bounds the check, as it bounds a call.
 *
 * @example
 * ```ts
 * await client.resume(discovery, handle, ctx, { signal: AbortSignal.timeout(5_000) });
 * ```
 */
export interface RcpResumeOptions {
  signal?: AbortSignal;
}

/**
 * A streamed answer's progress so far (`onProgress`): the events read and the bytes they took.
 *
 * @example
 * ```ts
 * const progress: RcpStreamProgress = { events: 120, bytes: 8_412 };
 * ```
 */
export interface RcpStreamProgress {
  /** Events read so far (every event counts, a skipped one too). */
  readonly events: number;
  /** Bytes of the body read so far (after content decoding). */
  readonly bytes: number;
}

/**
 * A tool's final HTTP response, as `observeResponse` is shown it: what the server sent, with
 * the call's credential (every attempt's, the retry after a 401 included) replaced by
 * `[redacted]` wherever it appears (status text, headers, body, in any encoding). Resolver values are not redacted here: like `result.data`, this is
 * the operator's view of the answer.
 *
 * @example
 * ```ts
 * const seen: RcpObservedResponse[] = [];
 * await client.execute(tool, args, ctx, { observeResponse: (response) => seen.push(response) });
 * seen[0]; // { status: 200, statusText: 'OK', url: 'https://api.example.com/notes', headers: {...}, body: '{"notes":[]}', truncated: false }
 * ```
 */
export interface RcpObservedResponse {
  readonly status: number;
  /** The reason phrase, control characters written as visible escapes. */
  readonly statusText: string;
  /** The URL that answered, after redirects, without its query. */
  readonly url: string;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The body as text (decoded by its declared charset, else UTF-8): the first 65,536 characters
   * of what the client read. Of an error's body read only in part, the end a credential cut
   * there could be in is left out too.
   */
  readonly body: string;
  /** True when `body` is not the whole body (cut here, or an error's body read only in part). */
  readonly truncated: boolean;
}

/**
 * Options of `client.load()`: where the manifest is taken to come from, and the per-manifest
 * options of `discover`.
 *
 * @example
 * ```ts
 * await client.load(text, { manifestUrl: 'https://notes.example.com/rcp/manifest' });
 * await client.load(fileText, { manifestUrl: 'https://manifest-file.invalid/notes.json', sourceClass: 'local' });
 * ```
 */
export interface RcpLoadOptions extends Pick<RcpDiscoverOptions, 'trustedOrigins' | 'requireResolved' | 'modelFilledParams'> {
  /**
   * The URL the manifest is declared to come from: relative tool URLs resolve against it, and
   * its origin is the manifest's own (trusted) origin, exactly as if it had been fetched from
   * there. Nothing is ever fetched from it.
   */
  manifestUrl: string | URL;
  /**
   * How private the place the manifest came from is, for the private-network boundary:
   * `'local'` for a file read on this machine (its tools may call loopback and private
   * addresses, as a manifest served from localhost may; link-local never), `'private'` for one
   * from your network, `'public'` for text from anywhere else.
   * @default the class of `manifestUrl`'s host
   */
  sourceClass?: 'public' | 'private' | 'local';
}

/**
 * The request `prepare` would have sent: method, absolute URL, headers (the credential
 * replaced by `[redacted]`), and the JSON body (not serialised) when the tool has one.
 * The client's `headers` option and `Accept: application/json, *\/*;q=0.8` (unless the tool
 * sets its own) are added at send time.
 *
 * @example
 * ```ts
 * const request: RcpPreparedRequest = await client.prepare(tool, { query: 'algebra' });
 * // { method: 'GET', url: 'https://api.example.com/courses/search?q=algebra', headers: {} }
 * ```
 */
export interface RcpPreparedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/**
 * An RCP client: discovers manifests and executes their tools. Created by {@link createRcpClient}.
 *
 * @example
 * ```ts
 * const client = createRcpClient({ resolvers: { learnerId: (ctx) => ctx.currentUserId } });
 * const { tools } = await client.discover('https://example.com/rcp/manifest');
 * const result = await client.execute(tools[0]!, { query: 'algebra' }, { currentUserId: 'u-1' });
 * ```
 */
/**
 * The arguments after `args` of `execute`, `prepare` and `call`: the call's context, then
 * options. The context may be left out only when `Context` accepts `undefined` (a client whose
 * resolvers read no typed context); otherwise it is required.
 *
 * @example
 * ```ts
 * type Rest = RcpContextArgs<{ userId: string }, [options?: RcpExecuteOptions]>; // [ctx: { userId: string }, options?]
 * ```
 */
export type RcpContextArgs<Context, Rest extends unknown[] = []> = undefined extends Context ? [ctx?: Context, ...rest: Rest] : [ctx: Context, ...rest: Rest];

/**
 * A source of tools for `client.call()`: a discovery, a list of its tools (a stage's subset),
 * or a tool set (`createToolSet`: several discoveries, namespaced names).
 *
 * @example
 * ```ts
 * const readOnly: RcpToolSource = discovery.tools.filter((tool) => tool.method === 'GET');
 * ```
 */
export type RcpToolSource = RcpDiscovery | readonly RcpClientTool[] | RcpToolSet;

/**
 * A client: it discovers manifests, shows each tool's schema, and executes a model's calls by
 * sending each tool's own request — resolvers, credentials, trust, approval and limits applied on
 * every call. Made by `createRcpClient`; `Context` is what your resolvers read (the verified user,
 * the tenant).
 *
 * @example
 * ```ts
 * const client: RcpClient<{ userId: string }> = createRcpClient({ resolvers: { userId: (ctx) => ctx.userId } });
 * const discovery = await client.discover('https://notes.example.com/rcp/manifest');
 * const result = await client.execute(discovery.tool('list_notes'), { word: 'math' }, { userId: 'u-1' });
 * ```
 */
export interface RcpClient<Context = any> {
  /**
   * Fetches, validates and compiles a manifest. Fetch failures (network, non-2xx, not JSON,
   * too large, timeout) throw `RCP_DISCOVERY_FAILED` with the cause; `rcp-manifest`'s errors
   * (`RCP_UNSUPPORTED_VERSION`, `RCP_INVALID_MANIFEST`, `RCP_MANIFEST_LIMIT`) pass through.
   *
   * @example
   * ```ts
   * const { manifest, tools, warnings } = await client.discover('https://example.com/rcp/manifest');
   * ```
   */
  discover(manifestUrl: string | URL, options?: RcpDiscoverOptions): Promise<RcpDiscovery>;
  /**
   * Validates and compiles a manifest you already have — its JSON text or the parsed object (a
   * file, a fixture, a bundle) — as if it had been fetched from `options.manifestUrl`: every
   * rule, warning and trust decision of `discover` applies, and nothing is fetched. Its
   * `cache` is never fresh. Errors as `discover`'s; text that is not JSON is `RCP_INVALID_MANIFEST`.
   *
   * @example
   * ```ts
   * const text = await readFile('notes.rcp.json', 'utf8');
   * const discovery = await client.load(text, { manifestUrl: 'https://notes.example.com/rcp/manifest' });
   * ```
   */
  load(manifest: unknown, options: RcpLoadOptions): Promise<RcpDiscovery>;
  /**
   * Runs every step of `execute` before the request is sent (arguments, resolvers,
   * credential, rendering, origin checks) and returns the request, the credential redacted.
   *
   * @example
   * ```ts
   * const request = await client.prepare(tool, { query: 'algebra' }, ctx);
   * console.log(request.url, request.headers); // { Authorization: 'Bearer [redacted]' }
   * ```
   */
  prepare(tool: RcpClientTool, args: unknown, ...rest: RcpContextArgs<Context>): Promise<RcpPreparedRequest>;
  /**
   * What a person would be asked to approve for this call, and the policy's decision — nothing
   * is sent: the request as it will really go (resolver values included, the credential
   * `[redacted]`), its digest and a one-call id. `approve()` it to let exactly it be sent.
   *
   * @example
   * ```ts
   * const review = await client.review(tool, { noteId: 'n-1' }, ctx);
   * if (review.decision === 'user-approval' && (await askPerson(review.request))) await client.execute(tool, { noteId: 'n-1' }, ctx, { approval: approve(review) });
   * ```
   */
  review(tool: RcpClientTool, args: unknown, ...rest: RcpContextArgs<Context, [options?: RcpReviewOptions]>): Promise<RcpApprovalRequest>;
  /**
   * The review kept in the client's approval ledger under `key` (`review(…, { key })`), verified
   * against its digest — a review changed where it was kept is `RCP_APPROVAL_MISMATCH`, never
   * shown — or `undefined` when none is kept (or it expired). Show it to the person.
   *
   * @example
   * ```ts
   * const review = await client.storedReview(toolCallId);
   * if (review !== undefined) console.log(review.request.method, review.request.url);
   * ```
   */
  storedReview(key: string): Promise<RcpApprovalRequest | undefined>;
  /**
   * The policy's decision for this call and nothing else: the arguments are validated
   * (`RCP_INVALID_ARGUMENTS` otherwise), no resolver runs, no credential is asked, no request is
   * built. What an adapter asks first ("does this call need a person?"); only a `user-approval`
   * call needs a {@link RcpClient.review}. Without an `approval` policy: `not-applicable`. The
   * policy answers within the client's `timeout` (`RCP_TIMEOUT` otherwise) and the `signal`
   * (`RCP_ABORTED`).
   *
   * @example
   * ```ts
   * const { decision } = await client.decide(tool, { noteId: 'n-1' }, ctx);
   * if (decision === 'user-approval') show(await client.review(tool, { noteId: 'n-1' }, ctx));
   * ```
   */
  decide(tool: RcpClientTool, args: unknown, ...rest: RcpContextArgs<Context, [options?: RcpDecideOptions]>): Promise<RcpApprovalVerdict>;
  /**
   * Calls a tool: validates `args`, fills resolver-bound params, adds the credential,
   * renders the request, checks its origin — all before any HTTP request — then sends it,
   * reads the response and applies the tool's `responseMappings`.
   *
   * @example
   * ```ts
   * const { status, data } = await client.execute(tool, { query: 'algebra' }, ctx);
   * ```
   */
  execute(tool: RcpClientTool, args: unknown, ...rest: RcpContextArgs<Context, [options?: RcpExecuteOptions]>): Promise<RcpExecuteResult>;
  /**
   * Runs a model's tool call by name: finds the tool in `source`, takes `arguments` as an
   * object or a JSON string, and executes it. It does not throw for anything the call itself
   * runs into — an unknown name, bad arguments, a resolver with no value, an HTTP error — but
   * returns it as `{ ok: false, error }`; only a non-RCP error (a bug) is thrown. Hand the
   * outcome to `toModelResult` for what the model may read.
   *
   * @example
   * ```ts
   * const outcome = await client.call(discovery, { name: 'get_note', arguments: '{"noteId":"n-1"}' }, ctx);
   * messages.push({ role: 'tool', content: JSON.stringify(toModelResult(outcome)) });
   * ```
   */
  call(source: RcpToolSource, toolCall: RcpToolCall, ...rest: RcpContextArgs<Context, [options?: RcpExecuteOptions]>): Promise<RcpCallOutcome>;
  /**
   * Checks a long-running operation a call left pending (SPEC §20.8): opens the sealed
   * `handle` (`result.pending.handle`), finds its tool in `source`, checks that `ctx` is the
   * caller it was issued for (the same subject or credential, the same resolver values) and polls
   * its status under a new deadline. Returns the result, or `pending` again with a fresh handle;
   * a failed operation is `RCP_OPERATION_FAILED`. A handle that was altered, has expired, was
   * issued by a client without this `approvalSecret`, or for another caller is
   * `RCP_INVALID_HANDLE`, nothing sent.
   *
   * @example
   * ```ts
   * const first = await client.execute(tool, { prompt: 'a lighthouse' }, ctx);
   * if (first.pending) {
   *   const later = await client.resume(discovery, first.pending.handle, ctx);
   *   if (!later.pending) console.log(later.data);
   * }
   * ```
   */
  resume(source: RcpToolSource, handle: string, ...rest: RcpContextArgs<Context, [options?: RcpResumeOptions]>): Promise<RcpExecuteResult>;
  /**
   * Lets the client's connections go (its undici agents on Node; nothing to do with fetch):
   * pending calls finish, keep-alive sockets close, and every later call of this client is
   * `RCP_ABORTED`. For a short-lived process or a test; a long-lived client never needs it.
   *
   * @example
   * ```ts
   * try {
   *   await client.execute(tool, args, ctx);
   * } finally {
   *   await client.close();
   * }
   * ```
   */
  close(): Promise<void>;
}
