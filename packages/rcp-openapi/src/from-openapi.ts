import { dereference, validate } from '@readme/openapi-parser';
import type { OpenAPI } from 'openapi-types';
import { DEFAULT_MANIFEST_LIMITS, isRcpError, parseManifest, safeParseManifest, type RcpAuth, type RcpManifest, type RcpManifestError } from 'rcp-manifest';
import { isRecord } from 'rcp-internal';
import { baseOf, pathProblem, type Base } from './base-url';
import { buildTool, type DraftTool } from './build-tool';
import { DEFAULT_MAX_EXPANDED_VALUES } from './expanded-size';
import type { ImportNote, ImportReport, ImportedOperation, LossyStep, ResolverCandidate } from './import-report';
import { invalidOptions as fail } from './invalid-options';
import { parserProblem, validatorWarning } from './parser-problem';
import { HTML_NOTE, MAX_TOOL_DESCRIPTION, TOOL_CUT_NOTE, cutAt, plainText } from './plain-text';
import { oauthSetupNotes } from './oauth-hint';
import { operationsOf, type OperationEntry } from './operations';
import { DEFAULT_MAX_DOCUMENT_BYTES, readDocument, type DocumentLimits } from './read-document';
import { authOf, undefinedSchemeWarnings } from './security';
import { MAX_NAME, shortHash, toolNameOf } from './tool-names';
import { firstTag, tagGroups, type TagGroup } from './tag-groups';

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

const RCP_METHODS: ReadonlySet<string> = new Set(['get', 'put', 'post', 'delete', 'patch']);

type Json = Record<string, unknown>;

function globToRegExp(pattern: string): RegExp {
  const escaped = pattern
    .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
    .replace(/\*\*/g, '\u0000')
    .replace(/\*/g, '[^/]*')
    .replace(/\u0000/g, '.*');
  return new RegExp(`^${escaped}$`);
}

function matches(filter: OperationFilter | undefined, operation: Json, path: string): boolean {
  if (filter === undefined) return false;
  const tags = Array.isArray(operation['tags']) ? (operation['tags'] as unknown[]) : [];
  if (filter.tags?.some((tag) => tags.includes(tag))) return true;
  if (typeof operation['operationId'] === 'string' && filter.operationIds?.includes(operation['operationId'])) return true;
  return filter.paths?.some((pattern) => globToRegExp(pattern).test(path)) ?? false;
}

/**
 * Summary and description as plain text (HTML read out, Markdown kept: plain-text.ts), the
 * description left out when it repeats the summary, after `Deprecated: ` for a deprecated
 * operation; cut at 1,024 characters. `note` hears what was done, for the report.
 */
function describe(operation: Json, fallback: string, note: (message: string) => void): string {
  const read = (value: unknown): string => {
    if (typeof value !== 'string') return '';
    const plain = plainText(value, Number.POSITIVE_INFINITY);
    if (plain.hadMarkup) note(HTML_NOTE);
    return plain.text;
  };
  const summary = read(operation['summary']);
  const description = read(operation['description']);
  let text = summary && description && description !== summary ? `${summary}\n\n${description}` : summary || description || fallback;
  if (operation['deprecated'] === true) text = `Deprecated: ${text}`;
  if (text.length > MAX_TOOL_DESCRIPTION) {
    text = cutAt(text, MAX_TOOL_DESCRIPTION);
    note(TOOL_CUT_NOTE);
  }
  return text;
}

/** The tool's optional RCP 0.3 fields: one RCP refuses is left out (a lossy step), never the operation. */
const OPTIONAL_03_FIELDS = ['responseMediaTypes', 'pagination'] as const;

/**
 * Whether a tool uses an RCP 0.4 field: a `stream` (SPEC §20.6), a param's `queryStyle` (SPEC §20.4),
 * a multipart body or a file param (SPEC §20.7).
 */
function uses04(tool: Json): boolean {
  if (tool['stream'] !== undefined || tool['bodyEncoding'] === 'multipart') return true;
  const params = tool['params'];
  return Array.isArray(params) && params.some((param) => isRecord(param) && (param['queryStyle'] !== undefined || param['type'] === 'file'));
}

