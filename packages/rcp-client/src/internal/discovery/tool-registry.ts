import type { StreamPlan } from '../respond/stream-plan';
import type { OperationPlan } from '../execution/operation';
import { RcpError } from 'rcp-errors';
import { compileArgumentCheck, type CompiledResponseMappings, type RcpParam, type RcpParamType, type RcpTool } from 'rcp-manifest';
import { compileRequest, type CompiledRequest, type QueryStyle, type RequestTemplate } from 'rcp-template';
import { RcpInvalidArgumentsError } from '../../invalid-arguments-error';
import type { RcpCredentialsProvider, RcpHeaderAuth, RcpQueryAuth, RcpResolver, RcpResolverInfo } from '../../client-options';
import type { RcpClientTool } from '../../client-tool';
import type { Transport } from '../send/transport-types';
import type { UploadPlan } from '../build/multipart';

/** A resolver-bound param of one tool, ready to be filled. */
export interface ResolvedParam {
  name: string;
  type: RcpParamType;
  /** Whether a resolver's value has the param's type. */
  check: (value: unknown) => boolean;
  resolver: RcpResolver;
  /** The frozen `{ tool, param }` passed to the resolver (built once). */
  info: RcpResolverInfo;
}

/** Header auth of one tool, ready to be applied. */
export interface CompiledAuth {
  auth: RcpHeaderAuth | RcpQueryAuth;
  /** `"Bearer "` or `''`. */
  prefix: string;
  /** The tool's own template header keys that name the same header (dropped: the credential wins). */
  shadowedHeaders: readonly string[];
  credentials: RcpCredentialsProvider | undefined;
}

/** Everything `execute` needs for one tool, computed once at discovery. */
export interface CompiledTool {
  /** The client that discovered the tool; other clients refuse it. */
  owner: object;
  /** The manifest tool it was compiled from (the validated, frozen object). */
  source: RcpTool;
  /** The tool's name (what its errors say). */
  name: string;
  /** The URL relative ones are resolved against (the manifest's). */
  manifestUrl: string;
  /** The params the model fills, as the argument check takes them (path params required). */
  fillable: readonly RcpParam[];
  /** The argument check, compiled on first use ({@link checkArguments}). */
  argumentCheck: ((args: unknown) => Record<string, unknown>) | undefined;
  resolved: readonly ResolvedParam[];
  auth: CompiledAuth | undefined;
  /** The request template, compiled on first use ({@link requestOf}). */
  compiledRequest: CompiledRequest | undefined;
  /** `origin + "/"`: every rendered URL starts with it. */
  urlPrefix: string;
  /** The key of the tool's own Content-Type header template, if it has one. */
  contentTypeHeader: string | undefined;
  /**
   * Why this tool may not be called at all (the private-network boundary) or may not carry its
   * secrets (origin not trusted): checked before any resolver or credential is asked for.
   */
  untrustedMessage: string | undefined;
  /** Per-call `allowOrigin` check on the rendered URL (undefined when no policy was given). */
  isAllowed: ((url: string) => boolean) | undefined;
  isRedirectAllowed: (target: URL) => boolean;
  /** The transport that checks each connection's address (Node, platform transport only). */
  transport: Transport | undefined;
  mappings: CompiledResponseMappings | undefined;
  /** How the body is sent: JSON, (RCP 0.2) application/x-www-form-urlencoded, or (RCP 0.4) multipart/form-data. */
  bodyEncoding: 'json' | 'form' | 'multipart';
  /** A multipart body's file fields, the client's file resolver and upload limit (RCP 0.4); undefined for any other body. */
  upload: UploadPlan | undefined;
  /** Media types passed on as media parts: the client's `mediaTypes` and the tool's own (lower-cased). */
  mediaRanges: readonly string[];
  /** Largest media part passed on. */
  maxMediaBytes: number;
  /** The tool's declared pagination (RCP 0.3), compiled. */
  pagination: CompiledPagination | undefined;
  /** The tool's streamed answer (RCP 0.4), compiled: how its events are read and collected. */
  stream: StreamPlan | undefined;
  /** The tool's long-running operation (RCP 0.4), compiled: how a 202 is followed. */
  operation: OperationPlan | undefined;
  /** Query keys whose value is exactly one param's token (`page={{page}}`), for `Link: rel="next"`. */
  queryBindings: readonly QueryBinding[];
  /** The query key of a query credential (never compared, never shown). */
  authQueryKey: string | undefined;
  /** Whether what the model reads of a result is marked as the API's (`markUntrustedText`). */
  marksUntrustedText: boolean;
}

