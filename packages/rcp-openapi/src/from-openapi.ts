import { dereference, validate } from '@readme/openapi-parser';
import type { OpenAPI } from 'openapi-types';
import {
  DEFAULT_MANIFEST_LIMITS,
  FORBIDDEN_HEADER_NAMES,
  RcpError,
  isRcpError,
  parseManifest,
  safeParseManifest,
  type RcpAuth,
  type RcpManifest,
  type RcpManifestError,
} from 'rcp-manifest';
import { compileRequest, isHttpToken, isRecord, isTokenName, isTokenNameChar, isTokenNameStart } from 'rcp-template';
import type { ImportReport, ImportedOperation, LossyStep, ResolverCandidate } from './import-report';
import { jsonMediaType } from './media-type';
import { oauthAuthOf, oauthSetupNotes } from './oauth-hint';
import { paginationOf, responseMediaTypesOf } from './response-fields';
import { DEFAULT_MAX_EXPANDED_VALUES } from './expanded-size';
import { DEFAULT_MAX_DOCUMENT_BYTES, readDocument } from './read-document';
import { article, mergeAllOf, nonNullBranches, paramFields, setOwn, typeOf, unionOf, type Schema } from './schema-to-param';

/**
 * Which operations to import or leave out: by tag, by operationId, or by path pattern (`*`
 * matches within a segment, `**` across segments: `/admin/**`).
 *
 * @example
 * ```ts
 * const filter: OperationFilter = { tags: ['pets'], paths: ['/pets/*'] };
 * ```
 */
export interface OperationFilter {
  readonly tags?: readonly string[];
  readonly operationIds?: readonly string[];
  readonly paths?: readonly string[];
}

/**
 * Options of {@link fromOpenApi}.
 *
 * @example
 * ```ts
 * await fromOpenApi(text, { baseUrl: 'https://api.example.com/v1', exclude: { tags: ['admin'] }, resolve: ['AccountSid'] });
 * ```
 */
export interface FromOpenApiOptions {
  /** The API's base URL, instead of `servers[0]` (OpenAPI 3) or `schemes` + `host` + `basePath` (Swagger 2). */
  readonly baseUrl?: string;
  /** Only operations matching any of these (all operations when absent). */
  readonly include?: OperationFilter;
  /** Leave out operations matching any of these (applied after `include`). */
  readonly exclude?: OperationFilter;
  /**
   * Params the client will fill with resolvers (for example `['userId', 'AccountSid']`): they stay
   * declared, are described as set by the client, and are never mentioned in a tool description.
   */
  readonly resolve?: readonly string[];
  /**
   * Import operations marked `deprecated: true` too. They are skipped by default (reason
   * `deprecated`): an API's deprecated operation is often one it keeps for old clients, not one a
   * model should pick. An imported one's description starts with `Deprecated: `.
   * @default false
   */
  readonly includeDeprecated?: boolean;
  /**
   * Most tools in the manifest; operations past it are skipped with a reason.
   * @default 5000 (rcp-manifest's limit)
   */
  readonly maxTools?: number;
  /**
   * Largest document text accepted, in UTF-8 bytes, checked before the text is parsed (an object
   * has no text size). Nesting is limited too, to 256 levels, before anything recursive runs.
   * @default 33554432 (32 MiB)
   */
  readonly maxBytes?: number;
  /**
   * Most values (objects, arrays and scalars) the document may hold once its `$ref`s are resolved
   * as the validator and the dereferencer resolve them, checked before either runs: their time
   * follows this count, and a few kilobytes of schemas that each name the next one twice expand
   * to millions. A description larger than any of the common ones (DocuSign's, Microsoft Graph's)
   * needs more.
   * @default 5000000
   */
  readonly maxExpandedValues?: number;
}

/**
 * What {@link fromOpenApi} returns: a manifest that passes `parseManifest`, and the report.
 *
 * @example
 * ```ts
 * const { manifest, report }: FromOpenApiResult = await fromOpenApi(text);
 * ```
 */
export interface FromOpenApiResult {
  readonly manifest: RcpManifest;
  readonly report: ImportReport;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;
const RCP_METHODS: ReadonlySet<string> = new Set(['get', 'put', 'post', 'delete', 'patch']);
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1_024;
/** Headers a tool may not set (rcp-manifest's list) or that auth and the client own. */
const SKIPPED_HEADERS: ReadonlySet<string> = new Set([...FORBIDDEN_HEADER_NAMES, 'authorization', 'content-type', 'accept']);
const RESERVED: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

type Json = Record<string, unknown>;


function fail(message: string, cause?: unknown): RcpError<'RCP_INVALID_OPTIONS'> {
  return new RcpError('RCP_INVALID_OPTIONS', message, cause === undefined ? {} : { cause });
}

/** A short deterministic hash (FNV-1a, base 36) for names that had to be shortened. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(36).padStart(6, '0').slice(-6);
}

/** `[A-Za-z0-9_-]`, at most 64 characters; a long name keeps its start and gets a hash. */
function toolNameOf(source: string): string {
  const clean = source.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/_{2,}/g, '_').replace(/^_+|_+$/g, '') || 'operation';
  return clean.length <= MAX_NAME ? clean : `${clean.slice(0, MAX_NAME - 7)}_${shortHash(source)}`;
}

