import type { RcpAuthChallenge } from 'rcp-errors';
import type { RcpAuth } from 'rcp-manifest';
import type { RcpClientTool } from './client-tool';
import type { RcpRetryOptions } from './retry-options';
import type { RcpHooks, RcpTracer } from './hooks';
import type { RcpApprovalPolicy } from './approval';
import type { RcpApprovalLedger } from './approval-ledger';
import type { RcpDiscoveryWarning } from './client-types';
import type { RcpExecuteResult } from './call-outcome';
import type { AddressClass as RcpAddressClass } from './internal/trust/address-class';

/**
 * What a resolver receives besides the call's context: the tool being called and the
 * name of the param it must fill.
 *
 * @example
 * ```ts
 * const resolver: RcpResolver<{ tenant: string }> = (ctx, { tool, param }) => ctx.tenant;
 * ```
 */
export interface RcpResolverInfo {
  /** The tool being executed (as returned by `discover`). */
  readonly tool: RcpClientTool;
  /** The name of the param this resolver fills. */
  readonly param: string;
}

/**
 * Fills one param from the operator's own context, never from the model. Sync or async.
 * Return `undefined` or `null` when there is nothing to resolve from (no signed-in user,
 * say): the call then fails with `RCP_UNRESOLVED` before any HTTP request.
 *
 * @example
 * ```ts
 * const learnerId: RcpResolver<{ currentUserId?: string }> = (ctx) => ctx.currentUserId;
 * ```
 */
export type RcpResolver<Context = any> = (ctx: Context, info: RcpResolverInfo) => unknown;

/**
 * What a file resolver is told besides the reference (RCP 0.4): the tool, the file param, and the
 * param's declared `mediaTypes` and `maxBytes` (to pick a rendition, or refuse early).
 *
 * @example
 * ```ts
 * const files: RcpFileResolver = (reference, ctx, info: RcpFileResolverInfo) => store.open(ctx.userId, reference, info.mediaTypes);
 * ```
 */
export interface RcpFileResolverInfo {
  /** The tool being executed (as returned by `discover`). */
  readonly tool: RcpClientTool;
  /** The file param the model named the reference in. */
  readonly param: string;
  /** The param's accepted media types (`type/subtype` or `type/*`), when it declares them. */
  readonly mediaTypes: readonly string[] | undefined;
  /** The param's largest file in bytes, when it declares one. */
  readonly maxBytes: number | undefined;
}

/**
 * A file a resolver hands over (RCP 0.4): its name and media type, and its content as bytes or as
 * a stream. A stream is read (counted against the limits, cancelled past them) before the request
 * starts, because the review's SHA-256 covers it; give `size` when you know it, and a stream that
 * yields another number of bytes fails the call (`RCP_RESOLVER_FAILED`), nothing sent.
 *
 * @example
 * ```ts
 * const file: RcpResolvedFile = { bytes: await readFile(path), mediaType: 'image/png', filename: 'chart.png' };
 * ```
 */
export type RcpResolvedFile =
  | { readonly bytes: Uint8Array; readonly mediaType: string; readonly filename: string }
  | {
      readonly stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;
      readonly size?: number;
      readonly mediaType: string;
      readonly filename: string;
    };

/**
 * Turns a model's file reference (an attachment id the host issued, or a URI it received) into a
 * file, under the host's rules — the user of `ctx` may read it — or returns `undefined` (then
 * `RCP_UNRESOLVED`, nothing sent). Runs only for references that passed the reference rule
 * (never a path or bytes). A throw is `RCP_RESOLVER_FAILED`, nothing sent; neither message shows
 * the reference's file or anything the resolver returned.
 *
 * @example
 * ```ts
 * const files: RcpFileResolver<{ userId: string }> = async (reference, ctx) => {
 *   const attachment = await attachments.get(ctx.userId, reference); // undefined when not theirs
 *   return attachment && { bytes: attachment.bytes, mediaType: attachment.type, filename: attachment.name };
 * };
 * ```
 */
export type RcpFileResolver<Context = any> = (
  reference: string,
  ctx: Context,
  info: RcpFileResolverInfo,
) => RcpResolvedFile | undefined | null | Promise<RcpResolvedFile | undefined | null>;

