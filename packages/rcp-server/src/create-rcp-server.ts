import { RcpError } from 'rcp-errors';
import { parseManifest, type RcpAuth, type RcpFilterEngine, type RcpManifest, type RcpTool, type RcpVersion } from 'rcp-manifest';
import { defineTool, type AnyServerTool, type DefineTool, type ServerGroup } from './define-tool';
import { createMemoryIdempotencyStore, type RcpIdempotencyStore } from './idempotency-store';
import { answerCall, type CallContext } from './internal/answer-call';
import { compileRoute, type CompiledRoute } from './internal/compile-route';
import type { IdempotencyContext } from './internal/idempotent-call';
import { serveManifest } from './internal/manifest-response';
import { problemResponse } from './problem';

/**
 * The operator's authentication hook: the principal of a request, or a `Response` to answer
 * instead (say a 401). `undefined` / `null` is a 401 problem. See `bearerAuth`.
 *
 * @example
 * ```ts
 * const verify: VerifyHook<{ learnerId: string }> = (request) =>
 *   request.headers.get('authorization') === 'Bearer demo' ? { learnerId: 'learner-42' } : undefined;
 * ```
 */
export type VerifyHook<Principal> = (request: Request) => Principal | Response | undefined | null | Promise<Principal | Response | undefined | null>;

/**
 * How a server keeps idempotency keys for the tools that declare `idempotency` (RCP 0.4, SPEC
 * §20.1, §17): where, for how long, and whose a key is.
 *
 * @example
 * ```ts
 * import { createRedisIdempotencyStore } from 'rcp-redis';
 *
 * const idempotency: RcpIdempotencyOptions<{ userId: string }> = {
 *   store: createRedisIdempotencyStore({ client: redis, prefix: 'notes-api:' }),
 *   expiresAfterSeconds: 3600,
 *   subject: (principal) => principal.userId,
 * };
 * ```
 */
export interface RcpIdempotencyOptions<Principal> {
  /**
   * Where records are kept. Share one (`rcp-redis`) when several instances serve the API.
   * @default an in-memory store owned by this server (`createMemoryIdempotencyStore()`)
   */
  readonly store?: RcpIdempotencyStore;
  /**
   * How long a key's first response is kept and replayed, in seconds, for each tool that does
   * not give its own `idempotency.expiresAfterSeconds`; published in the manifest either way.
   * @default 86_400 (a day)
   */
  readonly expiresAfterSeconds?: number;
  /**
   * How long a first request still running holds its key, in seconds (a duplicate meanwhile is a
   * 409). It must outlast the slowest handler: a key whose request crashed the process is free
   * again after it.
   * @default 300
   */
  readonly inFlightSeconds?: number;
  /**
   * Whose a key is: a string naming the principal. Keys of different subjects never meet.
   * @default the principal as JSON with sorted keys (`""` for a tool whose auth is `none`)
   */
  readonly subject?: (principal: Principal) => string;
}

/**
 * Options of {@link createRcpServer}. `GroupName` is the union of the declared `groups`' names
 * (inferred by `createRcpServer`; `never` when there are none).
 *
 * @example
 * ```ts
 * const options: RcpServerOptions<{ learnerId: string }> = {
 *   tools: [],
 *   auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
 *   verify: bearerAuth([{ token: 'demo-token', principal: { learnerId: 'learner-42' } }]),
 * };
 * ```
 */
