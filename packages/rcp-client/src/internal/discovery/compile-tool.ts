/**
 * One manifest tool compiled, once, at discovery: the tool object the application and the model
 * see (name, description, the model-facing `inputSchema`, params, effects), and the internals
 * `execute` reads (`tool-registry.ts`). A large manifest's tools are mostly never called: what a
 * call alone needs (the request template, the argument check) is compiled on the tool's first
 * call, and what tools share (auth, type tests, empty lists, effects) is shared.
 */
import type { StreamPlan } from '../respond/stream-plan';
import { operationOf } from '../execution/operation';
import { compileRequest, parseTemplate, type RequestTemplate } from 'rcp-template';
import {
  compileResponseMappings,
  hasType,
  toolEffects,
  type ParseManifestOptions,
  type RcpAuth,
  type RcpParam,
  type RcpTool,
  type RcpToolEffects,
} from 'rcp-manifest';
import type { RcpResolverInfo } from '../../client-options';
import type { RcpDiscoveryWarningCause } from '../../client-types';
import type { RcpClientTool, RcpClientToolParam, RcpInputSchema, RcpInputSchemaProperty, RcpToolGroup } from '../../client-tool';
import type { ResolvedClientOptions } from '../options/resolve-options';
import type { Transport } from '../send/transport-types';
import type { FileField, UploadPlan } from '../build/multipart';
import { checkUnboundParam, type BindingRules } from './check-binding';
import { modelSchemaOf } from './model-schema';
import { attachCompiled, type CompiledAuth, type CompiledPagination, type CompiledTool, type QueryBinding, type ResolvedParam } from './tool-registry';

/** The per-manifest context shared by every tool of one discovery. */
export interface ToolCompilationContext {
  owner: object;
  manifestUrl: string;
  manifestOrigin: string;
  serverAuth: RcpAuth;
  options: ResolvedClientOptions;
  /** Trust, `allowOrigin` and private-network decisions for a tool origin (memoised per discovery). */
  decide(origin: string): { trusted: boolean; allowed: boolean; refusal: string | undefined };
  isAllowed(url: string | URL): boolean;
  isRedirectAllowed(target: URL): boolean;
  /** Header auth compiled once per auth object for the tools that do not shadow its header (filled here). */
  readonly sharedAuth?: Map<RcpAuth, CompiledAuth>;
  /** The rules for params no resolver fills. */
  readonly bindings: BindingRules;
  /** `origin + "/"` per tool origin, one string each (filled here). */
  readonly urlPrefixes: Map<string, string>;
  /** The transport that checks each connection's address for this manifest's tools (Node, platform transport only). */
  readonly transport?: Transport;
  /** What `prepareManifest` loaded for this manifest (the JSONPath filter engine, when a path has a filter). */
  readonly prepared?: Pick<ParseManifestOptions, 'filterEngine'>;
  /** The manifest's groups by name (RCP 0.4), one frozen object each, shared by their tools. */
  readonly groups?: ReadonlyMap<string, RcpToolGroup>;
}

/** A compiled tool and its discovery warnings (pointers into the manifest). */
export interface ToolCompilation {
  tool: RcpClientTool;
  warnings: Warning[];
}

type Warning = { path: string; message: string; cause: RcpDiscoveryWarningCause };

const NO_AUTH: RcpAuth = Object.freeze({ type: 'none' });
/** The (frozen, shared) empty lists. */
const NO_NAMES: readonly string[] = Object.freeze([]);
const NO_RESOLVED: readonly ResolvedParam[] = Object.freeze([]);
const NO_BINDINGS: readonly QueryBinding[] = Object.freeze([]);
const NO_PARAMS: readonly RcpParam[] = Object.freeze([]);