/**
 * The header auth a credential is requested for: the header name and optional scheme.
 *
 * @example
 * ```ts
 * const auth: RcpHeaderAuth = { type: 'header', name: 'Authorization', scheme: 'Bearer' };
 * ```
 */
export type RcpHeaderAuth = Extract<RcpAuth, { type: 'header' }>;

/**
 * Query auth (RCP 0.2): the credential travels as one query parameter, `name`.
 *
 * @example
 * ```ts
 * const auth: RcpQueryAuth = { type: 'query', name: 'api_key' };
 * ```
 */
export type RcpQueryAuth = Extract<RcpAuth, { type: 'query' }>;

/**
 * What the credentials provider receives: where the credential will be sent and why.
 *
 * @example
 * ```ts
 * const credentials: RcpCredentialsProvider = ({ origin }) =>
 *   origin === 'https://api.example.com' ? process.env.EXAMPLE_TOKEN : undefined;
 * ```
 */
export interface RcpCredentialsInfo<Context = any> {
  /** The URL the tool was discovered from. */
  readonly manifestUrl: string;
  /** The origin the credential will be sent to (always a trusted origin). */
  readonly origin: string;
  /** The tool being executed. */
  readonly tool: RcpClientTool;
  /** The tool's effective auth (its own, or the manifest's): where the credential goes. */
  readonly auth: RcpHeaderAuth | RcpQueryAuth;
  /** The context passed to `execute` / `prepare`. */
  readonly ctx: Context;
}

/**
 * Returns the credential for a tool whose effective auth is `header`, sync or async.
 * Return the bare credential (the client adds the scheme, e.g. `Bearer`); `undefined`,
 * `null` or an empty string fails the call with `RCP_MISSING_CREDENTIALS`.
 *
 * @example
 * ```ts
 * const credentials: RcpCredentialsProvider = () => process.env.LEARN_TOKEN;
 * ```
 */
export type RcpCredentialsProvider<Context = any> = (info: RcpCredentialsInfo<Context>) => string | undefined | null | Promise<string | undefined | null>;

/**
 * What `onUnauthorized` receives when a tool that sends a credential answers 401: the call's
 * context, the tool, where it was sent, and the server's parsed challenge.
 *
 * @example
 * ```ts
 * const onUnauthorized = ({ ctx, tool, challenge }: RcpUnauthorizedInfo<{ userId: string }>) =>
 *   challenge?.error === 'invalid_token' ? tokens.renew(ctx.userId) : false;
 * ```
 */
export interface RcpUnauthorizedInfo<Context = any> {
  /** The context passed to `execute` / `call`. */
  readonly ctx: Context;
  /** The tool that was refused. */
  readonly tool: RcpClientTool;
  /** The origin the credential was sent to. */
  readonly origin: string;
  /** The URL the tool was discovered from. */
  readonly manifestUrl: string;
  /** The 401's `WWW-Authenticate` challenge (redacted server text), when it sent one. */
  readonly challenge: RcpAuthChallenge | undefined;
  /**
   * Whether `credential` is the one the refused request carried (the credential itself is not
   * given): when calls refused together each report their 401, a provider renews only if the
   * credential it holds now is the refused one, and otherwise just answers `true`.
   */
  wasSent(credential: string): boolean;
}

/**
 * Called on a tool's 401 when the tool sends a credential. Return `true` once a new credential
 * is in place: the request is built again (the credentials provider asked again) and sent one
 * more time. Anything else — `false`, a throw, no answer within the call's deadline — leaves
 * the 401's `RcpHttpError`.
 *
 * @example
 * ```ts
 * const onUnauthorized: RcpUnauthorizedHandler<{ userId: string }> = async ({ ctx }) => {
 *   await sessions.refreshAccessToken(ctx.userId);
 *   return true;
 * };
 * ```
 */
export type RcpUnauthorizedHandler<Context = any> = (info: RcpUnauthorizedInfo<Context>) => boolean | Promise<boolean>;

/**
 * What `inspectResult` is handed: a successful call's result, before the model sees it, with the
 * tool and the call's context.
 *
 * @example
 * ```ts
 * const inspectResult = ({ tool, result }: RcpResultInspection) =>
 *   tool.name === 'get_page' && result.media?.mediaType === 'application/pdf' ? { refuse: 'PDFs are not read here.' } : undefined;
 * ```
 */