export interface RcpServerOptions<Principal, GroupName extends string = never> {
  /**
   * The tools, each beside its handler: a list of `defineTool(…)`, or a function that makes the
   * list with the `defineTool` it is given — typed with the principal of `verify`, so `bound` and
   * every handler get it without a type argument, and with the declared `groups`, so a tool's
   * `group` must be one of them.
   * @example
   * ```ts
   * createRcpServer({ verify, tools: (tool) => [tool({ name: 'get_user', … })] });
   * ```
   */
  readonly tools: readonly AnyServerTool<Principal>[] | ((tool: DefineTool<Principal, NoInfer<GroupName>>) => readonly AnyServerTool<Principal>[]);
  /**
   * The tool groups (RCP 0.4, SPEC §20.3): each a name, written as a tool name and unique
   * regardless of case, and what its tools are for. A tool names its one group in `group`.
   * Declaring one makes the manifest `"0.4"`; rcp-manifest's rules check them when the server is
   * created (`RCP_INVALID_MANIFEST` at `/groups/N/name`, or at `/tools/N/group` naming the tool).
   * A group no tool names is published all the same.
   * @default none: the manifest has no `groups`, and no tool may name one
   * @example
   * ```ts
   * createRcpServer({
   *   groups: [{ name: 'invoices', description: 'Invoices and their payments.' }],
   *   tools: (tool) => [tool({ name: 'list_invoices', description: 'Lists invoices.', method: 'GET', path: '/invoices', group: 'invoices', handler: () => [] })],
   * });
   * ```
   */
  readonly groups?: readonly ServerGroup<GroupName>[];
  /** The manifest's server-level auth (SPEC §8). @default { type: 'none' } */
  readonly auth?: RcpAuth;
  /** Authenticates a call to a tool whose effective auth is not `none`. Required when one is. */
  readonly verify?: VerifyHook<Principal>;
  /** Where the manifest is served (GET and HEAD). @default '/rcp/manifest' */
  readonly manifestPath?: string;
  /**
   * The manifest's `rcpVersion`. Effects and the OAuth hint (RCP 0.3) are informational and
   * allowed in every version, so they do not raise it. A lower version than the tools need is
   * refused by rcp-manifest's rules (`RCP_INVALID_MANIFEST` at the field, say
   * `/tools/0/pagination`).
   * Groups (RCP 0.4) are read in a `"0.4"` manifest only, so a lower version with `groups` or a
   * tool's `group` is refused (`RCP_INVALID_OPTIONS`), never published without them.
   * @default '0.4' when a tool declares `idempotency` or `stream`, has a `file` param or a multipart body, or the server has groups, else '0.3' when a tool declares `responseMediaTypes` or `pagination`, else '0.2' when a tool uses a form body or query auth, else '0.1'
   */
  readonly rcpVersion?: RcpVersion;
  /** `Cache-Control` of the manifest. @default 'no-cache' (always revalidated; a 304 costs no body) */
  readonly cacheControl?: string;
  /** `Last-Modified` of the manifest. @default the time the server was created */
  readonly lastModified?: Date;
  /** Add `Link: <manifestPath>; rel="describedby"` to every tool response. @default true */
  readonly describedBy?: boolean;
  /** The largest request body read, in bytes (a larger one is 413). @default 1_048_576 */
  readonly maxBodyBytes?: number;
  /**
   * The largest multipart body read (RCP 0.4 file uploads, a tool with `bodyEncoding:
   * "multipart"`), in bytes: all its files and fields together. Reading stops past it (413). A
   * tool whose every file param has a `maxBytes` reads at most their sum and `maxBodyBytes`, when
   * that is less.
   * @default 33_554_432 (32 MiB, the client's `maxUploadBytes`)
   */
  readonly maxUploadBytes?: number;
  /** Idempotency keys for the tools that declare `idempotency` (RCP 0.4): the store, lifetimes and whose a key is. */
  readonly idempotency?: RcpIdempotencyOptions<Principal>;
  /**
   * The JSONPath filter engine, needed only when a tool's `responseMappings` or `pagination` has a
   * filter selector (`[?…]`) and the runtime has no synchronous `require` (an edge runtime, a
   * browser, a bundle): `await loadFilterEngine()` from rcp-manifest, once, before creating the
   * server. Without it such a server is refused with `RCP_INVALID_MANIFEST` naming this option.
   * @default on Node, loaded synchronously on first need
   * @example
   * ```ts
   * import { loadFilterEngine } from 'rcp-manifest';
   * const server = createRcpServer({ tools, filterEngine: await loadFilterEngine() });
   * ```
   */
  readonly filterEngine?: RcpFilterEngine;
}

/**
 * An RCP server: a web-standard `fetch(Request) → Response` core that adapters mount.
 *
 * @example
 * ```ts
 * const response = await server.fetch(new Request('http://127.0.0.1/rcp/manifest'));
 * ```
 */
export interface RcpServer {
  /** The validated, deep-frozen manifest it serves (what `parseManifest` returned). */
  readonly manifest: RcpManifest;
  /** The path the manifest is served at. */
  readonly manifestPath: string;
  /** Answers a request for the manifest or a tool, or `undefined` when it is neither (a framework's `next()`). */
  handle(request: Request): Promise<Response | undefined>;
  /** `handle`, with a 404 problem for anything that is not the manifest or a tool. */
  fetch(request: Request): Promise<Response>;
}

const NO_AUTH: RcpAuth = Object.freeze({ type: 'none' });