/** Compiles one manifest tool (see the file's opening comment). */
export function compileTool(source: RcpTool, index: number, context: ToolCompilationContext): ToolCompilation {
  const { options } = context;
  const toolPath = `/tools/${index}`;
  const warnings: Warning[] = [];
  const auth: RcpAuth = source.auth ?? context.serverAuth ?? NO_AUTH;
  // The URL alone, compiled for its origin and path tokens; the whole request on the first call.
  const located = compileRequest({ method: source.method, url: source.url } as RequestTemplate, { baseUrl: context.manifestUrl });
  const url = source.url.startsWith('/') ? context.manifestOrigin + source.url : source.url;
  const origin = located.origin ?? new URL(url).origin;
  const { params, fillable, inputSchema } = paramsOf(source, located.pathTokens, context, toolPath, warnings);
  const mappings =
    source.responseMappings === undefined || Object.keys(source.responseMappings).length === 0
      ? undefined
      : compileResponseMappings(source.responseMappings, context.prepared);
  const pagination = paginationOf(source, params, context.prepared);
  if (pagination?.resolved === true) {
    warnings.push({
      path: `${toolPath}/pagination/param`,
      message: `Tool "${source.name}" takes its next page's cursor in "${pagination.param}", which a resolver fills: the model cannot ask for the next page`,
      cause: 'resolved-cursor',
    });
  }
  const resolvedNames = params.some((param) => param.resolved) ? Object.freeze(params.filter((param) => param.resolved).map((param) => param.name)) : NO_NAMES;
  // Frozen once its compiled internals are attached (below).
  const tool: RcpClientTool = {
    name: source.name,
    description: source.description,
    method: source.method,
    url,
    origin,
    manifestUrl: context.manifestUrl,
    inputSchema,
    ...(mappings !== undefined && { outputSchema: mappings.outputSchema }),
    resolvedParams: resolvedNames,
    params,
    auth,
    effects: sharedEffects(source),
    ...(source.effects !== undefined && { declaredEffects: source.effects }),
    ...(source.group !== undefined && context.groups?.has(source.group) && { group: context.groups.get(source.group)! }),
    ...(source.operation !== undefined && { longRunning: true as const }),
    ...(source.stream !== undefined && { stream: source.stream }),
  };
  const resolved = resolvedOf(tool, options);
  const templateHeaders = source.headers === undefined ? NO_NAMES : Object.keys(source.headers);
  const compiledAuth = authOf(auth, templateHeaders, context);
  const untrustedMessage = trustOf(tool, compiledAuth !== undefined, resolved.length > 0, context, toolPath, warnings);
  const compiled: CompiledTool = {
    owner: context.owner,
    source,
    name: source.name,
    manifestUrl: context.manifestUrl,
    fillable,
    argumentCheck: undefined,
    resolved,
    auth: compiledAuth,
    compiledRequest: undefined,
    urlPrefix: prefixOf(origin, context.urlPrefixes),
    bodyEncoding: source.bodyEncoding ?? 'json',
    upload: uploadOf(source, options),
    contentTypeHeader: source.body === undefined ? undefined : templateHeaders.find((name) => name.toLowerCase() === 'content-type'),
    untrustedMessage,
    isAllowed: options.allowOrigin === undefined ? undefined : context.isAllowed,
    isRedirectAllowed: context.isRedirectAllowed,
    transport: context.transport,
    mappings,
    mediaRanges: mediaRangesOf(source, options.mediaTypes),
    maxMediaBytes: options.maxMediaBytes,
    pagination,
    stream: streamOf(source, context.prepared),
    operation: operationOf(source, context.prepared),
    queryBindings: queryBindingsOf(source, params),
    authQueryKey: auth.type === 'query' ? auth.name : undefined,
    marksUntrustedText: options.markUntrustedText,
  };
  attachCompiled(tool, compiled);
  Object.freeze(tool);
  return { tool, warnings };
}

/**
 * A multipart tool's upload plan (RCP 0.4): each top-level body field that is exactly one file
 * param's token, with the param's limits; the client's resolver and `maxUploadBytes`.
 */
function uploadOf(source: RcpTool, options: ResolvedClientOptions): UploadPlan | undefined {
  if (source.bodyEncoding !== 'multipart' || source.body === undefined || source.body === null || typeof source.body !== 'object') return undefined;
  const fields: FileField[] = [];
  const body = source.body as Record<string, unknown>;
  for (const field of Object.keys(body)) {
    const value = body[field];
    if (typeof value !== 'string') continue;
    const single = parseTemplate(value).single;
    const param = source.params?.find((candidate) => candidate.name === single && candidate.type === 'file');
    if (param !== undefined) fields.push(Object.freeze({ field, param: param.name, mediaTypes: param.mediaTypes, maxBytes: param.maxBytes }));
  }
  return Object.freeze({ fields: Object.freeze(fields), resolver: options.files, maxUploadBytes: options.maxUploadBytes });
}

/**
 * The tool's params as the application sees them, the ones the model fills as the argument
 * check takes them, and the model-facing `inputSchema`. The rule of rcp-manifest's `toolParams`
 * (type defaults to string, path params are required), with the path tokens compiled here.
 */