/**
 * Turns an OpenAPI document (Swagger 2.0, OpenAPI 3.0 or 3.1; JSON or YAML text, or an object)
 * into an RCP manifest and a report of every operation, imported or skipped with its reason,
 * and every lossy step. `$ref`s are resolved inside the document only: a document that names a
 * file or a URL never makes this read or fetch it (such refs stay unresolved and what needs them
 * is skipped). The manifest passes `parseManifest` and says `"0.1"` unless it uses a 0.2 feature
 * (a form body, query auth), `"0.3"` when a tool has `responseMediaTypes` or `pagination`, or
 * `"0.4"` when it has groups, a query style or a stream. Each operation's first tag is its tool's group
 * (RCP 0.4), described by the document's `tags` entry (plain text, cut at 1,024 characters).
 *
 * A document is data from someone else: text over `maxBytes` or nesting deeper than 256 levels is
 * refused before anything recursive reads it, and one that expands to more than
 * `maxExpandedValues` once its `$ref`s are resolved before the validator or the dereferencer runs; every tool goes to the base URL's origin (a path
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
  const limits = checkedOptions(options);
  const { document, warnings: documentWarnings } = await loadDocument(input, limits);
  const setup = documentSetup(document, options.baseUrl);
  documentWarnings.push(...undefinedSchemeWarnings(document, setup.schemes, setup.swagger), ...oauthSetupNotes(setup.schemes));
  const resolveNames = new Set(options.resolve ?? []);
  const state: ImportState = { operations: [], lossy: [], drafts: [], usedNames: new Set(), notes: new Map() };
  const operationOptions: OperationOptions = { ...options, maxTools: limits.maxTools, resolveNames };
  for (const entry of operationsOf(document['paths'])) importOperation(entry, document, setup, operationOptions, state);
  const { operations, lossy, drafts } = state;
  documentWarnings.push(...pagingWarnings(drafts));
  const groups = tagGroups(document, drafts, (message, tools) => {
    let entry = state.notes.get(message);
    if (entry === undefined) state.notes.set(message, (entry = { tools: new Set(), examples: new Set() }));
    for (const tool of tools) entry.tools.add(tool);
  });
  const imported = drafts.length;
  return {
    manifest: manifestOf(drafts, setup.serverAuth, groups),
    report: {
      title: setup.title,
      specVersion: setup.specVersion,
      operations,
      lossy,
      notes: [...state.notes].map(
        ([message, { tools, examples }]): ImportNote => ({ message, tools: [...tools], ...(examples.size > 0 && { examples: [...examples] }) }),
      ),
      resolverCandidates: resolverCandidatesOf(drafts, resolveNames),
      documentWarnings,
      summary: { operations: operations.length, imported, groups: groups.length, skipped: skippedByReason(operations) },
    },
  };
}

/** The numeric options with their defaults, each checked (RCP_INVALID_OPTIONS before anything is read). */
function checkedOptions(options: FromOpenApiOptions): DocumentLimits & { maxTools: number } {
  const maxTools = options.maxTools ?? DEFAULT_MANIFEST_LIMITS.maxTools;
  if (!Number.isSafeInteger(maxTools) || maxTools < 1) throw fail('Option "maxTools" must be a positive integer');
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) throw fail('Option "maxBytes" must be a positive integer');
  const maxExpandedValues = options.maxExpandedValues ?? DEFAULT_MAX_EXPANDED_VALUES;
  if (!Number.isSafeInteger(maxExpandedValues) || maxExpandedValues < 1) throw fail('Option "maxExpandedValues" must be a positive integer');
  if (options.includeDeprecated !== undefined && typeof options.includeDeprecated !== 'boolean') throw fail('Option "includeDeprecated" must be a boolean');
  return { maxTools, maxBytes, maxExpandedValues };
}