function manifestTool<Principal>(tool: AnyServerTool<Principal>, expiresAfterSeconds: number): Record<string, unknown> {
  const out: Record<string, unknown> = { name: tool.name, description: tool.description, method: tool.method, url: tool.path };
  if (tool.params !== undefined) {
    // `bound` is the server's own check; the manifest says only who is meant to fill the param
    // (RCP 0.4's informational `filledBy`, SPEC §20.2), so describe and lint know the model is not.
    out['params'] = tool.params.map((param) => {
      const { bound, ...rest } = param;
      return bound === undefined ? rest : { ...rest, filledBy: 'client' };
    });
  }
  const keys = [
    'queryParams',
    'headers',
    'body',
    'bodyEncoding',
    'auth',
    'responseMappings',
    'effects',
    'responseMediaTypes',
    'pagination',
    'group',
    'stream',
  ] as const;
  for (const key of keys) {
    if (tool[key] !== undefined) out[key] = tool[key];
  }
  // The key lifetime is published: the tool's own, else the server's.
  if (tool.idempotency !== undefined) out['idempotency'] = { expiresAfterSeconds, ...tool.idempotency };
  return out;
}

/**
 * Creates the server side of RCP from tools declared beside their handlers. The manifest is
 * built from the definitions and validated by rcp-manifest's `parseManifest` here, so a bad
 * definition is an `RcpError` now (`RCP_INVALID_MANIFEST` with pointers, or
 * `RCP_INVALID_OPTIONS`), never a manifest served wrong. Each call then runs, in order:
 *
 * 1. **auth** — `verify(request)` for a tool whose auth is not `none` (no principal: 401);
 * 2. **arguments** — read back from where the template puts them and checked with the client's
 *    own rule (`compileArgumentCheck`): a failure is a 400 `application/problem+json` naming
 *    each param by JSON Pointer;
 * 3. **bound params** — each param declared `bound: (principal) => value` must equal what
 *    arrived (403 otherwise);
 * 4. the **handler**, with the validated values only.
 *
 * Tool groups (RCP 0.4): `groups` declares them, a tool names its own in `group`, and the
 * manifest becomes `"0.4"`. In `tools: (tool) => [...]`, a group that is not declared is a type
 * error; anywhere, it is `RCP_INVALID_MANIFEST` at `/tools/N/group`, naming the tool, when the
 * server is created. `Principal` and `GroupName` are inferred from `verify` and `groups`; a
 * principal given by hand (`createRcpServer<Principal>`) leaves `GroupName` at `never` (no
 * group), so a server with groups then names them too: `createRcpServer<Principal, 'invoices'>`.
 *
 * @example
 * ```ts
 * import { bearerAuth, createRcpServer } from 'rcp-server';
 *
 * const server = createRcpServer({
 *   auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
 *   verify: bearerAuth([{ token: process.env.API_TOKEN!, principal: { userId: 'u-1' } }]),
 *   // `tool` is defineTool typed with verify's principal; values are typed from the params.
 *   tools: (tool) => [
 *     tool({
 *       name: 'get_profile',
 *       description: "Fetches the caller's profile.",
 *       method: 'GET',
 *       path: '/api/users/{{userId}}',
 *       params: [{ name: 'userId', bound: (principal) => principal.userId }],
 *       handler: ({ values }) => ({ id: values.userId }),
 *     }),
 *   ],
 * });
 * export default { fetch: server.fetch }; // Cloudflare Workers, Bun, Deno …
 * ```
 *
 * @example
 * ```ts
 * const billing = createRcpServer({
 *   groups: [{ name: 'invoices', description: 'Invoices and their payments.' }],
 *   tools: (tool) => [
 *     tool({ name: 'list_invoices', description: 'Lists invoices.', method: 'GET', path: '/invoices', group: 'invoices', handler: () => [] }),
 *     // group: 'refunds' would not compile: it is not one of the groups
 *   ],
 * });
 * billing.manifest.rcpVersion; // '0.4'
 * ```
 */