function paramsOf(source: RcpTool, pathTokens: readonly string[], context: ToolCompilationContext, toolPath: string, warnings: Warning[]) {
  const properties: Record<string, RcpInputSchemaProperty> = {};
  const fillable: RcpParam[] = [];
  const params: RcpClientToolParam[] = (source.params ?? []).map((declared, paramIndex) => {
    const resolved = Object.hasOwn(context.options.resolvers, declared.name);
    const path = `${toolPath}/params/${paramIndex}`;
    const identityWarning = resolved ? undefined : checkUnboundParam({ tool: source.name, param: declared.name, path }, context.bindings);
    if (identityWarning !== undefined) warnings.push({ path, message: identityWarning, cause: 'unbound-identity' });
    const param: RcpClientToolParam = Object.freeze({
      name: declared.name,
      type: declared.type ?? 'string',
      required: declared.required === true || pathTokens.includes(declared.name),
      description: declared.description ?? '',
      resolved,
      looksLikeIdentity: identityWarning !== undefined,
    });
    if (!param.resolved) {
      properties[param.name] = modelSchemaOf(declared, param.type, param.description);
      fillable.push(param.required === (declared.required === true) ? declared : { ...declared, required: param.required });
    }
    return param;
  });
  const required = fillable.filter((param) => param.required === true).map((param) => param.name);
  const inputSchema: RcpInputSchema = Object.freeze({
    type: 'object',
    properties: Object.freeze(properties),
    required: required.length === 0 ? NO_NAMES : Object.freeze(required),
    additionalProperties: false,
  });
  return { params: Object.freeze(params), fillable: fillable.length === 0 ? NO_PARAMS : fillable, inputSchema };
}

/** The resolver-bound params of a tool, ready to be filled. */
function resolvedOf(tool: RcpClientTool, options: ResolvedClientOptions): readonly ResolvedParam[] {
  if (tool.resolvedParams.length === 0) return NO_RESOLVED;
  return tool.params
    .filter((param) => param.resolved)
    .map((param) => ({
      name: param.name,
      type: param.type,
      // A resolver's value against its param's type: rcp-manifest's type rule.
      check: (value: unknown) => hasType(param.type, value),
      resolver: options.resolvers[param.name]!,
      info: Object.freeze({ tool, param: param.name }) satisfies RcpResolverInfo,
    }));
}

/** Header or query auth, compiled once per auth object for the tools that do not shadow its header. */
function authOf(auth: RcpAuth, templateHeaders: readonly string[], context: ToolCompilationContext): CompiledAuth | undefined {
  const credentials = context.options.credentials;
  if (auth.type === 'query') return { auth, prefix: '', shadowedHeaders: NO_NAMES, credentials };
  if (auth.type !== 'header') return undefined;
  const lower = auth.name.toLowerCase();
  const shadowed = templateHeaders.some((name) => name.toLowerCase() === lower);
  let compiledAuth = shadowed ? undefined : context.sharedAuth?.get(auth);
  if (compiledAuth === undefined) {
    compiledAuth = {
      auth,
      prefix: auth.scheme ? `${auth.scheme} ` : '',
      shadowedHeaders: shadowed ? templateHeaders.filter((name) => name.toLowerCase() === lower) : NO_NAMES,
      credentials,
    };
    if (!shadowed) context.sharedAuth?.set(auth, compiledAuth);
  }
  return compiledAuth;
}

/**
 * Why the tool may not be called (the private-network boundary) or may not carry its secrets (its
 * origin is not trusted), with a discovery warning; an `allowOrigin` refusal only warns.
 */
function trustOf(
  tool: RcpClientTool,
  sendsCredential: boolean,
  sendsResolved: boolean,
  context: ToolCompilationContext,
  toolPath: string,
  warnings: Warning[],
): string | undefined {
  const { trusted, allowed, refusal } = context.decide(tool.origin);
  let untrustedMessage: string | undefined;
  let cause: RcpDiscoveryWarningCause = 'untrusted-origin';
  if (refusal !== undefined) {
    // The private-network boundary: checked before anything else, secrets or not.
    untrustedMessage = `Tool "${tool.name}": ${refusal}`;
    cause = 'address-refused';
  } else if ((sendsCredential || sendsResolved) && !trusted) {
    const what = [sendsCredential && 'a credential', sendsResolved && 'resolver values'].filter(Boolean).join(' and ');
    untrustedMessage =
      `Tool "${tool.name}" would send ${what} to ${tool.origin}, which is not a trusted origin ` +
      `(add it to the client's "trustedOrigins" option if it should be)`;
  } else if (!allowed) {
    warnings.push({
      path: toolPath,
      message: `Tool "${tool.name}" calls ${tool.origin}, which the client's "allowOrigin" policy refuses`,
      cause: 'origin-policy',
    });
  }
  if (untrustedMessage !== undefined)
    warnings.push({ path: toolPath, message: `${untrustedMessage}; executing it will fail with RCP_ORIGIN_NOT_ALLOWED`, cause });
  return untrustedMessage;
}