/**
 * The document read within the limits, validated (each complaint a document warning, and the
 * import goes on) and dereferenced inside itself only (no file read, no URL fetched).
 */
async function loadDocument(input: string | object, limits: DocumentLimits): Promise<{ document: Json; warnings: string[] }> {
  const raw = readDocument(input, limits);
  const warnings: string[] = [];
  // The parser's own text and errors are never passed on: they hold the process's working directory (parser-problem.ts).
  const validated = await validate(structuredClone(raw) as OpenAPI.Document, { resolve: { external: false, file: false } }).catch((error: unknown) => ({
    valid: false,
    errors: [{ message: `The OpenAPI document could not be validated: ${parserProblem(error)}` }],
    warnings: [],
  }));
  if (!validated.valid) for (const error of validated.errors ?? []) warnings.push(validatorWarning(String(error.message)));
  try {
    const document = await dereference(raw as unknown as OpenAPI.Document, {
      resolve: { external: false, file: false },
      dereference: { circular: 'ignore' },
    });
    return { document: document as unknown as Json, warnings };
  } catch (error) {
    // No cause: the parser's error names the working directory and carries its stack in own fields.
    throw fail(`The OpenAPI document could not be dereferenced: ${parserProblem(error)}`);
  }
}

/** What every operation of a document shares. */
interface DocumentSetup {
  readonly swagger: boolean;
  readonly specVersion: string;
  readonly title: string;
  readonly base: Base;
  readonly schemes: Json;
  /** The manifest's auth: the document's, when RCP accepts it. */
  readonly serverAuth: RcpAuth;
}

function documentSetup(document: Json, baseUrl: string | undefined): DocumentSetup {
  const swagger = document['swagger'] === '2.0';
  const specVersion = swagger ? 'Swagger 2.0' : `OpenAPI ${String(document['openapi'])}`;
  const info = isRecord(document['info']) ? document['info'] : {};
  const title = typeof info['title'] === 'string' ? info['title'] : 'API';
  const base = baseOf(document, baseUrl);
  const schemes: Json = swagger
    ? isRecord(document['securityDefinitions'])
      ? document['securityDefinitions']
      : {}
    : isRecord(document['components']) && isRecord((document['components'] as Json)['securitySchemes'])
      ? ((document['components'] as Json)['securitySchemes'] as Json)
      : {};
  const globalAuth = authOf(document['security'], schemes);
  // The document's auth is the manifest's only when RCP accepts it (an apiKey in `Cookie` is
  // refused by rcp-manifest): otherwise each operation carries it and is skipped on its own.
  const serverAuth: RcpAuth =
    globalAuth.auth !== undefined && safeParseManifest({ rcpVersion: '0.2', auth: globalAuth.auth, tools: [] }).ok ? globalAuth.auth : { type: 'none' };
  return { swagger, specVersion, title, base, schemes, serverAuth };
}

/** What the import has made so far: every operation's entry, the lossy steps, the tools and their names (lower case). */
interface ImportState {
  readonly operations: ImportedOperation[];
  readonly lossy: LossyStep[];
  readonly drafts: DraftTool[];
  readonly usedNames: Set<string>;
  /** Report notes, each once for the document: the message → the tools it applies to and its examples. */
  readonly notes: Map<string, { tools: Set<string>; examples: Set<string> }>;
}

type OperationOptions = Pick<FromOpenApiOptions, 'include' | 'exclude' | 'includeDeprecated'> & {
  readonly maxTools: number;
  readonly resolveNames: ReadonlySet<string>;
};

/** Why the operation is not imported before its tool is built (the filters, deprecation, method, the tool limit, its path), or undefined. */
function skipReason({ path, method, operation }: OperationEntry, options: OperationOptions, tools: number): string | undefined {
  if (options.include !== undefined && !matches(options.include, operation, path)) return 'not included';
  if (matches(options.exclude, operation, path)) return 'excluded';
  if (operation['deprecated'] === true && options.includeDeprecated !== true) return 'deprecated';
  if (!RCP_METHODS.has(method)) return `method ${method.toUpperCase()} (RCP tools use GET, POST, PUT, PATCH or DELETE)`;
  if (tools >= options.maxTools) return `over the tool limit (${options.maxTools})`;
  return pathProblem(path);
}

