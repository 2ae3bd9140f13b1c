import type { RcpAuth } from 'rcp-manifest';
import { parseTemplate } from 'rcp-template';
import { isRecord } from 'rcp-internal';
import { RELATIVE_ORIGIN, toolOrigin, type Base } from './base-url';
import { bodyTemplate, openApiBody, swaggerBody } from './request-body';
import { paginationOf, responseMediaTypesOf, streamOf } from './response-fields';
import { authOf, sameAuth } from './security';
import { createToolParams, mergedParams, placeParams, type PlacedParams } from './tool-params';

type Json = Record<string, unknown>;

/** One operation as a tool, before its name and description, with what the manifest and the report need of it. */
export interface DraftTool {
  tool: Json;
  params: Json[];
  usesForm: boolean;
  usesQueryAuth: boolean;
  pathParams: string[];
  /** The naming rule that gave the tool its pagination (for the document warning), if one did. */
  pagingRule?: string;
  /** The operation's first tag: the tool's group (RCP 0.4, tag-groups.ts). */
  tag?: string;
}

/** What building one tool needs of the whole import. */
export interface BuildContext {
  readonly base: Base;
  readonly schemes: Json;
  readonly serverAuth: RcpAuth;
  readonly swagger: boolean;
  readonly resolveNames: ReadonlySet<string>;
  readonly lose: (message: string) => void;
  /** Records what the report says once for the document, with the tools it applies to and an example (a kept security alternative, a param left out). */
  readonly note: (message: string, example?: string) => void;
}