/** The query entries of a tool whose value is exactly one declared param's token (`page={{page}}`). */
function queryBindingsOf(source: RcpTool, params: readonly RcpClientToolParam[]): readonly QueryBinding[] {
  const entries: [string, string][] = [];
  const query = source.url.indexOf('?');
  if (query !== -1) {
    for (const entry of source.url.slice(query + 1).split('&')) {
      const equals = entry.indexOf('=');
      if (equals === -1) continue;
      let key = entry.slice(0, equals);
      try {
        key = decodeURIComponent(key);
      } catch {
        continue;
      }
      entries.push([key, entry.slice(equals + 1)]);
    }
  }
  for (const [key, value] of Object.entries(source.queryParams ?? {})) entries.push([key, value]);
  const bindings: QueryBinding[] = [];
  for (const [key, value] of entries) {
    const name = parseTemplate(value).single;
    const param = name === undefined ? undefined : params.find((entry) => entry.name === name);
    if (param === undefined) continue;
    const declared = source.params?.find((entry) => entry.name === param.name);
    bindings.push(Object.freeze({ key, param: param.name, type: param.type, itemType: declared?.items?.type, resolved: param.resolved }));
  }
  return bindings.length === 0 ? NO_BINDINGS : Object.freeze(bindings);
}

/** The tool's declared pagination (RCP 0.3), compiled once. */
function paginationOf(
  source: RcpTool,
  params: readonly RcpClientToolParam[],
  prepared: Pick<ParseManifestOptions, 'filterEngine'> | undefined,
): CompiledPagination | undefined {
  const declared = source.pagination;
  if (declared === undefined) return undefined;
  const param = params.find((entry) => entry.name === declared.param)!;
  const paths = compileResponseMappings(
    declared.hasMore === undefined ? { nextCursor: declared.nextCursor } : { nextCursor: declared.nextCursor, hasMore: declared.hasMore },
    prepared,
  );
  return { paths, param: param.name, type: param.type, resolved: param.resolved };
}

/** The tool's declared stream (RCP 0.4), its field compiled once (as the mapping `{ value: field }`). */
function streamOf(source: RcpTool, prepared: Pick<ParseManifestOptions, 'filterEngine'> | undefined): StreamPlan | undefined {
  const declared = source.stream;
  if (declared === undefined) return undefined;
  return Object.freeze({
    format: declared.format,
    collect: declared.collect,
    field: declared.field === undefined ? undefined : compileResponseMappings({ value: declared.field }, prepared),
    maxEvents: declared.maxEvents,
    tool: source.name,
  });
}

/** The client's media types and the tool's own, lower-cased, without repeats. */
function mediaRangesOf(source: RcpTool, client: readonly string[]): readonly string[] {
  if (source.responseMediaTypes === undefined) return client;
  return Object.freeze([...new Set([...client, ...source.responseMediaTypes.map((type) => type.toLowerCase())])]);
}

/** The 16 possible effects (four booleans), frozen, by their bits: every tool with the same effects shares one object. */
const EFFECTS: readonly RcpToolEffects[] = Object.freeze(
  Array.from({ length: 16 }, (_, bits) =>
    Object.freeze({ readOnly: (bits & 8) !== 0, destructive: (bits & 4) !== 0, idempotent: (bits & 2) !== 0, openWorld: (bits & 1) !== 0 }),
  ),
);
function sharedEffects(source: RcpTool): RcpToolEffects {
  const effects = toolEffects(source);
  return EFFECTS[(+effects.readOnly << 3) | (+effects.destructive << 2) | (+effects.idempotent << 1) | +effects.openWorld]!;
}

/** `origin + "/"`, one string per origin of a discovery. */
function prefixOf(origin: string, prefixes: Map<string, string>): string {
  let prefix = prefixes.get(origin);
  if (prefix === undefined) prefixes.set(origin, (prefix = `${origin}/`));
  return prefix;
}