/** The tool name: from the operationId, else method and path; one taken (regardless of case) gets the hash of method and path; or why not. */
function toolNameFor(operationId: string | undefined, method: string, path: string, usedNames: ReadonlySet<string>): { name: string } | { skip: string } {
  let name = toolNameOf(operationId ?? `${method}_${path}`);
  if (usedNames.has(name.toLowerCase())) name = toolNameOf(`${name.slice(0, MAX_NAME - 7)}_${shortHash(`${method} ${path}`)}`);
  if (usedNames.has(name.toLowerCase())) return { skip: `the tool name "${name}" is taken by another operation, also after renaming` };
  return { name };
}

/**
 * The draft checked by rcp-manifest: an optional 0.3 field RCP refuses is left out (a lossy
 * step) and the tool checked again; the reason RCP refuses what is left, or undefined.
 */
function refusalAfterOptionalFields(draft: DraftTool, serverAuth: RcpAuth, lose: (message: string) => void): string | undefined {
  let refused = refusal(draft.tool, serverAuth);
  let field = OPTIONAL_03_FIELDS.find((key) => refused?.pointer.startsWith(`/${key}`));
  while (refused !== undefined && field !== undefined) {
    delete draft.tool[field];
    if (field === 'pagination') delete draft.pagingRule;
    lose(`${field === 'pagination' ? 'the pagination read from the response was' : 'the response media types were'} left out: ${refused.reason}`);
    refused = refusal(draft.tool, serverAuth);
    field = OPTIONAL_03_FIELDS.find((key) => refused?.pointer.startsWith(`/${key}`));
  }
  return refused?.reason;
}

/** One operation imported (a tool, its lossy steps) or skipped with its reason, into `state`. */
function importOperation(entry: OperationEntry, document: Json, setup: DocumentSetup, options: OperationOptions, state: ImportState): void {
  const { path, pathItem, method, operation } = entry;
  const operationId = typeof operation['operationId'] === 'string' ? operation['operationId'] : undefined;
  const reported = { method: method.toUpperCase(), path, ...(operationId !== undefined && { operationId }) };
  const skip = (reason: string): void => void state.operations.push({ ...reported, status: 'skipped', reason });
  const reason = skipReason(entry, options, state.drafts.length);
  if (reason !== undefined) return skip(reason);
  const named = toolNameFor(operationId, method, path, state.usedNames);
  if ('skip' in named) return skip(named.skip);
  const { name } = named;
  const steps: string[] = [];
  const lose = (message: string): void => void steps.push(message);
  const notes: [message: string, example: string | undefined][] = [];
  const note = (message: string, example?: string): void => void notes.push([message, example]);
  const { base, schemes, serverAuth, swagger } = setup;
  const result = buildTool(document, path, pathItem, method, operation, { base, schemes, serverAuth, swagger, resolveNames: options.resolveNames, lose, note });
  if ('skip' in result) return skip(result.skip);
  const tag = firstTag(operation);
  if (tag !== undefined) result.tag = tag;
  result.tool = { name, description: describe(operation, `${method.toUpperCase()} ${path}`, note), ...result.tool };
  const refused = refusalAfterOptionalFields(result, serverAuth, lose);
  if (refused !== undefined) return skip(refused);
  state.usedNames.add(name.toLowerCase());
  state.drafts.push(result);
  state.operations.push({ ...reported, status: 'imported', tool: name });
  for (const message of steps) state.lossy.push({ tool: name, message });
  for (const [message, example] of notes) {
    let entry = state.notes.get(message);
    if (entry === undefined) state.notes.set(message, (entry = { tools: new Set(), examples: new Set() }));
    entry.tools.add(name);
    if (example !== undefined) entry.examples.add(example);
  }
}

