import { compileArgumentCheck, compileResponseMappings, hasType, toolEffects, type RcpAuth, type RcpParam, type RcpParamType, type RcpTool, type RcpValue } from 'rcp-manifest';
import { compileRequest, parseTemplate, type RequestTemplate } from 'rcp-template';
import type { RcpResolverInfo } from '../../client-options';
import type { Transport } from '../send/transport-types';
import type { RcpClientTool, RcpClientToolParam, RcpInputSchema, RcpInputSchemaProperty } from '../../client-tool';
import { RcpInvalidArgumentsError } from '../../invalid-arguments-error';
import { checkUnboundParam, type BindingRules } from './check-binding';
import type { ResolvedClientOptions } from '../options/resolve-options';
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
  /** The transport that checks each connection's address for this manifest's tools (Node, platform transport only). */
  readonly transport?: Transport;
}

/** A compiled tool and its discovery warnings (pointers into the manifest). */
export interface ToolCompilation {
  tool: RcpClientTool;
  warnings: { path: string; message: string }[];
}

const NO_AUTH: RcpAuth = Object.freeze({ type: 'none' });

/**
 * The model-facing JSON Schema of a param or a nested value: its type and description, and every
 * value detail the manifest gives (an object with properties gets `additionalProperties: false`,
 * which is what the client enforces).
 */
function modelSchemaOf(schema: RcpParam | RcpValue, type: RcpInputSchemaProperty['type'], description: string | undefined): RcpInputSchemaProperty {
  const out: Record<string, unknown> = { type };
  if (description) out['description'] = description;
  if (schema.enum !== undefined) out['enum'] = schema.enum;
  if (schema.items !== undefined) out['items'] = modelSchemaOf(schema.items, schema.items.type, schema.items.description);
  if (schema.properties !== undefined) {
    const properties: Record<string, RcpInputSchemaProperty> = {};
    for (const [key, value] of Object.entries(schema.properties)) {
      Object.defineProperty(properties, key, { value: modelSchemaOf(value, value.type, value.description), enumerable: true });
    }
    out['properties'] = Object.freeze(properties);
  }
  const required = 'requiredProperties' in schema ? schema.requiredProperties : Array.isArray(schema.required) ? schema.required : undefined;
  if (required !== undefined && required.length > 0) out['required'] = required;
  if (schema.properties !== undefined) out['additionalProperties'] = false;
  for (const key of ['format', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'default'] as const) {
    if (schema[key] !== undefined) out[key] = schema[key];
  }
  return Object.freeze(out) as unknown as RcpInputSchemaProperty;
}
/** The (frozen, shared) empty list of names. */
const NO_NAMES: readonly string[] = Object.freeze([]);
const NO_RESOLVED: readonly ResolvedParam[] = Object.freeze([]);

/** The test of a resolver's value against its param's type (rcp-manifest's type table). */
function typeTest(type: RcpParamType): (value: unknown) => boolean {
  return (value) => hasType(type, value);
}

/**
 * rcp-manifest's argument check, compiled once per tool; its issues become the client's
 * `RCP_INVALID_ARGUMENTS` error (the JSON parse error, when there is one, kept as `cause`).
 */
function throwingCheck(toolName: string, params: readonly RcpParam[]): (args: unknown) => Record<string, unknown> {
  const check = compileArgumentCheck(params);
  return (args) => {
    const result = check(args);
    if (result.ok) return result.values;
    throw new RcpInvalidArgumentsError(toolName, result.issues, result.cause === undefined ? {} : { cause: result.cause });
  };
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
  return Object.freeze(bindings);
}

/** The tool's declared pagination (RCP 0.3), compiled once. */
function paginationOf(source: RcpTool, params: readonly RcpClientToolParam[]): CompiledPagination | undefined {
  const declared = source.pagination;
  if (declared === undefined) return undefined;
  const param = params.find((entry) => entry.name === declared.param)!;
  const paths = compileResponseMappings(declared.hasMore === undefined ? { nextCursor: declared.nextCursor } : { nextCursor: declared.nextCursor, hasMore: declared.hasMore });
  return { paths, param: param.name, type: param.type, resolved: param.resolved };
}

/** The client's media types and the tool's own, lower-cased, without repeats. */
function mediaRangesOf(source: RcpTool, client: readonly string[]): readonly string[] {
  if (source.responseMediaTypes === undefined) return client;
  return Object.freeze([...new Set([...client, ...source.responseMediaTypes.map((type) => type.toLowerCase())])]);
}

/**
 * Compiles one manifest tool: its request template, argument checker, model-facing
 * `inputSchema`, resolver list, auth and trust decision. Runs once per tool at discovery.
 */