/** A `{{token}}` name (rcp-template's grammar) made from `source`, never a reserved name. */
function tokenNameOf(source: string): string {
  let clean = '';
  for (let index = 0; index < source.length; index++) {
    const code = source.charCodeAt(index);
    if (isTokenNameChar(code)) clean += source[index];
    else if (index === 0 || isTokenNameChar(source.charCodeAt(index - 1))) clean += '_'; // one `_` per run
  }
  if (!isTokenNameStart(clean.charCodeAt(0))) clean = `_${clean}`;
  if (RESERVED.has(clean)) clean = `${clean}_`;
  return clean;
}

function globToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '\u0000').replace(/\*/g, '[^/]*').replace(/\u0000/g, '.*');
  return new RegExp(`^${escaped}$`);
}

function matches(filter: OperationFilter | undefined, operation: Json, path: string): boolean {
  if (filter === undefined) return false;
  const tags = Array.isArray(operation['tags']) ? (operation['tags'] as unknown[]) : [];
  if (filter.tags?.some((tag) => tags.includes(tag))) return true;
  if (typeof operation['operationId'] === 'string' && filter.operationIds?.includes(operation['operationId'])) return true;
  return filter.paths?.some((pattern) => globToRegExp(pattern).test(path)) ?? false;
}

function serverVariablesApplied(server: Json): string {
  let url = String(server['url'] ?? '');
  const variables = isRecord(server['variables']) ? server['variables'] : {};
  for (const [name, variable] of Object.entries(variables)) {
    const value = isRecord(variable) && variable['default'] !== undefined ? String(variable['default']) : '';
    url = url.replaceAll(`{${name}}`, value);
  }
  return url;
}

/** Where tools go: the base URL without a trailing slash, and its origin (undefined for a relative base). */
interface Base {
  readonly url: string;
  readonly origin: string | undefined;
}

/** Stands for the manifest's origin when the base is relative (only compared, never contacted). */
const RELATIVE_ORIGIN = 'https://manifest-origin.invalid';

/**
 * The base URL read with the URL parser: an absolute http(s) URL without user info, query or
 * fragment, or a path on the manifest's origin (then tools are relative); else RCP_INVALID_OPTIONS.
 * The message never repeats the URL (it may hold a password).
 */
function baseOf(document: Json, option: string | undefined): Base {
  let text: string;
  let source: string;
  if (option !== undefined) {
    text = option;
    source = 'Option "baseUrl"';
  } else if (document['swagger'] === '2.0') {
    const schemes = Array.isArray(document['schemes']) ? (document['schemes'] as string[]) : [];
    const scheme = schemes.includes('https') ? 'https' : schemes.includes('http') ? 'http' : 'https';
    const host = typeof document['host'] === 'string' ? document['host'] : undefined;
    const basePath = typeof document['basePath'] === 'string' ? document['basePath'] : '';
    text = host === undefined ? basePath : `${scheme}://${host}${basePath}`;
    source = 'The document\'s "host" and "basePath"';
  } else {
    const servers = Array.isArray(document['servers']) ? document['servers'] : [];
    text = isRecord(servers[0]) ? serverVariablesApplied(servers[0]) : '';
    source = 'The document\'s servers[0].url';
  }
  const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(text);
  if (!absolute && text !== '' && !text.startsWith('/')) text = `/${text}`;
  let parsed: URL;
  try {
    parsed = new URL(text, RELATIVE_ORIGIN);
  } catch (error) {
    throw fail(`${source} is not a URL (pass the "baseUrl" option)`, error);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw fail(`${source} is not an http(s) URL (pass the "baseUrl" option)`);
  if (parsed.username !== '' || parsed.password !== '') throw fail(`${source} holds user info (a URL's "user:password@")`);
  if (parsed.search !== '' || parsed.hash !== '' || /[?#]/.test(text)) throw fail(`${source} has a query or a fragment`);
  if (!absolute && parsed.origin !== RELATIVE_ORIGIN) throw fail(`${source} starts with "//" (another host)`);
  const path = parsed.pathname.replace(/\/+$/, '');
  return absolute ? { url: `${parsed.origin}${path}`, origin: parsed.origin } : { url: path, origin: undefined };
}

/**
 * Why the document's path cannot follow the base URL, or undefined. A path must start with `/`
 * (`.evil.example/x` or `:8443/x` after `https://api.example.com` would change the host or the
 * port) and has no `.` or `..` segment (it would leave the base path).
 */
function pathProblem(path: string): string | undefined {
  if (!path.startsWith('/')) return 'the path does not start with "/" (it would change the host or port of the base URL)';
  if (path.split(/[/?]/).some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment))) return 'the path has a "." or ".." segment (it would leave the base path)';
  return undefined;
}

/** The origin a tool URL goes to by the template rules (rcp-template); undefined when it does not compile (rcp-manifest then says why). */
function toolOrigin(url: string): string | undefined {
  try {
    return compileRequest({ method: 'GET', url }, { baseUrl: RELATIVE_ORIGIN }).origin;
  } catch {
    return undefined;
  }
}

interface SecurityChoice {
  readonly auth?: RcpAuth;
  readonly skip?: string;
  readonly lossy?: string;
}

/** True when the document defines the scheme (an own entry: `__proto__` is a name like any other). */
function isDefinedScheme(schemes: Json, name: string): boolean {
  return Object.hasOwn(schemes, name) && isRecord(schemes[name]);
}

/**
 * One document warning per security scheme that a requirement names and the document does not
 * define (`security: [{ apiKey: [] }]` without `components.securitySchemes.apiKey`), with how many
 * operations name it. Every operation counts, imported or not: the mistake is the document's.
 */
function undefinedSchemeWarnings(document: Json, schemes: Json, swagger: boolean): string[] {
  const where = swagger ? 'securityDefinitions' : 'components.securitySchemes';
  const named = (requirements: unknown): Set<string> =>
    new Set(Array.isArray(requirements) ? requirements.filter(isRecord).flatMap((requirement) => Object.keys(requirement)) : []);
  const operations = new Map<string, number>();
  for (const name of named(document['security'])) if (!isDefinedScheme(schemes, name)) operations.set(name, 0);
  const paths = isRecord(document['paths']) ? document['paths'] : {};
  for (const pathItem of Object.values(paths)) {
    if (!isRecord(pathItem)) continue;
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!isRecord(operation)) continue;
      const requirements = 'security' in operation ? operation['security'] : document['security'];
      for (const name of named(requirements)) if (!isDefinedScheme(schemes, name)) operations.set(name, (operations.get(name) ?? 0) + 1);
    }
  }
  return [...operations].map(
    ([name, count]) =>
      `the security scheme "${name.slice(0, 80)}" is not defined in ${where}, ${count === 0 ? 'but the document\'s security names it' : `but ${count} operation(s) name it`} (an operation with no other way to authenticate is skipped)`,
  );
}