/**
 * The manifest of the tools: `"0.4"` when it has groups (from tags) or a tool uses a 0.4 field (a query style, a stream), `"0.3"`
 * when one uses a 0.3 field, `"0.2"` for a form body or query auth, else `"0.1"`; parsed once more as a whole.
 */
function manifestOf(drafts: readonly DraftTool[], serverAuth: RcpAuth, groups: readonly TagGroup[]): RcpManifest {
  const uses03 = drafts.some((draft) => OPTIONAL_03_FIELDS.some((field) => draft.tool[field] !== undefined));
  const version =
    groups.length > 0 || drafts.some((draft) => uses04(draft.tool))
      ? '0.4'
      : uses03
        ? '0.3'
        : drafts.some((draft) => draft.usesForm || draft.usesQueryAuth) || serverAuth.type === 'query'
          ? '0.2'
          : '0.1';
  const manifestValue: Json = { rcpVersion: version };
  if (serverAuth.type !== 'none') manifestValue['auth'] = serverAuth;
  if (groups.length > 0) manifestValue['groups'] = groups;
  manifestValue['tools'] = drafts.map((draft) => draft.tool);
  return parseManifest(manifestValue);
}

/** Path params in at least half of the imported tools and at least two, not already resolved: most used first. */
function resolverCandidatesOf(drafts: readonly DraftTool[], resolveNames: ReadonlySet<string>): ResolverCandidate[] {
  const imported = drafts.length;
  const counts = new Map<string, number>();
  for (const draft of drafts) for (const param of new Set(draft.pathParams)) counts.set(param, (counts.get(param) ?? 0) + 1);
  return [...counts]
    .filter(([param, count]) => count >= 2 && count * 2 >= imported && !resolveNames.has(param))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([param, count]) => ({ param, operations: count, of: imported }));
}

/** How many operations were skipped for each reason. */
function skippedByReason(operations: readonly ImportedOperation[]): Record<string, number> {
  const skipped: Record<string, number> = {};
  for (const operation of operations) if (operation.status === 'skipped') skipped[operation.reason!] = (skipped[operation.reason!] ?? 0) + 1;
  return skipped;
}

/**
 * One document warning per naming rule that gave tools their pagination, with how many: the rule
 * reads names, not a declaration, so the person importing should check that the API pages so.
 */
function pagingWarnings(drafts: readonly DraftTool[]): string[] {
  const counts = new Map<string, number>();
  for (const draft of drafts) if (draft.pagingRule !== undefined) counts.set(draft.pagingRule, (counts.get(draft.pagingRule) ?? 0) + 1);
  return [...counts].map(
    ([rule, count]) =>
      `pagination was read from names for ${count} operation(s) (${rule}): check that the API pages this way (a client tells the model the next call from it)`,
  );
}

/**
 * Why rcp-manifest refuses this one tool (checked on its own, with the auth it will have, so that
 * one operation RCP cannot carry is one skip), or undefined when it accepts it: the first issue's
 * pointer inside the tool (`/pagination/param`) and the reason. A tool using a 0.3 field is
 * checked as 0.3, any other as 0.2 (both read every 0.1 tool alike).
 */
function refusal(tool: Json, serverAuth: RcpAuth): { pointer: string; reason: string } | undefined {
  const rcpVersion = uses04(tool) ? '0.4' : OPTIONAL_03_FIELDS.some((field) => tool[field] !== undefined) ? '0.3' : '0.2';
  const checked = safeParseManifest({ rcpVersion, ...(serverAuth.type !== 'none' && { auth: serverAuth }), tools: [tool] });
  if (checked.ok) return undefined;
  const issue = isRcpError(checked.error, 'RCP_INVALID_MANIFEST') ? (checked.error as RcpManifestError).issues[0] : undefined;
  const pointer = issue === undefined ? '' : issue.path.replace(/^\/tools\/0/, '');
  const where = issue === undefined ? '' : `${pointer || '/'}: `;
  return { pointer, reason: `RCP refuses the tool (${where}${(issue?.message ?? checked.error.message).slice(0, 200)})` };
}