export interface RcpResultInspection<Context = any> {
  /** The tool that was called. */
  readonly tool: RcpClientTool;
  /** Its result: data (mapped, the credential redacted), media, page, status, content type. Frozen. */
  readonly result: Readonly<RcpExecuteResult>;
  /** The context passed to `execute` / `call`. */
  readonly ctx: Context;
}

/**
 * What `inspectResult` answers: nothing to let the result through, or `{ refuse }` — `true`, or
 * the reason the model reads (`The client refused the tool's response: <reason>`).
 *
 * @example
 * ```ts
 * const verdict: RcpResultVerdict = { refuse: 'The answer held a payment card number.' };
 * ```
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a hook that returns nothing lets the result through
export type RcpResultVerdict = void | undefined | { readonly refuse: true | string };

/**
 * Inspects each successful result before the model sees it (a content filter, a DLP check, an
 * audit), sync or async, within the call's deadline. A refusal — or a throw: it fails closed — is
 * the call's `RCP_INVALID_RESPONSE`, an outcome the model reads, never the data.
 *
 * @example
 * ```ts
 * const inspectResult: RcpResultInspector = ({ result }) =>
 *   /\b\d{16}\b/.test(JSON.stringify(result.data)) ? { refuse: 'The answer held a card number.' } : undefined;
 * ```
 */
export type RcpResultInspector<Context = any> = (info: RcpResultInspection<Context>) => RcpResultVerdict | Promise<RcpResultVerdict>;

/**
 * Options of {@link createRcpClient}. Every option is optional; invalid values throw
 * `RCP_INVALID_OPTIONS` when the client is created.
 *
 * @example
 * ```ts
 * const options: RcpClientOptions<{ currentUserId?: string }> = {
 *   resolvers: { learnerId: (ctx) => ctx.currentUserId },
 *   credentials: () => process.env.LEARN_TOKEN,
 *   trustedOrigins: ['https://api.example.com'],
 *   timeout: 10_000,
 * };
 * ```
 */