/** A declared pagination, ready to read a response. */
export interface CompiledPagination {
  /** `nextCursor` and (when given) `hasMore`, compiled as mappings of those names. */
  paths: CompiledResponseMappings;
  /** The param that takes the cursor, and its type. */
  param: string;
  type: RcpParamType;
  /** True when a resolver fills it: the model cannot ask for the next page. */
  resolved: boolean;
}

/** One query key whose value is one whole token. */
export interface QueryBinding {
  readonly key: string;
  readonly param: string;
  readonly type: RcpParamType;
  /** An array param's element type. */
  readonly itemType: RcpParamType | undefined;
  /** True when a resolver fills it (its value is compared, never given to the model). */
  readonly resolved: boolean;
}

/**
 * Where a tool object returned by `discover` keeps its compiled internals: a non-enumerable
 * property under a symbol no one else has, so a copy (`{ ...tool }`, JSON) carries none and the
 * state lives in the instance, not in a module-level table.
 */
const COMPILED: unique symbol = Symbol('rcp.compiledTool');

/** Attaches the compiled internals to a tool object `discover` is about to freeze. */
export function attachCompiled(tool: RcpClientTool, compiled: CompiledTool): void {
  Object.defineProperty(tool, COMPILED, { value: compiled, enumerable: false, writable: false, configurable: false });
}

/** The compiled internals of `tool`, or undefined when it is not a tool returned by `discover`. */
export function findCompiledTool(tool: unknown): CompiledTool | undefined {
  if (typeof tool !== 'object' || tool === null || !Object.hasOwn(tool, COMPILED)) return undefined;
  return (tool as { [COMPILED]: CompiledTool })[COMPILED];
}

/**
 * The compiled internals of `tool`, or `RCP_INVALID_TOOL` when it is not an object returned by
 * `discover` (a copy, a hand-made look-alike) or, with `owner`, was discovered by another client.
 */
export function compiledToolOf(tool: unknown, owner?: object): CompiledTool {
  const compiled = findCompiledTool(tool);
  if (compiled === undefined && (tool === undefined || tool === null)) {
    throw new RcpError(
      'RCP_INVALID_TOOL',
      `No tool was given (got ${tool}): a look-up found nothing? discovery.tool(name) names the available tools when a name is wrong`,
    );
  }
  if (compiled === undefined) {
    throw new RcpError('RCP_INVALID_TOOL', 'Not a tool returned by client.discover(): pass the tool object itself, not a copy');
  }
  if (owner !== undefined && compiled.owner !== owner) {
    throw new RcpError('RCP_INVALID_TOOL', 'This tool was discovered by another client: execute it with that client');
  }
  return compiled;
}

/**
 * The tool's request template, compiled on its first call (most tools of a large manifest are
 * never called; discovery keeps only what it decides on). The validated tool is itself the
 * template (its method, url, queryParams, headers and body), checked when the manifest was.
 */
export function requestOf(compiled: CompiledTool): CompiledRequest {
  return (compiled.compiledRequest ??= compileRequest(compiled.source as RequestTemplate, {
    baseUrl: compiled.manifestUrl,
    queryStyles: queryStylesOf(compiled.source.params),
  }));
}

/** The RCP 0.4 query styles the tool's params declare (`repeat`, the default, left out), or undefined when none does. */
function queryStylesOf(params: RcpTool['params']): Record<string, QueryStyle> | undefined {
  let styles: Record<string, QueryStyle> | undefined;
  for (const param of params ?? []) {
    if (param.queryStyle !== undefined && param.queryStyle !== 'repeat') (styles ??= {})[param.name] = param.queryStyle;
  }
  return styles;
}

/**
 * Validates a call's arguments and returns a null-prototype copy holding only declared,
 * non-null values; `RCP_INVALID_ARGUMENTS` listing every problem (the JSON parse error, when
 * there is one, kept as `cause`). rcp-manifest's check, compiled on the tool's first call.
 */
export function checkArguments(compiled: CompiledTool, args: unknown): Record<string, unknown> {
  const check = (compiled.argumentCheck ??= throwingCheck(compiled.name, compiled.fillable));
  return check(args);
}

function throwingCheck(toolName: string, params: readonly RcpParam[]): (args: unknown) => Record<string, unknown> {
  const check = compileArgumentCheck(params);
  return (args) => {
    const result = check(args);
    if (result.ok) return result.values;
    throw new RcpInvalidArgumentsError(toolName, result.issues, result.cause === undefined ? {} : { cause: result.cause });
  };
}