/** The first `$ref` in `value` that points outside the document (never resolved: no file is read, no URL fetched). */
export function externalRef(value: unknown, seen = new WeakSet<object>(), depth = 0): string | undefined {
  if (typeof value !== 'object' || value === null || seen.has(value) || depth > 64) return undefined;
  seen.add(value);
  const ref = (value as Json)['$ref'];
  if (typeof ref === 'string' && !ref.startsWith('#')) return ref;
  for (const entry of Object.values(value)) {
    const found = externalRef(entry, seen, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The tool's auth: the operation's own security, else the document's; or why the operation is skipped. */
function authFor(document: Json, operation: Json, context: BuildContext): { auth: RcpAuth } | { skip: string } {
  const choice = 'security' in operation ? authOf(operation['security'], context.schemes) : authOf(document['security'], context.schemes);
  if (choice.skip !== undefined) return { skip: choice.skip };
  if (choice.lossy !== undefined) context.lose(choice.lossy);
  if (choice.note !== undefined) context.note(choice.note);
  return { auth: choice.auth! };
}

/** The tool's fields in the manifest's order (the Content-Type header only when a body is sent). */
function assembleTool(
  method: string,
  url: string,
  params: Json[],
  placed: PlacedParams,
  body: unknown,
  contentType: string | undefined,
  encoding: 'json' | 'form' | 'multipart',
): Json {
  const tool: Json = { method: method.toUpperCase(), url };
  if (params.length > 0) tool['params'] = params;
  if (Object.keys(placed.queryParams).length > 0) tool['queryParams'] = placed.queryParams;
  // Header params named Content-Type were dropped, so this is the tool's only one.
  if (body !== undefined && contentType !== undefined) placed.headers['Content-Type'] = contentType;
  if (Object.keys(placed.headers).length > 0) tool['headers'] = placed.headers;
  if (body !== undefined) {
    tool['body'] = body;
    if (encoding !== 'json') tool['bodyEncoding'] = encoding;
  }
  return tool;
}

/** A query param that is the query auth's key is the client's to set: it leaves the tool (a lossy step). */
function withoutQueryAuthKey(tool: Json, auth: RcpAuth, params: readonly Json[], queryParams: Json, lose: (message: string) => void): void {
  if (auth.type !== 'query' || !Object.hasOwn(queryParams, auth.name)) return;
  const template = queryParams[auth.name];
  delete queryParams[auth.name];
  if (Object.keys(queryParams).length === 0) delete tool['queryParams'];
  lose(`query param "${auth.name}" is the auth key: the client sets it`);
  const kept = params.filter((param) => typeof template !== 'string' || wholeToken(template) !== param['name']);
  if (kept.length > 0) tool['params'] = kept;
  else delete tool['params'];
}

/** One operation as a draft tool, or why it cannot be one. */
export function buildTool(document: Json, path: string, pathItem: Json, method: string, operation: Json, context: BuildContext): DraftTool | { skip: string } {
  const { lose } = context;
  const external = externalRef([pathItem['parameters'], operation['parameters'], operation['requestBody']]);
  if (external !== undefined) return { skip: `an unresolved $ref to another document (${external.slice(0, 80)})` };
  const byKey = mergedParams(pathItem, operation);
  if (!(byKey instanceof Map)) return byKey;
  const params = createToolParams(context);
  const placed = placeParams(path, byKey, params, context);
  if ('skip' in placed) return placed;
  const declared = context.swagger ? swaggerBody(document, operation, placed.formFields, placed.bodyParam, lose) : openApiBody(operation, lose);
  if ('skip' in declared) return declared;
  const template = bodyTemplate(declared, method, params, lose);
  if ('skip' in template) return template;
  const { body } = template;
  const chosen = authFor(document, operation, context);
  if ('skip' in chosen) return chosen;
  const { auth } = chosen;
  // The path follows the base (pathProblem ruled out what could move it); the origin the template
  // rules read from the result must still be the base's, or the operation is skipped.
  const toolUrl = `${context.base.url}${placed.url}`;
  const origin = toolOrigin(toolUrl);
  if (origin !== undefined && origin !== (context.base.origin ?? RELATIVE_ORIGIN)) return { skip: 'the tool URL would leave the origin of the base URL' };
  const encoding = declared.usesMultipart ? 'multipart' : declared.usesForm ? 'form' : 'json';
  const tool = assembleTool(method, toolUrl, params.list, placed, body, declared.contentType, encoding);
  if (body !== undefined && declared.usesMultipart) {
    const files = params.list.filter((param) => param['type'] === 'file').map((param) => `"${String(param['name']).slice(0, 80)}"`);
    context.note(
      files.length > 0
        ? "takes files: imported with a multipart body and file params (the model names an attachment, the client's files resolver gives its bytes)"
        : 'takes a multipart body without files: imported with a multipart body of text fields',
      files.join(', ') || undefined,
    );
  }
  if (!sameAuth(auth, context.serverAuth)) tool['auth'] = auth;
  withoutQueryAuthKey(tool, auth, params.list, placed.queryParams, lose);
  // RCP 0.3: what the 2xx responses say (binary media types; a cursor by the naming rule).
  const mediaTypes = responseMediaTypesOf(operation, document, context.swagger);
  if (mediaTypes.length > 0) tool['responseMediaTypes'] = mediaTypes;
  // RCP 0.4: a 2xx answered only as a stream (SSE, NDJSON) is collected into one result.
  const streamed = streamOf(operation, document, context.swagger);
  if (streamed !== undefined && 'stream' in streamed) {
    tool['stream'] = streamed.stream;
    context.note(
      'answers with a stream only: imported with "stream" (its format from the media type), the events collected into one array (collect "array"; set "collect" and "field" to join a text field instead)',
      streamed.mediaType,
    );
  } else if (streamed !== undefined) {
    context.note(
      'answers a stream or another media type, as a request param chooses: imported without "stream" (the answer read as one body)',
      `${streamed.mediaType} or ${streamed.alsoOther}`,
    );
  }
  const paging = paginationOf(operation, document, context.swagger, cursorCandidates(tool, context.resolveNames));
  if (paging !== undefined) tool['pagination'] = paging.pagination;
  return {
    tool,
    params: params.list,
    usesForm: declared.usesForm && body !== undefined,
    usesQueryAuth: auth.type === 'query',
    pathParams: placed.pathParams,
    ...(paging !== undefined && { pagingRule: paging.rule }),
  };
}

/**
 * The params that may take a cursor: each query key and top-level body field whose value is one
 * whole token, by the document's name → the token; a resolver-bound one never (a client would
 * not let the model set it).
 */
/** The token a template is exactly (`{{cursor}}`), or undefined (text around it, several, none, or not a template). */
function wholeToken(template: string): string | undefined {
  try {
    return parseTemplate(template).single;
  } catch {
    return undefined;
  }
}

function cursorCandidates(tool: Json, resolveNames: ReadonlySet<string>): [original: string, token: string][] {
  const candidates: [string, string][] = [];
  for (const entries of [tool['queryParams'], tool['body']]) {
    if (!isRecord(entries)) continue;
    for (const [original, template] of Object.entries(entries)) {
      const token = typeof template === 'string' ? wholeToken(template) : undefined;
      if (token !== undefined && !resolveNames.has(original) && !resolveNames.has(token)) candidates.push([original, token]);
    }
  }
  return candidates;
}