export function compileTool(source: RcpTool, index: number, context: ToolCompilationContext): ToolCompilation {
  const { options } = context;
  const toolPath = `/tools/${index}`;
  const warnings: { path: string; message: string }[] = [];
  const auth: RcpAuth = source.auth ?? context.serverAuth ?? NO_AUTH;

  // The validated tool is itself the template (its method, url, queryParams, headers and body):
  // it is deep-frozen, so rcp-template reuses the parts compiled while rcp-manifest validated it
  // and only attaches the manifest's origin.
  const request = compileRequest(source as RequestTemplate, { baseUrl: context.manifestUrl });
  const url = source.url.startsWith('/') ? context.manifestOrigin + source.url : source.url;
  const origin = request.origin ?? new URL(url).origin;

  const properties: Record<string, RcpInputSchemaProperty> = {};
  const fillable: RcpParam[] = [];
  let resolvedCount = 0;
  // The rule of rcp-manifest's `toolParams` (type defaults to string, path params are required),
  // applied with the path tokens of the request compiled here rather than compiling it again.
  const pathTokens = request.pathTokens;
  const params: RcpClientToolParam[] = (source.params ?? []).map((declared, paramIndex) => {
    const resolved = Object.hasOwn(options.resolvers, declared.name);
    const path = `${toolPath}/params/${paramIndex}`;
    const identityWarning = resolved
      ? undefined
      : checkUnboundParam({ tool: source.name, param: declared.name, path }, context.bindings);
    if (identityWarning !== undefined) warnings.push({ path, message: identityWarning });
    const param: RcpClientToolParam = Object.freeze({
      name: declared.name,
      type: declared.type ?? 'string',
      required: declared.required === true || pathTokens.includes(declared.name),
      description: declared.description ?? '',
      resolved,
      looksLikeIdentity: identityWarning !== undefined,
    });
    if (param.resolved) {
      resolvedCount++;
    } else {
      properties[param.name] = modelSchemaOf(declared, param.type, param.description);
      fillable.push(param.required === (declared.required === true) ? declared : { ...declared, required: param.required });
    }
    return param;
  });
  const resolvedNames = resolvedCount === 0 ? NO_NAMES : params.filter((param) => param.resolved).map((param) => param.name);
  const required = fillable.filter((param) => param.required === true).map((param) => param.name);

  const inputSchema: RcpInputSchema = Object.freeze({
    type: 'object',
    properties: Object.freeze(properties),
    required: Object.freeze(required),
    additionalProperties: false,
  });

  const mappings =
    source.responseMappings === undefined || Object.keys(source.responseMappings).length === 0
      ? undefined
      : compileResponseMappings(source.responseMappings);
  const pagination = paginationOf(source, params);
  if (pagination?.resolved === true) {
    warnings.push({
      path: `${toolPath}/pagination/param`,
      message: `Tool "${source.name}" takes its next page's cursor in "${pagination.param}", which a resolver fills: the model cannot ask for the next page`,
    });
  }

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
    resolvedParams: resolvedNames === NO_NAMES ? NO_NAMES : Object.freeze(resolvedNames),
    params: Object.freeze(params),
    auth,
    effects: toolEffects(source),
    ...(source.effects !== undefined && { declaredEffects: source.effects }),
  };

  const resolved: readonly ResolvedParam[] =
    resolvedCount === 0
      ? NO_RESOLVED
      : params
          .filter((param) => param.resolved)
          .map((param) => ({
            name: param.name,
            type: param.type,
            check: typeTest(param.type),
            resolver: options.resolvers[param.name]!,
            info: Object.freeze({ tool, param: param.name }) satisfies RcpResolverInfo,
          }));

  const templateHeaders = source.headers === undefined ? NO_NAMES : Object.keys(source.headers);
  let compiledAuth: CompiledAuth | undefined;
  if (auth.type === 'query') {
    compiledAuth = { auth, prefix: '', shadowedHeaders: NO_NAMES, credentials: options.credentials };
  } else if (auth.type === 'header') {
    const lower = auth.name.toLowerCase();
    const shadowed = templateHeaders.some((name) => name.toLowerCase() === lower);
    compiledAuth = shadowed ? undefined : context.sharedAuth?.get(auth);
    if (compiledAuth === undefined) {
      compiledAuth = {
        auth,
        prefix: auth.scheme ? `${auth.scheme} ` : '',
        shadowedHeaders: shadowed ? templateHeaders.filter((name) => name.toLowerCase() === lower) : NO_NAMES,
        credentials: options.credentials,
      };
      if (!shadowed) context.sharedAuth?.set(auth, compiledAuth);
    }
  }

  const carriesSecrets = compiledAuth !== undefined || resolved.length > 0;
  const { trusted, allowed, refusal } = context.decide(origin);
  let untrustedMessage: string | undefined;
  if (refusal !== undefined) {
    // The private-network boundary: checked before anything else, secrets or not.
    untrustedMessage = `Tool "${tool.name}": ${refusal}`;
    warnings.push({ path: toolPath, message: `${untrustedMessage}; executing it will fail with RCP_ORIGIN_NOT_ALLOWED` });
  } else if (carriesSecrets && !trusted) {
    const what = [compiledAuth && 'a credential', resolved.length > 0 && 'resolver values'].filter(Boolean).join(' and ');
    untrustedMessage =
      `Tool "${tool.name}" would send ${what} to ${origin}, which is not a trusted origin ` +
      `(add it to the client's "trustedOrigins" option if it should be)`;
    warnings.push({ path: toolPath, message: `${untrustedMessage}; executing it will fail with RCP_ORIGIN_NOT_ALLOWED` });
  } else if (!allowed) {
    warnings.push({ path: toolPath, message: `Tool "${tool.name}" calls ${origin}, which the client's "allowOrigin" policy refuses` });
  }

  const compiled: CompiledTool = {
    owner: context.owner,
    source,
    checkArguments: throwingCheck(tool.name, fillable),
    resolved,
    auth: compiledAuth,
    request,
    urlPrefix: `${origin}/`,
    bodyEncoding: source.bodyEncoding ?? 'json',
    contentTypeHeader:
      source.body === undefined ? undefined : templateHeaders.find((name) => name.toLowerCase() === 'content-type'),
    untrustedMessage,
    isAllowed: options.allowOrigin === undefined ? undefined : context.isAllowed,
    isRedirectAllowed: context.isRedirectAllowed,
    transport: context.transport,
    mappings,
    mediaRanges: mediaRangesOf(source, options.mediaTypes),
    maxMediaBytes: options.maxMediaBytes,
    pagination,
    queryBindings: queryBindingsOf(source, params),
    authQueryKey: auth.type === 'query' ? auth.name : undefined,
    marksUntrustedText: options.markUntrustedText,
  };
  attachCompiled(tool, compiled);
  Object.freeze(tool);
  return { tool, warnings };
}