export function createRcpServer<Principal = unknown, GroupName extends string = never>(options: RcpServerOptions<Principal, GroupName>): RcpServer {
  const manifestPath = options.manifestPath ?? '/rcp/manifest';
  if (!manifestPath.startsWith('/') || manifestPath.startsWith('//')) {
    throw new RcpError('RCP_INVALID_OPTIONS', '"manifestPath" must be a path starting with one "/"');
  }
  const idempotencyOptions = checkIdempotencyOptions(options.idempotency);
  const tools = toolList<Principal, GroupName>(options.tools);
  const manifest = buildManifest(options, tools, idempotencyOptions.expiresAfterSeconds);
  const routes = compileRoutes(options, tools, manifest, idempotencyOptions.expiresAfterSeconds);
  const manifestResponse = serveManifest(manifest, {
    cacheControl: options.cacheControl ?? 'no-cache',
    lastModified: options.lastModified ?? new Date(),
  });
  const context: CallContext<Principal> = {
    verify: options.verify,
    describedBy: options.describedBy === false ? undefined : `<${manifestPath}>; rel="describedby"`,
    idempotency: routes.some((route) => route.idempotent !== undefined) ? idempotencyContext(options.idempotency, idempotencyOptions) : undefined,
  };

  const handle = async (request: Request): Promise<Response | undefined> => {
    const pathname = new URL(request.url).pathname;
    if (pathname === manifestPath) return manifestResponse(request);
    for (const route of routes) {
      if (route.method !== request.method) continue;
      const pathValues = route.matchPath(pathname);
      if (pathValues !== undefined) return answerCall(context, route, request, pathValues);
    }
    return undefined;
  };

  return Object.freeze({
    manifest,
    manifestPath,
    handle,
    fetch: async (request: Request) => (await handle(request)) ?? problemResponse(404, 'RCP_UNKNOWN_TOOL', 'Nothing is served at this path'),
  });
}

/** The `tools` option as a list: the list given, or what the function given makes with `defineTool`. */
function toolList<Principal, GroupName extends string>(tools: RcpServerOptions<Principal, GroupName>['tools']): readonly AnyServerTool<Principal>[] {
  const list = typeof tools === 'function' ? tools(defineTool) : tools;
  if (!Array.isArray(list)) throw new RcpError('RCP_INVALID_OPTIONS', '"tools" must be a list of tools, or a function returning one');
  return list;
}

/**
 * The manifest built from the definitions (its version the lowest the tools need unless given),
 * validated by `parseManifest`: rcp-manifest's rules are the only check of `groups` and `group`.
 */
function buildManifest<Principal, GroupName extends string>(
  options: RcpServerOptions<Principal, GroupName>,
  tools: readonly AnyServerTool<Principal>[],
  expiresAfterSeconds: number,
): RcpManifest {
  const serverAuth = options.auth ?? NO_AUTH;
  const usesWire02 = serverAuth.type === 'query' || tools.some((tool) => tool.bodyEncoding === 'form' || tool.auth?.type === 'query');
  const usesResults03 = tools.some((tool) => tool.responseMediaTypes !== undefined || tool.pagination !== undefined);
  // An empty list declares no group: such a server publishes what it would without the option.
  const declaresGroups = options.groups !== undefined && !(Array.isArray(options.groups) && options.groups.length === 0);
  const grouped = declaresGroups || tools.some((tool) => tool.group !== undefined);
  const uses04 =
    grouped ||
    tools.some(
      (tool) =>
        tool.idempotency !== undefined || tool.stream !== undefined || tool.bodyEncoding === 'multipart' || tool.params?.some((param) => param.type === 'file'),
    );
  const manifest = parseManifest(
    {
      rcpVersion: options.rcpVersion ?? (uses04 ? '0.4' : usesResults03 ? '0.3' : usesWire02 ? '0.2' : '0.1'),
      ...(options.auth !== undefined && { auth: options.auth }),
      ...(declaresGroups && { groups: options.groups }),
      tools: tools.map((tool) => manifestTool(tool, expiresAfterSeconds)),
    },
    options.filterEngine === undefined ? undefined : { filterEngine: options.filterEngine },
  );
  if (grouped) refuseDroppedGroups(manifest, declaresGroups, tools);
  refuseDroppedStreams(manifest, tools);
  return manifest;
}

/**
 * A version that has no groups (SPEC §20.3, M27.8) makes rcp-manifest ignore them, with a
 * warning: a client reads such a manifest without them. A server that declared groups never
 * publishes it so: `RCP_INVALID_OPTIONS`, naming the first tool whose group would be lost.
 */
function refuseDroppedGroups<Principal>(manifest: RcpManifest, declaresGroups: boolean, tools: readonly AnyServerTool<Principal>[]): void {
  const lost = tools.findIndex((tool, index) => tool.group !== undefined && manifest.tools[index]!.group === undefined);
  if (lost === -1 && !(declaresGroups && manifest.groups === undefined)) return;
  const what = lost === -1 ? '"groups"' : `tool "${manifest.tools[lost]!.name}"'s "group"`;
  throw new RcpError(
    'RCP_INVALID_OPTIONS',
    `rcpVersion "${manifest.rcpVersion}" has no tool groups (RCP 0.4), so ${what} would not be published: leave "rcpVersion" out, or give "0.4"`,
  );
}