/** The RCP auth of a security requirement list (the first alternative RCP can express). */
function authOf(requirements: unknown, schemes: Json): SecurityChoice {
  if (!Array.isArray(requirements) || requirements.length === 0) return { auth: { type: 'none' } };
  let reason: string | undefined;
  for (const requirement of requirements) {
    if (!isRecord(requirement)) continue;
    const names = Object.keys(requirement);
    if (names.length === 0) return { auth: { type: 'none' } };
    const missing = names.find((name) => !isDefinedScheme(schemes, name));
    if (missing !== undefined) {
      reason = `the security scheme "${missing.slice(0, 80)}" is not defined`;
      continue;
    }
    if (names.length > 1) {
      reason = 'security that needs several schemes at once';
      continue;
    }
    const scheme = schemes[names[0]!] as Json;
    const type = scheme['type'];
    const lossy = requirements.length > 1 ? 'the first of several security alternatives RCP can express was kept' : undefined;
    if (type === 'apiKey') {
      const name = String(scheme['name'] ?? '');
      if (scheme['in'] === 'header' && isHttpToken(name)) return { auth: { type: 'header', name }, ...(lossy && { lossy }) };
      if (scheme['in'] === 'query' && isHttpToken(name)) return { auth: { type: 'query', name }, ...(lossy && { lossy }) };
      reason = scheme['in'] === 'cookie' ? 'cookie auth' : 'an apiKey RCP cannot place';
    } else if (type === 'http' || type === 'basic') {
      const kind = String(scheme['scheme'] ?? (type === 'basic' ? 'basic' : '')).toLowerCase();
      if (kind === 'bearer') return { auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' }, ...(lossy && { lossy }) };
      if (kind === 'basic') return { auth: { type: 'header', name: 'Authorization', scheme: 'Basic' }, ...(lossy && { lossy }) };
      reason = `http auth "${kind}"`;
    } else if (type === 'oauth2' || type === 'openIdConnect') {
      const { auth, lost } = oauthAuthOf(scheme, requirement[names[0]!]);
      const steps = [lossy, lost].filter((step) => step !== undefined);
      return { auth, ...(steps.length > 0 && { lossy: steps.join('; ') }) };
    } else reason = `security scheme type "${String(type)}"`;
  }
  return { skip: reason ?? 'security RCP cannot express' };
}

function sameAuth(a: RcpAuth, b: RcpAuth): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Summary and description, trimmed, the description left out when it repeats the summary, after
 * `Deprecated: ` for a deprecated operation; cut at 1,024 characters.
 */
function describe(operation: Json, fallback: string, lose: (message: string) => void): string {
  const summary = typeof operation['summary'] === 'string' ? operation['summary'].trim() : '';
  const description = typeof operation['description'] === 'string' ? operation['description'].trim() : '';
  let text = summary && description && description !== summary ? `${summary}\n\n${description}` : summary || description || fallback;
  if (operation['deprecated'] === true) text = `Deprecated: ${text}`;
  if (text.length > MAX_DESCRIPTION) {
    const cut = text.slice(0, MAX_DESCRIPTION - 1);
    const space = cut.lastIndexOf(' ');
    text = `${(space > MAX_DESCRIPTION / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
    lose(`the description was cut to ${MAX_DESCRIPTION} characters`);
  }
  return text;
}

interface DraftTool {
  tool: Json;
  params: Json[];
  usesForm: boolean;
  usesQueryAuth: boolean;
  pathParams: string[];
  /** The naming rule that gave the tool its pagination (for the document warning), if one did. */
  pagingRule?: string;
}

/** The tool's optional RCP 0.3 fields: one RCP refuses is left out (a lossy step), never the operation. */
const OPTIONAL_03_FIELDS = ['responseMediaTypes', 'pagination'] as const;

/**
 * Turns an OpenAPI document (Swagger 2.0, OpenAPI 3.0 or 3.1; JSON or YAML text, or an object)
 * into an RCP manifest and a report of every operation, imported or skipped with its reason,
 * and every lossy step. `$ref`s are resolved inside the document only: a document that names a
 * file or a URL never makes this read or fetch it (such refs stay unresolved and what needs them
 * is skipped). The manifest passes `parseManifest` and says `"0.1"` unless it uses a 0.2 feature
 * (a form body, query auth), or `"0.3"` when a tool has `responseMediaTypes` or `pagination`.
 *
 * A document is data from someone else: text over `maxBytes` or nesting deeper than 256 levels is
 * refused before anything recursive reads it; every tool goes to the base URL's origin (a path
 * that does not start with `/`, or has a `.` / `..` segment, is skipped); each tool is checked by
 * rcp-manifest on its own, so an operation RCP cannot carry (an apiKey in `Cookie`, a `#` in a
 * path) is one skip with the reason, never a failed import.
 *
 * Per operation: the tool name from `operationId` (`[A-Za-z0-9_-]`, at most 64 characters,
 * unique regardless of case — shortened with a hash where needed), else from method and path;
 * the description from summary and description; path, query and header params (path-item params
 * merged, the operation's win; any name, `__proto__` too); a JSON or form body whose top-level
 * properties become params (`allOf` merged; a name that clashes with a path, query or header
 * param gets a `body_` prefix), a `+json` body (`application/merge-patch+json`) sent with that
 * `Content-Type`; a `oneOf` / `anyOf` body as one of its branches (the first with
 * properties; its required fields required, so never an empty body); a nullable union
 * (`anyOf: [X, { type: 'null' }]`) as X; param details (`enum`, `items`, `format`, bounds …)
 * carried over, an exclusive bound on an integer as the inclusive one a step in (on a number it
 * stays inclusive, reported); auth from the security schemes (one the document never defines is
 * a document warning); binary 2xx content types as `responseMediaTypes`, and a cursor as
 * `pagination` where a param and the 2xx JSON response follow one naming convention (`cursor` →
 * `next_cursor`, `page_token` → `next_page_token`, `starting_after` → the last `data` item's `id`;
 * each convention used is a document warning). Deprecated operations are skipped unless
 * `includeDeprecated`.
 *
 * @throws `RcpError` RCP_INVALID_OPTIONS when the input is not an OpenAPI document, is over a
 *   limit, has a base URL that is not a plain http(s) URL or path, or an option is invalid.
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * import { fromOpenApi, formatSummary } from 'rcp-openapi';
 *
 * const { manifest, report } = await fromOpenApi(await readFile('petstore.yaml', 'utf8'), { resolve: ['ownerId'] });
 * console.log(formatSummary(report));
 * ```
 */
export async function fromOpenApi(input: string | object, options: FromOpenApiOptions = {}): Promise<FromOpenApiResult> {
  const maxTools = options.maxTools ?? DEFAULT_MANIFEST_LIMITS.maxTools;
  if (!Number.isSafeInteger(maxTools) || maxTools < 1) throw fail('Option "maxTools" must be a positive integer');
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) throw fail('Option "maxBytes" must be a positive integer');
  const maxExpandedValues = options.maxExpandedValues ?? DEFAULT_MAX_EXPANDED_VALUES;
  if (!Number.isSafeInteger(maxExpandedValues) || maxExpandedValues < 1) throw fail('Option "maxExpandedValues" must be a positive integer');
  if (options.includeDeprecated !== undefined && typeof options.includeDeprecated !== 'boolean') throw fail('Option "includeDeprecated" must be a boolean');
  const raw = readDocument(input, { maxBytes, maxExpandedValues });
  const documentWarnings: string[] = [];
  const validated = await validate(structuredClone(raw) as OpenAPI.Document, { resolve: { external: false, file: false } }).catch(
    (error: unknown) => ({ valid: false, errors: [{ message: String((error as Error).message ?? error) }], warnings: [] }),
  );
  if (!validated.valid) for (const error of validated.errors ?? []) documentWarnings.push(String(error.message).split('\n')[0]!.slice(0, 300));
  let document: Json;
  try {
    document = (await dereference(raw as unknown as OpenAPI.Document, {
      resolve: { external: false, file: false },
      dereference: { circular: 'ignore' },
    })) as unknown as Json;
  } catch (error) {
    throw fail('The OpenAPI document could not be dereferenced', error);
  }

  const swagger = document['swagger'] === '2.0';
  const specVersion = swagger ? 'Swagger 2.0' : `OpenAPI ${String(document['openapi'])}`;
  const info = isRecord(document['info']) ? document['info'] : {};
  const title = typeof info['title'] === 'string' ? info['title'] : 'API';
  const base = baseOf(document, options.baseUrl);
  const schemes: Json = swagger
    ? (isRecord(document['securityDefinitions']) ? document['securityDefinitions'] : {})
    : isRecord(document['components']) && isRecord((document['components'] as Json)['securitySchemes'])
      ? ((document['components'] as Json)['securitySchemes'] as Json)
      : {};
  documentWarnings.push(...undefinedSchemeWarnings(document, schemes, swagger), ...oauthSetupNotes(schemes));
  const globalAuth = authOf(document['security'], schemes);
  // The document's auth is the manifest's only when RCP accepts it (an apiKey in `Cookie` is
  // refused by rcp-manifest): otherwise each operation carries it and is skipped on its own.
  const serverAuth: RcpAuth =
    globalAuth.auth !== undefined && safeParseManifest({ rcpVersion: '0.2', auth: globalAuth.auth, tools: [] }).ok ? globalAuth.auth : { type: 'none' };
  const resolveNames = new Set(options.resolve ?? []);

  const operations: ImportedOperation[] = [];
  const lossy: LossyStep[] = [];
  const drafts: DraftTool[] = [];
  const usedNames = new Set<string>();
  const paths = isRecord(document['paths']) ? document['paths'] : {};

  for (const [path, pathItemValue] of Object.entries(paths)) {
    if (!isRecord(pathItemValue)) continue;
    const pathItem = pathItemValue;
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!isRecord(operation)) continue;
      const operationId = typeof operation['operationId'] === 'string' ? operation['operationId'] : undefined;
      const entry = { method: method.toUpperCase(), path, ...(operationId !== undefined && { operationId }) };
      const skip = (reason: string): void => void operations.push({ ...entry, status: 'skipped', reason });
      if (options.include !== undefined && !matches(options.include, operation, path)) {
        skip('not included');
        continue;
      }
      if (matches(options.exclude, operation, path)) {
        skip('excluded');
        continue;
      }
      if (operation['deprecated'] === true && options.includeDeprecated !== true) {
        skip('deprecated');
        continue;
      }
      if (!RCP_METHODS.has(method)) {
        skip(`method ${method.toUpperCase()} (RCP tools use GET, POST, PUT, PATCH or DELETE)`);
        continue;
      }
      if (drafts.length >= maxTools) {
        skip(`over the tool limit (${maxTools})`);
        continue;
      }
      const problem = pathProblem(path);
      if (problem !== undefined) {
        skip(problem);
        continue;
      }
      let name = toolNameOf(operationId ?? `${method}_${path}`);
      if (usedNames.has(name.toLowerCase())) name = toolNameOf(`${name.slice(0, MAX_NAME - 7)}_${shortHash(`${method} ${path}`)}`);
      if (usedNames.has(name.toLowerCase())) {
        skip(`the tool name "${name}" is taken by another operation, also after renaming`);
        continue;
      }
      const steps: string[] = [];
      const lose = (message: string): void => void steps.push(message);
      const result = buildTool(document, path, pathItem, method, operation, { base, schemes, serverAuth, swagger, resolveNames, lose });
      if ('skip' in result) {
        skip(result.skip);
        continue;
      }
      const { tool: built } = result;
      result.tool = { name, description: describe(operation, `${method.toUpperCase()} ${path}`, lose), ...built };
      let refused = refusal(result.tool, serverAuth);
      // An optional 0.3 field RCP refuses is left out, and the tool checked again.
      let field = OPTIONAL_03_FIELDS.find((key) => refused?.pointer.startsWith(`/${key}`));
      while (refused !== undefined && field !== undefined) {
        delete result.tool[field];
        if (field === 'pagination') delete result.pagingRule;
        lose(`${field === 'pagination' ? 'the pagination read from the response was' : 'the response media types were'} left out: ${refused.reason}`);
        refused = refusal(result.tool, serverAuth);
        field = OPTIONAL_03_FIELDS.find((key) => refused?.pointer.startsWith(`/${key}`));
      }
      if (refused !== undefined) {
        skip(refused.reason);
        continue;
      }
      usedNames.add(name.toLowerCase());
      drafts.push(result);
      operations.push({ ...entry, status: 'imported', tool: name });
      for (const message of steps) lossy.push({ tool: name, message });
    }
  }

  const uses03 = drafts.some((draft) => OPTIONAL_03_FIELDS.some((field) => draft.tool[field] !== undefined));
  const version = uses03 ? '0.3' : drafts.some((draft) => draft.usesForm || draft.usesQueryAuth) || serverAuth.type === 'query' ? '0.2' : '0.1';
  documentWarnings.push(...pagingWarnings(drafts));
  const manifestValue: Json = { rcpVersion: version };
  if (serverAuth.type !== 'none') manifestValue['auth'] = serverAuth;
  manifestValue['tools'] = drafts.map((draft) => draft.tool);
  const manifest = parseManifest(manifestValue);

  const imported = drafts.length;
  const counts = new Map<string, number>();
  for (const draft of drafts) for (const param of new Set(draft.pathParams)) counts.set(param, (counts.get(param) ?? 0) + 1);
  const resolverCandidates: ResolverCandidate[] = [...counts]
    .filter(([param, count]) => count >= 2 && count * 2 >= imported && !resolveNames.has(param))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([param, count]) => ({ param, operations: count, of: imported }));
  const skipped: Record<string, number> = {};
  for (const operation of operations) if (operation.status === 'skipped') skipped[operation.reason!] = (skipped[operation.reason!] ?? 0) + 1;
  return {
    manifest,
    report: {
      title,
      specVersion,
      operations,
      lossy,
      resolverCandidates,
      documentWarnings,
      summary: { operations: operations.length, imported, skipped },
    },
  };
}

/**
 * One document warning per naming rule that gave tools their pagination, with how many: the rule
 * reads names, not a declaration, so the person importing should check that the API pages so.
 */
function pagingWarnings(drafts: readonly DraftTool[]): string[] {
  const counts = new Map<string, number>();
  for (const draft of drafts) if (draft.pagingRule !== undefined) counts.set(draft.pagingRule, (counts.get(draft.pagingRule) ?? 0) + 1);
  return [...counts].map(
    ([rule, count]) => `pagination was read from names for ${count} operation(s) (${rule}): check that the API pages this way (a client tells the model the next call from it)`,
  );
}

/**
 * Why rcp-manifest refuses this one tool (checked on its own, with the auth it will have, so that
 * one operation RCP cannot carry is one skip), or undefined when it accepts it: the first issue's
 * pointer inside the tool (`/pagination/param`) and the reason. A tool using a 0.3 field is
 * checked as 0.3, any other as 0.2 (both read every 0.1 tool alike).
 */
function refusal(tool: Json, serverAuth: RcpAuth): { pointer: string; reason: string } | undefined {
  const rcpVersion = OPTIONAL_03_FIELDS.some((field) => tool[field] !== undefined) ? '0.3' : '0.2';
  const checked = safeParseManifest({ rcpVersion, ...(serverAuth.type !== 'none' && { auth: serverAuth }), tools: [tool] });
  if (checked.ok) return undefined;
  const issue = isRcpError(checked.error, 'RCP_INVALID_MANIFEST') ? (checked.error as RcpManifestError).issues[0] : undefined;
  const pointer = issue === undefined ? '' : issue.path.replace(/^\/tools\/0/, '');
  const where = issue === undefined ? '' : `${pointer || '/'}: `;
  return { pointer, reason: `RCP refuses the tool (${where}${(issue?.message ?? checked.error.message).slice(0, 200)})` };
}

interface BuildContext {
  readonly base: Base;
  readonly schemes: Json;
  readonly serverAuth: RcpAuth;
  readonly swagger: boolean;
  readonly resolveNames: ReadonlySet<string>;
  readonly lose: (message: string) => void;
}

/** The first `$ref` in `value` that points outside the document (never resolved: no file is read, no URL fetched). */
function externalRef(value: unknown, seen = new WeakSet<object>(), depth = 0): string | undefined {
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

/**
 * A body of types RCP cannot send (neither JSON nor a form): the reason to skip the operation
 * (multipart, or any required one), or undefined after `lose` says the optional body was left out.
 */
function bodyNotSent(types: readonly string[], required: boolean, lose: (message: string) => void): string | undefined {
  if (types.some((type) => type.startsWith('multipart/'))) return 'multipart body';
  const listed = types.join(', ') || 'none';
  if (required) return `an unsupported body type (${listed})`;
  lose(`the optional body (${listed}) was left out`);
  return undefined;
}

/** One operation as a draft tool, or why it cannot be one. */
function buildTool(
  document: Json,
  path: string,
  pathItem: Json,
  method: string,
  operation: Json,
  context: BuildContext,
): DraftTool | { skip: string } {
  const { lose } = context;
  const external = externalRef([pathItem['parameters'], operation['parameters'], operation['requestBody']]);
  if (external !== undefined) return { skip: `an unresolved $ref to another document (${external.slice(0, 80)})` };
  // Path-item params first, the operation's replace them by (in, name).
  const byKey = new Map<string, Json>();
  for (const list of [pathItem['parameters'], operation['parameters']]) {
    if (!Array.isArray(list)) continue;
    for (const param of list) {
      if (!isRecord(param) || typeof param['name'] !== 'string') continue;
      if (typeof param['$ref'] === 'string') return { skip: `an unresolved $ref (${param['$ref'].slice(0, 80)})` };
      byKey.set(`${String(param['in'])}:${param['name']}`, param);
    }
  }
  const params: Json[] = [];
  const taken = new Set<string>();
  const claim = (wanted: string): string => {
    let token = tokenNameOf(wanted);
    for (let n = 2; taken.has(token); n++) token = `${tokenNameOf(wanted)}_${n}`;
    taken.add(token);
    return token;
  };
  const describeParam = (original: string, description: unknown): string | undefined => {
    if (context.resolveNames.has(original)) return 'Set by the client (resolver-bound), not by the model.';
    return typeof description === 'string' && description.trim() !== '' ? description.trim() : undefined;
  };
  const declare = (token: string, original: string, schema: Schema, required: boolean, description: unknown): void => {
    const fields = paramFields(schema, lose, `"${original}"`);
    const param: Json = { name: token, ...fields };
    const text = describeParam(original, description);
    if (text !== undefined) param['description'] = text;
    if (required) param['required'] = true;
    params.push(param);
  };

  let url = path;
  // Null-prototype maps: a param named `__proto__` is a key like any other.
  const queryParams: Json = Object.create(null) as Json;
  const headers: Json = Object.create(null) as Json;
  const pathParams: string[] = [];
  let formFields: Json[] | undefined;
  let bodyParam: Json | undefined;
  for (const param of byKey.values()) {
    const original = param['name'] as string;
    const where = param['in'];
    const schema: Schema = context.swagger ? param : isRecord(param['schema']) ? (param['schema'] as Schema) : {};
    if (where === 'path') {
      const token = claim(original);
      url = url.replaceAll(`{${original}}`, `{{${token}}}`);
      pathParams.push(token);
      declare(token, original, schema, true, param['description']);
    } else if (where === 'query') {
      const token = claim(original);
      queryParams[original] = `{{${token}}}`;
      declare(token, original, schema, param['required'] === true, param['description']);
      const style = param['style'] ?? (context.swagger ? undefined : 'form');
      if (param['explode'] === false || (context.swagger && param['collectionFormat'] !== undefined && param['collectionFormat'] !== 'multi')) {
        if (schema['type'] === 'array') lose(`query array "${original}" is sent as repeated keys, not ${context.swagger ? String(param['collectionFormat']) : String(style)}-joined`);
      }
    } else if (where === 'header') {
      if (SKIPPED_HEADERS.has(original.toLowerCase()) || !isHttpToken(original)) {
        lose(`header param "${original}" was dropped (the client or auth sets it)`);
        continue;
      }
      const token = claim(original);
      headers[original] = `{{${token}}}`;
      declare(token, original, schema, param['required'] === true, param['description']);
    } else if (where === 'cookie') {
      if (param['required'] === true) return { skip: 'a required cookie param' };
      lose(`cookie param "${original}" was dropped`);
    } else if (where === 'formData') {
      if (param['type'] === 'file') return { skip: 'multipart body (a file upload)' };
      (formFields ??= []).push(param);
    } else if (where === 'body') {
      bodyParam = param;
    }
  }
  // Path templates the document forgot to declare are still params (a path needs them).
  for (const match of url.matchAll(/(?<!\{)\{([^{}]+)\}(?!\})/g)) {
    const original = match[1]!;
    const token = claim(original);
    url = url.replace(`{${original}}`, `{{${token}}}`);
    pathParams.push(token);
    declare(token, original, { type: 'string' }, true, undefined);
    lose(`path param "${original}" was not declared by the operation; imported as a required string`);
  }

  // The body.
  let body: unknown;
  let usesForm = false;
  let bodyRequired = false;
  let bodySchema: Schema | undefined;
  // The Content-Type a JSON body other than `application/json` needs (`application/merge-patch+json`).
  let contentType: string | undefined;
  if (context.swagger) {
    const listed = Array.isArray(operation['consumes']) ? operation['consumes'] : Array.isArray(document['consumes']) ? document['consumes'] : [];
    const consumes = listed.filter((type): type is string => typeof type === 'string');
    if (formFields !== undefined) {
      if (consumes.some((type) => type.startsWith('multipart/')) && !consumes.includes('application/x-www-form-urlencoded')) {
        return { skip: 'multipart body' };
      }
      usesForm = true;
      const properties: Json = {};
      const required: string[] = [];
      for (const field of formFields) {
        setOwn(properties, field['name'] as string, field);
        if (field['required'] === true) required.push(field['name'] as string);
      }
      bodySchema = { type: 'object', properties, required };
      bodyRequired = required.length > 0;
    } else if (bodyParam !== undefined) {
      bodyRequired = bodyParam['required'] === true;
      const json = jsonMediaType(consumes);
      if (consumes.length > 0 && json === undefined) {
        // A body the document says is not JSON (`application/octet-stream`, `application/xml`).
        const skip = bodyNotSent(consumes, bodyRequired, lose);
        if (skip !== undefined) return { skip };
      } else {
        contentType = json?.contentType;
        bodySchema = isRecord(bodyParam['schema']) ? (bodyParam['schema'] as Schema) : {};
      }
    }
  } else if (isRecord(operation['requestBody'])) {
    const requestBody = operation['requestBody'];
    if (typeof requestBody['$ref'] === 'string') return { skip: 'an unresolved $ref in the request body' };
    const content = isRecord(requestBody['content']) ? requestBody['content'] : {};
    const types = Object.keys(content);
    const json = jsonMediaType(types);
    const form = types.find((type) => /^application\/x-www-form-urlencoded/i.test(type));
    const chosen = json?.type ?? form;
    bodyRequired = requestBody['required'] === true;
    if (chosen === undefined) {
      const skip = bodyNotSent(types, bodyRequired, lose);
      if (skip !== undefined) return { skip };
    } else {
      usesForm = chosen === form && json === undefined;
      contentType = json?.contentType;
      const media = content[chosen];
      bodySchema = isRecord(media) && isRecord(media['schema']) ? (media['schema'] as Schema) : {};
    }
  }
  if (bodySchema !== undefined) {
    if (method === 'get') {
      lose('the body of a GET operation was left out (fetch cannot send one)');
    } else {
      let merged = mergeAllOf(bodySchema);
      // A union body becomes one of its branches: never an open object the model may send empty.
      let wholeBody = false;
      const union = unionOf(merged);
      if (union !== undefined) {
        const branches = nonNullBranches(union.branches);
        const { [union.keyword]: _union, ...shared } = merged;
        if (branches.length < union.branches.length) lose('the body is nullable: a null body is never sent');
        if (branches.length > 1) {
          const flat = branches.map((branch) => mergeAllOf({ allOf: [shared, branch] }));
          let index = flat.findIndex((branch) => isRecord(branch['properties']) && Object.keys(branch['properties']).length > 0);
          if (index === -1) index = flat.findIndex((branch) => typeOf(branch) !== undefined);
          if (index === -1) return { skip: `${article(union.keyword)} body with no branch RCP can express` };
          merged = flat[index]!;
          wholeBody = true;
          lose(
            `the body is ${article(union.keyword)} of ${branches.length} schemas: branch ${index + 1} was imported (its required fields required); the other branches were left out`,
          );
        } else merged = branches.length === 1 ? mergeAllOf({ allOf: [shared, branches[0]!] }) : shared;
      }
      if (isRecord(merged['properties'])) {
        const template: Json = {};
        const requiredNames = new Set(Array.isArray(merged['required']) ? (merged['required'] as string[]) : []);
        for (const [property, propertySchema] of Object.entries(merged['properties'])) {
          if (!isRecord(propertySchema) || propertySchema['readOnly'] === true) continue;
          if (usesForm && (property.includes('[') || property.includes(']'))) {
            lose(`form field "${property}" was dropped (brackets in a field name)`);
            continue;
          }
          const clash = taken.has(tokenNameOf(property));
          const token = claim(clash ? `body_${property}` : property);
          setOwn(template, property, `{{${token}}}`);
          declare(token, property, propertySchema as Schema, (bodyRequired || wholeBody) && requiredNames.has(property), propertySchema['description']);
        }
        if (Object.keys(template).length === 0) {
          if (bodyRequired) return { skip: 'a body with no writable property' };
        } else body = template;
      } else if (typeOf(merged) !== undefined || Object.keys(merged).length === 0) {
        if (usesForm) return { skip: 'a form body that is not an object' };
        const token = claim('body');
        const fields = paramFields(merged, lose, 'the body');
        params.push({ name: token, ...fields, ...((bodyRequired || wholeBody) && { required: true }), description: 'The request body.' });
        body = `{{${token}}}`;
      }
    }
  }

  // Auth: the operation's own security replaces the document's.
  const choice = 'security' in operation ? authOf(operation['security'], context.schemes) : authOf(document['security'], context.schemes);
  if (choice.skip !== undefined) return { skip: choice.skip };
  if (choice.lossy !== undefined) lose(choice.lossy);
  const auth = choice.auth!;
  // The path follows the base (pathProblem ruled out what could move it); the origin the template
  // rules read from the result must still be the base's, or the operation is skipped.
  const toolUrl = `${context.base.url}${url}`;
  const origin = toolOrigin(toolUrl);
  if (origin !== undefined && origin !== (context.base.origin ?? RELATIVE_ORIGIN)) return { skip: 'the tool URL would leave the origin of the base URL' };
  const tool: Json = { method: method.toUpperCase(), url: toolUrl };
  if (params.length > 0) tool['params'] = params;
  if (Object.keys(queryParams).length > 0) tool['queryParams'] = queryParams;
  // Header params named Content-Type were dropped above, so this is the tool's only one.
  if (body !== undefined && contentType !== undefined) headers['Content-Type'] = contentType;
  if (Object.keys(headers).length > 0) tool['headers'] = headers;
  if (body !== undefined) {
    tool['body'] = body;
    if (usesForm) tool['bodyEncoding'] = 'form';
  }
  if (!sameAuth(auth, context.serverAuth)) tool['auth'] = auth;
  if (auth.type === 'query' && Object.hasOwn(queryParams, auth.name)) {
    const template = queryParams[auth.name];
    delete queryParams[auth.name];
    if (Object.keys(queryParams).length === 0) delete tool['queryParams'];
    lose(`query param "${auth.name}" is the auth key: the client sets it`);
    const kept = params.filter((param) => template !== `{{${String(param['name'])}}}`);
    if (kept.length > 0) tool['params'] = kept;
    else delete tool['params'];
  }
  // RCP 0.3: what the 2xx responses say (binary media types; a cursor by the naming rule).
  const mediaTypes = responseMediaTypesOf(operation, document, context.swagger);
  if (mediaTypes.length > 0) tool['responseMediaTypes'] = mediaTypes;
  const paging = paginationOf(operation, document, context.swagger, cursorCandidates(tool, context.resolveNames));
  if (paging !== undefined) tool['pagination'] = paging.pagination;
  return {
    tool,
    params,
    usesForm: usesForm && body !== undefined,
    usesQueryAuth: auth.type === 'query',
    pathParams,
    ...(paging !== undefined && { pagingRule: paging.rule }),
  };
}

/**
 * The params that may take a cursor: each query key and top-level body field whose value is one
 * whole token, by the document's name → the token; a resolver-bound one never (a client would
 * not let the model set it).
 */
function cursorCandidates(tool: Json, resolveNames: ReadonlySet<string>): [original: string, token: string][] {
  const candidates: [string, string][] = [];
  for (const entries of [tool['queryParams'], tool['body']]) {
    if (!isRecord(entries)) continue;
    for (const [original, template] of Object.entries(entries)) {
      const name = typeof template === 'string' && template.startsWith('{{') && template.endsWith('}}') ? template.slice(2, -2) : undefined;
      const token = name !== undefined && isTokenName(name) ? name : undefined;
      if (token !== undefined && !resolveNames.has(original) && !resolveNames.has(token)) candidates.push([original, token]);
    }
  }
  return candidates;
}