export interface RcpClientOptions<Context = any> {
  /**
   * Resolvers by param name. A param with a resolver is removed from every tool's
   * `inputSchema` at discovery and filled by the resolver at execution.
   * @default {}
   */
  resolvers?: Readonly<Record<string, RcpResolver<Context>>>;
  /**
   * Resolves the references the model gives to file params (RCP 0.4, SPEC §20.7) into files, under
   * your rules. Without it, a call that gives a file is `RCP_UNRESOLVED`, nothing sent.
   * @default undefined
   * @example
   * ```ts
   * createRcpClient({ files: (reference, ctx) => attachments.open(ctx.userId, reference) });
   * ```
   */
  files?: RcpFileResolver<Context>;
  /**
   * Largest total of file bytes one call uploads (every file part together), checked before the
   * request starts; a file param's own `maxBytes` applies as well. Files are held in memory for
   * their SHA-256 (the review shows it), so this also bounds a call's memory.
   * @default 33554432 (32 MiB)
   */
  maxUploadBytes?: number;
  /**
   * Supplies the credential for tools whose effective auth is `header`. It is only ever
   * asked for (and the credential only ever sent) for a trusted origin.
   * @default undefined (tools that need a credential fail with RCP_MISSING_CREDENTIALS)
   */
  credentials?: RcpCredentialsProvider<Context>;
  /**
   * Called when a tool that sends a credential answers 401, with the context, the tool and the
   * parsed challenge: renew the credential (the user's token, a cached client token) and return
   * `true`, and the request is built again — credentials asked again — and sent ONE more time,
   * whatever its method (the server refused it, so nothing happened). `false`, a throw, or a
   * second 401 end the call with the `RcpHttpError`. rcp-oauth's providers fill it with `credentials`.
   * @default undefined (a 401 is the call's `RcpHttpError`)
   * @example
   * ```ts
   * createRcpClient({
   *   credentials: ({ ctx }) => tokens.accessTokenOf(ctx.userId),
   *   onUnauthorized: async ({ ctx }) => tokens.refresh(ctx.userId), // true when a new token is stored
   * });
   * ```
   */
  onUnauthorized?: RcpUnauthorizedHandler<Context>;
  /**
   * Which calls need a person's approval first (SPEC §19): `'writes'` — every call that is not
   * read-only waits for a person; a decision per tool name; or a function of the tool, its
   * effects, the validated arguments and the context returning `not-applicable | approved |
   * denied | user-approval` (or `{ decision, reason }`). A call that needs approval is returned as
   * `RCP_APPROVAL_REQUIRED` with the exact request to show; a denial is a result the model reads.
   * A policy function answers within the call's `timeout` and signal (`RCP_TIMEOUT` /
   * `RCP_ABORTED` otherwise, nothing sent); it is handed `signal` to pass on.
   * @default undefined (nothing needs approval)
   * @example
   * ```ts
   * createRcpClient({ approval: 'writes' });
   * ```
   */
  approval?: RcpApprovalPolicy<Context>;
  /**
   * The key approvals are signed with (HMAC-SHA-256, SPEC §19): a review's digest is computed
   * with it, so an approval cannot be made up by code that does not hold it. At least 32 bytes
   * (a string of 32 or more characters, or a `Uint8Array`). To approve in another process —
   * a stored run state, a checkpoint — give both clients the same secret.
   * @default a random key per client: an approval binds to the client that reviewed it
   * @example
   * ```ts
   * createRcpClient({ approval: 'writes', approvalSecret: process.env.RCP_APPROVAL_SECRET });
   * ```
   */
  approvalSecret?: string | Uint8Array;
  /**
   * Where the client keeps the reviews of calls waiting on a person (by the stack's tool call id)
   * and the ids of approvals used (SPEC §19; docs/behaviour.md). Share one — and the `approvalSecret` — between the
   * processes of an app (`createRedisApprovalLedger` of `rcp-redis`) and a call paused in one is
   * approved in another, exactly once; with the default, single use and resuming hold within this
   * client only, and a resume that finds no stored review is refused.
   * @default an in-memory ledger owned by this client (`createMemoryApprovalLedger()`)
   * @example
   * ```ts
   * createRcpClient({ approval: 'writes', approvalSecret, approvalLedger: createRedisApprovalLedger({ client: redis }) });
   * ```
   */
  approvalLedger?: RcpApprovalLedger;
  /**
   * Who a call is made for, from its context, for the approval to bind (SPEC §19): a review made
   * for one subject never approves another's call (`RCP_APPROVAL_MISMATCH`). Without it the
   * caller is the credential the call sends (its keyed fingerprint, never the value) — give a
   * subject (a user id) when the credential changes while a person decides (an OAuth token that
   * is refreshed). A function that throws or gives no string denies the call.
   * @default undefined (the credential is the caller)
   * @example
   * ```ts
   * createRcpClient({ approval: 'writes', approvalSubject: (ctx) => ctx.userId });
   * ```
   */
  approvalSubject?: (ctx: Context) => string;
  /**
   * How long an approval is good for, in milliseconds from its review (1000 to 604800000): a
   * later call with it is `RCP_APPROVAL_MISMATCH`, nothing sent, and its ledger entries expire.
   * @default 3_600_000 (one hour)
   * @example
   * ```ts
   * createRcpClient({ approval: 'writes', approvalExpiresIn: 15 * 60_000 });
   * ```
   */
  approvalExpiresIn?: number;
  /**
   * Extra origins (`https://api.example.com`) that may receive credentials and resolver
   * values, beyond the manifest's own origin and origins of its registrable domain.
   * @default []
   */
  trustedOrigins?: readonly string[];
  /**
   * SSRF policy: called with every URL the client is about to request (the manifest,
   * each tool call, each redirect); return `false` to refuse it (`RCP_ORIGIN_NOT_ALLOWED`).
   * @default undefined (any http(s) URL may be called when no secret is sent)
   */
  allowOrigin?: (url: URL) => boolean;
  /**
   * One deadline in milliseconds for the whole call: the resolvers, the credentials provider,
   * the approval policy, every attempt, redirect and retry wait, headers and body
   * (`RCP_TIMEOUT`); `decide` and `review` give the policy one of their own.
   * @default 30000
   */
  timeout?: number;
  /**
   * Retries after the first attempt, for GET, HEAD, PUT, DELETE and OPTIONS only, on network
   * errors and 408, 429, 502, 503, 504 (honouring `Retry-After` up to 10 s). POST and PATCH are
   * never retried. Or an object: `{ limit, methods, statusCodes, delay(attempt, reason) }`.
   * @default 2
   * @example
   * ```ts
   * createRcpClient({ retry: { limit: 4, statusCodes: [429, 503], delay: (attempt) => 250 * attempt } });
   * ```
   */
  retry?: number | RcpRetryOptions;
  /**
   * Largest response body accepted from a tool call, counted while streaming.
   * @default 10485760 (10 MiB)
   */
  maxResponseBytes?: number;
  /**
   * Largest manifest accepted by `discover`, counted while streaming.
   * @default 5242880 (5 MiB)
   */
  maxManifestBytes?: number;
  /**
   * Most tools a manifest may list before `discover` refuses it (`RCP_MANIFEST_LIMIT`).
   * @default 5000
   * @example
   * ```ts
   * createRcpClient({ maxManifestTools: 20_000 }); // a large internal API catalogue
   * ```
   */
  maxManifestTools?: number;
  /**
   * Params that must be filled by a resolver wherever a manifest declares them; a covered param
   * with no resolver fails `discover` with `RCP_UNBOUND_PARAM`, before any tool is called.
   * `true`: every param whose name looks like an identity (`userId`, `tenant_id`, `accountId`,
   * `email` ... the list is in SPEC §10). A list of names (compared ignoring case, `_` and `-`):
   * those, on top of the default. `false`: none — identity-looking params become warnings.
   * Safe by default: once the client has a resolver, an identity-looking param that no resolver
   * fills is an error, so a misnamed or forgotten resolver cannot hand the model the user's id.
   * A param the model really should fill goes in `modelFilledParams`.
   * @default `true` when the client has any resolver, `false` when it has none
   * @example
   * ```ts
   * createRcpClient({ resolvers: { userId: (ctx) => ctx.userId }, requireResolved: ['region'] });
   * ```
   */
  requireResolved?: boolean | readonly string[];
  /**
   * The escape hatch: params the model may fill even though their name nearly matches a
   * resolver's or looks like an identity (a `userIds` filter, a `customerEmail` the user types).
   * Silences `RCP_RESOLVER_MISMATCH`, `RCP_UNBOUND_PARAM` and the identity warning for these exact
   * names; the model sees and fills them.
   * @default []
   * @example
   * ```ts
   * createRcpClient({ resolvers: { userId: (ctx) => ctx.userId }, modelFilledParams: ['userIds', 'inviteeEmail'] });
   * ```
   */
  modelFilledParams?: readonly string[];
  /**
   * The private-network boundary (on by default, after the browsers' Private Network Access
   * rule): a tool may call a loopback, private (RFC 1918, IPv6 ULA, CGNAT …) address only when
   * the manifest itself came from an address at least as private, and a link-local one
   * (169.254.169.254, fe80::/10, fd00:ec2::254: cloud metadata) never. `true` lifts the first
   * rule; a list of origins allows exactly those, link-local ones included.
   * @default false
   * @example
   * ```ts
   * createRcpClient({ allowPrivateNetwork: ['http://10.0.0.5:8080'] }); // an internal API behind a public manifest
   * ```
   */
  allowPrivateNetwork?: boolean | readonly string[];
  /**
   * Your own address classification for the private-network boundary, consulted before the
   * built-in one: a host name → `'public' | 'private' | 'local' | 'link-local'`, or `undefined`
   * for the built-in answer (for example, your internal DNS suffix is `'private'`).
   * @default undefined (IP literals by their range, `localhost` as local, other names public)
   * @example
   * ```ts
   * createRcpClient({ classifyAddress: (host) => (host.endsWith('.corp.example') ? 'private' : undefined) });
   * ```
   */
  classifyAddress?: (hostname: string) => RcpAddressClass | undefined;
  /**
   * Called with each discovery warning (an unknown manifest field, a param no template uses, an
   * identity-looking param the model fills because no resolver does) and the URL of the manifest
   * it is about. Each distinct warning is reported once per client, however often the manifest is
   * discovered again; the same warnings stay on `discovery.warnings`. The default prints one line
   * per warning with `console.warn` (manifest text made safe for a terminal); pass `() => {}` to
   * keep them to `discovery.warnings` alone. A throw here never fails the discovery.
   * @default prints each warning once with `console.warn`
   * @example
   * ```ts
   * createRcpClient({ onWarning: (warning, { manifestUrl }) => logger.warn({ manifestUrl, ...warning }) });
   * ```
   */
  onWarning?: (warning: RcpDiscoveryWarning, about: { readonly manifestUrl: string }) => void;
  /**
   * Observability hooks: request sent, response received, retry, redirect, error — with the tool
   * name, method, URL template and timing, never a credential, a resolver value or an argument.
   * @default undefined
   * @example
   * ```ts
   * createRcpClient({ hooks: { onError: ({ tool, code, elapsedMs }) => console.warn(tool, code, elapsedMs) } });
   * ```
   */
  hooks?: RcpHooks;
  /**
   * An OpenTelemetry tracer (`trace.getTracer(...)` from `@opentelemetry/api`): one span per
   * `execute` / `call`, kind CLIENT, named `rcp <tool>`, with the tool, method, URL template,
   * server origin, attempts and final status as attributes, retries and redirects as events, and
   * the error code as `error.type` — never a credential, resolver value, argument or rendered URL.
   *
   * @example
   * ```ts
   * import { trace } from '@opentelemetry/api';
   *
   * createRcpClient({ tracer: trace.getTracer('notes-agent') });
   * ```
   */
  tracer?: RcpTracer;
  /**
   * Media types a tool's answer is passed on as a media part — its bytes, base64 in what the
   * model reads, never decoded text (SPEC §18.3) — as `type/subtype` or `type/*`. A tool's own
   * `responseMediaTypes` (RCP 0.3) are passed on too. Any other binary answer is refused
   * (`RCP_INVALID_RESPONSE`, which the model reads); JSON and text are read as before.
   * @default ['image/*', 'audio/*', 'video/*', 'application/pdf', 'application/octet-stream']
   * @example
   * ```ts
   * createRcpClient({ mediaTypes: ['image/png', 'image/jpeg', 'application/pdf'] });
   * ```
   */
  mediaTypes?: readonly string[];
  /**
   * Largest media part passed on, in bytes (within `maxResponseBytes`); a larger one is
   * `RCP_RESPONSE_TOO_LARGE` with the media type and size, which the model reads.
   * @default 5242880 (5 MiB)
   */
  maxMediaBytes?: number;
  /**
   * Marks what the model reads of each result as the API's, not yours: `toModelText` wraps it
   * in a delimiter with a random part chosen per call (`<untrusted-…>` … `</untrusted-…>`), and
   * writes every `<` and `>` of the API's text as a JSON escape, so no answer can close the
   * block or forge another. Tell the model in your system prompt that text inside such blocks is
   * data, never instructions (SPEC §14).
   * @default false
   * @example
   * ```ts
   * createRcpClient({ markUntrustedText: true });
   * ```
   */
  markUntrustedText?: boolean;
  /**
   * Sees each successful result before the model does and may refuse it (see
   * {@link RcpResultInspector}): a refusal or a throw is `RCP_INVALID_RESPONSE`, never the data.
   * @default undefined
   * @example
   * ```ts
   * createRcpClient({ inspectResult: ({ result }) => (result.media ? { refuse: 'No files in this agent.' } : undefined) });
   * ```
   */
  inspectResult?: RcpResultInspector<Context>;
  /**
   * Accept `text/html` (and XHTML) answers to tool calls as text. Off by default: an HTML
   * page answering a tool call is almost always a login wall or a proxy's error page, and is
   * `RCP_INVALID_RESPONSE` rather than a success the model would read.
   * @default false
   */
  allowHtmlResponses?: boolean;
  /**
   * The `fetch` implementation to use (a proxy-aware one, a ky instance...). Passing one hands
   * the connections to it, and so turns off the private-network boundary's connect-time check
   * (SPEC §12.1): only the host as written is checked, so a public name that resolves to a
   * loopback, private or metadata address is no longer caught. To watch responses, use
   * `execute`'s `observeResponse`, not a recording fetch.
   * @default undefined (on Node, undici with the connect-time check; elsewhere globalThis.fetch)
   */
  fetch?: typeof globalThis.fetch;
  /**
   * Headers added to every request (e.g. `User-Agent`). They go to every origin, so they
   * must not carry secrets: `Authorization`, `Proxy-Authorization` and `Cookie` are
   * refused here — use `credentials`.
   * @default {}
   */
  headers?: Readonly<Record<string, string>>;
}