/**
 * A version before RCP 0.4 has no streams (SPEC §20.6, M27.9): rcp-manifest drops a tool's
 * `stream` with a warning and a client reads the answer as one body. A server that declared one
 * never publishes it so: `RCP_INVALID_OPTIONS`, naming the tool.
 */
function refuseDroppedStreams<Principal>(manifest: RcpManifest, tools: readonly AnyServerTool<Principal>[]): void {
  const lost = tools.findIndex((tool, index) => tool.stream !== undefined && manifest.tools[index]!.stream === undefined);
  if (lost === -1) return;
  throw new RcpError(
    'RCP_INVALID_OPTIONS',
    `rcpVersion "${manifest.rcpVersion}" has no streamed answers (RCP 0.4), so tool "${manifest.tools[lost]!.name}"'s "stream" would not be published: leave "rcpVersion" out, or give "0.4"`,
  );
}

/** A whole number of seconds, at least one, or `RCP_INVALID_OPTIONS` naming the option. */
function seconds(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new RcpError('RCP_INVALID_OPTIONS', `"idempotency.${name}" must be a whole number of seconds ≥ 1`);
  return value;
}

/** The idempotency options' lifetimes, checked at creation. */
function checkIdempotencyOptions<Principal>(options: RcpIdempotencyOptions<Principal> | undefined): { expiresAfterSeconds: number; inFlightSeconds: number } {
  if (options?.subject !== undefined && typeof options.subject !== 'function') {
    throw new RcpError('RCP_INVALID_OPTIONS', '"idempotency.subject" must be a function of the principal');
  }
  const store = options?.store;
  if (store !== undefined && (typeof store.begin !== 'function' || typeof store.complete !== 'function' || typeof store.release !== 'function')) {
    throw new RcpError('RCP_INVALID_OPTIONS', '"idempotency.store" must have begin, complete and release');
  }
  return {
    expiresAfterSeconds: seconds(options?.expiresAfterSeconds, 86_400, 'expiresAfterSeconds'),
    inFlightSeconds: seconds(options?.inFlightSeconds, 300, 'inFlightSeconds'),
  };
}

/** What idempotent calls share: the store (this server's own in-memory one unless given) and whose a key is. */
function idempotencyContext<Principal>(
  options: RcpIdempotencyOptions<Principal> | undefined,
  checked: { inFlightSeconds: number },
): IdempotencyContext<Principal> {
  return {
    store: options?.store ?? createMemoryIdempotencyStore(),
    inFlightTtl: checked.inFlightSeconds * 1000,
    subject: options?.subject ?? canonicalJson,
  };
}

/** A value as JSON with object keys sorted, so that one principal always reads the same; `""` for none. */
function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  return JSON.stringify(value, (_key, entry: unknown) =>
    typeof entry === 'object' && entry !== null && !Array.isArray(entry)
      ? Object.fromEntries(Object.entries(entry).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : entry,
  );
}

/** One route per definition, beside its validated manifest tool; a missing handler or `verify` is `RCP_INVALID_OPTIONS`. */
function compileRoutes<Principal, GroupName extends string>(
  options: RcpServerOptions<Principal, GroupName>,
  tools: readonly AnyServerTool<Principal>[],
  manifest: RcpManifest,
  expiresAfterSeconds: number,
): CompiledRoute<Principal>[] {
  const serverAuth = options.auth ?? NO_AUTH;
  return tools.map((definition, index) => {
    if (typeof definition.handler !== 'function') {
      throw new RcpError('RCP_INVALID_OPTIONS', `Tool "${definition.name}" has no handler`);
    }
    const tool: RcpTool = manifest.tools[index]!;
    const needsAuth = (tool.auth ?? serverAuth).type !== 'none';
    if (needsAuth && options.verify === undefined) {
      throw new RcpError('RCP_INVALID_OPTIONS', `Tool "${tool.name}" needs a credential, so the server needs a "verify" hook`);
    }
    return compileRoute(definition, tool, {
      needsAuth,
      maxBodyBytes: options.maxBodyBytes ?? 1_048_576,
      maxUploadBytes: options.maxUploadBytes ?? 33_554_432,
      expiresAfterSeconds,
    });
  });
}
