import { RcpInvalidArgumentsError, createToolSet, type RcpClientTool, type RcpDiscovery, type RcpToolSet } from 'rcp-client';
import { compileArgumentCheck, compileValueCheck, type RcpParam } from 'rcp-manifest';
import { isRecord } from 'rcp-internal';
import { RcpError } from 'rcp-errors';
import { describeToolHits, type RcpToolHitsDescription } from './describe-tool-hits';
import { createFieldIndex, type TermGroup } from './field-index';
import { MAX_QUERY_LENGTH, MAX_QUERY_WORDS, catalogTerms, planQuery, termsOf, type CatalogTerms, type QueryPlan } from './plan-query';
import { queryIntent, type QueryIntent } from './query-intent';
import { splitWords } from './split-words';
import { stem } from './stem';
import { DEFAULT_SYNONYMS, STOP_WORDS } from './synonyms';

/**
 * The text of a tool that search reads: its `name` (split on camelCase, `_`, `-`), its
 * `namespace` (the tool set's prefix, if any, and the manifest's host), its `description`, the
 * names and descriptions of its model-facing `params` (never a resolver-bound one), its `group`
 * (RCP 0.4, SPEC §20.3: the group's name and description, the text an OpenAPI tag gives every
 * operation of it), and `method` (the HTTP method as a verb: GET → get, POST → create, PUT / PATCH →
 * update, DELETE → delete).
 *
 * @example
 * ```ts
 * const field: RcpToolSearchField = 'description';
 * ```
 */
export type RcpToolSearchField = 'name' | 'namespace' | 'description' | 'params' | 'group' | 'method';

/**
 * One tool found: its model-facing name in the tool set, the score (higher is better; only
 * comparable within one search) and the tool itself.
 *
 * @example
 * ```ts
 * const [best] = await search.search('open a bug report');
 * await client.call(toolSet, { name: best!.name, arguments: '{"title":"Crash"}' }, ctx);
 * ```
 */
export interface RcpToolSearchHit {
  readonly name: string;
  readonly score: number;
  readonly tool: RcpClientTool;
}

/**
 * An operator's own ranking (an embedding index, a usage log): given the query and the lexical
 * candidates (best first), it returns the names to give, best first. It may add names of the
 * tool set that lexical search missed; a name outside the set is refused with
 * `RCP_UNKNOWN_TOOL`, so a ranker can reorder the tools of a set but never widen it.
 *
 * @example
 * ```ts
 * const rank: RcpToolRanker = async (query, candidates) => {
 *   const vector = await embed(query);
 *   return [...candidates].sort((a, b) => similarity(vector, b.name) - similarity(vector, a.name)).map((hit) => hit.name);
 * };
 * ```
 */
export type RcpToolRanker = (
  query: string,
  candidates: readonly RcpToolSearchHit[],
  context: { readonly toolSet: RcpToolSet; readonly limit: number },
) => readonly string[] | Promise<readonly string[]>;

/**
 * Options of {@link createToolSearch}.
 *
 * @example
 * ```ts
 * createToolSearch(toolSet, { boost: { params: 0 }, synonyms: [...DEFAULT_SYNONYMS, ['invoice', 'bill']] });
 * ```
 */
export interface RcpToolSearchOptions {
  /**
   * Weight of each field; `0` leaves a field out of the index. `method` is off by default: on
   * the project's evaluation it lifted no recall and made each query at 5,000 tools slower (every
   * tool matches some verb).
   * @default { name: 3, namespace: 1, description: 1, params: 0.5, group: GROUP_BOOST, method: 0 }
   */
  boost?: Partial<Record<RcpToolSearchField, number>>;
  /**
   * Word groups searched as one term. `false`: none.
   * @default DEFAULT_SYNONYMS
   */
  synonyms?: readonly (readonly string[])[] | false;
  /**
   * Reduce words to a light stem (plurals, -ed, -ing) so `repositories` finds `repository`.
   * @default true
   */
  stemming?: boolean;
  /**
   * Also match words that start with a query word of four letters or more (`repo` → `repos`).
   * One query's prefixes together match at most 64 indexed words, in query order; a word whose
   * matches would go past that is matched exactly.
   * @default true
   */
  prefix?: boolean;
  /**
   * Re-rank the best lexical candidates by how much of the tool's own name the query says: each
   * score is multiplied by 1 + the share of the name's words (stop words out, stemmed, synonyms
   * applied) that are in the query, so `delete a repository` puts `repos_delete` before
   * `repos_delete-file`.
   * @default true
   */
  nameCoverage?: boolean;
  /**
   * Prefer reads for a read question: when the query asks to see, list, find or check (its first
   * action verb is one of the `list`, `get` or `search` groups, or `check`; with no action verb,
   * a question word such as `what` or `how`), each of the best lexical candidates that changes
   * something (not read-only by the client's rule: a POST, PUT, PATCH or DELETE without a
   * `readOnly` claim) and whose name does not say the query's read verb (`searchIssues` for
   * "find issues") has its score halved, and such a write is never first while a candidate is
   * not one. It reorders candidates only: no lookup is added to a query.
   * @default true
   */
  methodAware?: boolean;
  /**
   * A query word whose term is in more than this share of the tools, and in more than 100 of
   * them (a verb like `get`, a noun like `user` in a large catalog), is searched in tool names only, where it still tells tools
   * apart; in descriptions and params it adds little to the ranking and most of the time of a
   * query. `1` searches every word in every field.
   * @default 0.1
   */
  commonWords?: number;
  /** An operator's own ranking over the lexical candidates. @default none (lexical order) */
  rank?: RcpToolRanker;
  /**
   * How many lexical candidates name coverage re-ranks and the ranker sees.
   * @default 50
   */
  candidates?: number;
  /**
   * What `handleCall` answers for each hit: by default the compact line (name, the description's
   * first sentence, the param names, required ones marked); `true`: the whole description and the
   * input schema — only for a loop where the model calls a found tool from the answer alone (no
   * describe step, no deferred loading): see `describeToolHits`.
   * @default false
   */
  inputSchemas?: boolean;
}

/**
 * Options of one search.
 *
 * @example
 * ```ts
 * await search.search('refund a payment', { limit: 3 });
 * ```
 */
export interface RcpSearchOptions {
  /**
   * Most hits, 1 to 50.
   * @default 5
   */
  limit?: number;
}

/**
 * Search over one tool set, its index built once when it is created. Searching never changes
 * what a call may do: a hit is a name of `toolSet`, called through `client.call(toolSet, …)`
 * like any other, with the same stages, resolvers and trust rules.
 *
 * @example
 * ```ts
 * const search = createToolSearch(toolSet);
 * const hits = await search.search('who starred this repository');
 * ```
 */
export interface RcpToolSearch {
  /** The tool set searched. */
  readonly toolSet: RcpToolSet;
  /**
   * The best tools for a task, best first (ties in tool-set order); `[]` when no word matches.
   * A query is at most {@link MAX_QUERY_LENGTH} characters and {@link MAX_QUERY_WORDS} different
   * words (repeats and stop words not counted); each distinct word is searched once, and a
   * query's prefix matches are bounded, so the work of one query is bounded whatever it says.
   * @throws RcpError `RCP_INVALID_OPTIONS` (a query that is not a string, longer than 1,000 characters or of more than 16 different words; a bad limit); `RCP_UNKNOWN_TOOL` (a ranker's name outside the set).
   * @example
   * ```ts
   * const names = (await search.search('add a comment to an issue')).map((hit) => hit.name);
   * ```
   */
  search(query: string, options?: RcpSearchOptions): Promise<readonly RcpToolSearchHit[]>;
  /**
   * Answers a model's call of the search tool ({@link toolSearchDefinition}): checks the
   * arguments (`query`, optional `limit`), searches and returns what the model reads — each hit's
   * name, one-line description and param names (`describeToolHits`; the input schemas with the
   * `inputSchemas` option).
   * @throws RcpInvalidArgumentsError `RCP_INVALID_ARGUMENTS` for arguments that do not match the search tool's schema, or a `query` of more than 16 different words.
   * @example
   * ```ts
   * const { text } = await search.handleCall({ query: 'refund a charge' });
   * ```
   */
  handleCall(args: unknown): Promise<RcpToolHitsDescription>;
}

/**
 * The group field's weight, small: a group's text is shared by every tool of the group, so it tells a group's tools
 * from the others', never one tool from its neighbours; it matters where a tool's own text lacks the query's words.
 * On the project's evaluation (OpenAPI tags as groups) weights 0 to 1 move recall@5 by at most 0.02 either way.
 */
const GROUP_BOOST = 0.25;
const DEFAULT_BOOST: Readonly<Record<RcpToolSearchField, number>> = { name: 3, namespace: 1, description: 1, params: 0.5, group: GROUP_BOOST, method: 0 };
const FIELDS: readonly RcpToolSearchField[] = ['name', 'namespace', 'description', 'params', 'group', 'method'];
const METHOD_WORDS: Readonly<Record<string, string>> = { GET: 'get', POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' };
const MAX_LIMIT = 50;
/** `commonWords` leaves a term in every field while it is in at most this many tools (a small set is fast anyway). */
const COMMON_MIN_TOOLS = 100;
/** The search tool's name in {@link toolSearchDefinition} and in argument errors. */
export const SEARCH_TOOL_NAME = 'search_tools';

interface IndexedTool {
  readonly name: string;
  readonly namespace: string;
  readonly description: string;
  readonly params: string;
  readonly group: string;
  readonly method: string;
}

/** The options, checked once, with their defaults. */
interface SearchSettings {
  readonly boost: Record<RcpToolSearchField, number>;
  readonly fields: readonly RcpToolSearchField[];
  readonly processTerm: (word: string) => string | null;
  readonly prefix: boolean;
  readonly rank: RcpToolRanker | undefined;
  readonly commonWords: number;
  readonly candidates: number;
  readonly nameCoverage: boolean;
  readonly methodAware: boolean;
  readonly inputSchemas: boolean;
}

/** A query's plan and its intent (a read question or not). */
interface PlannedQuery {
  readonly plan: QueryPlan;
  readonly intent: QueryIntent;
}

/** The lexical search over one index: a query's plan, and the best `limit` hits of a plan, ties in tool-set order. */
interface LexicalSearch {
  readonly plan: (query: string) => { readonly ok: true; readonly planned: PlannedQuery } | { readonly ok: false; readonly problem: string };
  readonly search: (planned: PlannedQuery, limit: number) => RcpToolSearchHit[];
}

/** A write's score for a read question that its name does not answer: halved (and never first while a candidate is not one). */
const UNASKED_WRITE_FACTOR = 0.5;

/**
 * Builds the search over a tool set (or the discoveries `createToolSet` takes). The index is
 * built here, once, and lives in the returned object.
 *
 * @throws RcpError `RCP_INVALID_OPTIONS` for a bad option (a negative boost, a synonym group that is not a list of words).
 * @example
 * ```ts
 * import { createToolSearch } from 'rcp-search';
 *
 * const search = createToolSearch(createToolSet([github, stripe]));
 * const [hit] = await search.search('refund a charge');
 * ```
 */
export function createToolSearch(source: RcpToolSet | RcpDiscovery | readonly RcpDiscovery[], options: RcpToolSearchOptions = {}): RcpToolSearch {
  const settings = settingsOf(options);
  const toolSet = createToolSet(source);
  const lexical = lexicalSearch(toolSet, settings);
  const { rank, candidates } = settings;

  // Both entries check the query before any work: its length by the search tool's own schema,
  // then its distinct words by the plan. Only the error differs: the caller's options, or the model's arguments.
  const searchPlanned = async (query: string, planned: PlannedQuery, limit: number): Promise<readonly RcpToolSearchHit[]> => {
    if (rank === undefined) return Object.freeze(lexical.search(planned, limit));
    const found = lexical.search(planned, Math.max(candidates, limit));
    const names = await rank(query, Object.freeze(found), Object.freeze({ toolSet, limit }));
    return rankedHits(toolSet, found, names, limit);
  };
  const search = async (query: string, searchOptions: RcpSearchOptions = {}): Promise<readonly RcpToolSearchHit[]> => {
    const [issue] = checkQuery(query, '');
    if (issue !== undefined) throw new RcpError('RCP_INVALID_OPTIONS', `the search query ${issue.message}`);
    if (typeof searchOptions !== 'object' || searchOptions === null) throw new RcpError('RCP_INVALID_OPTIONS', 'search options must be an object');
    const limit = searchOptions.limit ?? 5;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
      throw new RcpError('RCP_INVALID_OPTIONS', `limit must be an integer from 1 to ${MAX_LIMIT}`);
    const planned = lexical.plan(query);
    if (!planned.ok) throw new RcpError('RCP_INVALID_OPTIONS', `the search query ${planned.problem}`);
    return searchPlanned(query, planned.planned, limit);
  };
  const handleCall = async (args: unknown): Promise<RcpToolHitsDescription> => {
    const { query, limit } = searchToolArguments(args);
    const planned = lexical.plan(query);
    if (!planned.ok) throw new RcpInvalidArgumentsError(SEARCH_TOOL_NAME, [{ path: '/query', message: planned.problem }]);
    return describeToolHits(await searchPlanned(query, planned.planned, limit ?? 5), { inputSchemas: settings.inputSchemas });
  };
  return Object.freeze({ toolSet, search, handleCall });
}

function settingsOf(options: RcpToolSearchOptions): SearchSettings {
  if (typeof options !== 'object' || options === null) throw new RcpError('RCP_INVALID_OPTIONS', 'createToolSearch options must be an object');
  const boost = boostOf(options.boost);
  const stemming = options.stemming !== false;
  const synonyms = synonymMap(options.synonyms ?? DEFAULT_SYNONYMS, stemming);
  const { rank } = options;
  if (rank !== undefined && typeof rank !== 'function')
    throw new RcpError('RCP_INVALID_OPTIONS', 'rank must be a function (query, candidates, context) => names');
  const commonWords = options.commonWords ?? 0.1;
  if (typeof commonWords !== 'number' || !(commonWords > 0 && commonWords <= 1))
    throw new RcpError('RCP_INVALID_OPTIONS', 'commonWords must be a share of the tools, above 0 and at most 1');
  const candidates = options.candidates ?? 50;
  if (!Number.isInteger(candidates) || candidates < 1) throw new RcpError('RCP_INVALID_OPTIONS', 'candidates must be a positive integer');
  if (options.inputSchemas !== undefined && typeof options.inputSchemas !== 'boolean')
    throw new RcpError('RCP_INVALID_OPTIONS', 'inputSchemas must be a boolean');
  const processTerm = (word: string): string | null => {
    if (STOP_WORDS.has(word)) return null;
    const stemmed = stemming ? stem(word) : word;
    return synonyms.get(stemmed) ?? stemmed;
  };
  const fields = FIELDS.filter((field) => boost[field] > 0);
  return {
    boost,
    fields,
    processTerm,
    prefix: options.prefix !== false,
    rank,
    commonWords,
    candidates,
    nameCoverage: options.nameCoverage !== false,
    methodAware: options.methodAware !== false,
    inputSchemas: options.inputSchemas === true,
  };
}

/** The index over the tool set's entries, and the lexical search over it (BM25 over the fields, then the re-ranks). */
function lexicalSearch(toolSet: RcpToolSet, settings: SearchSettings): LexicalSearch {
  const { boost, fields, processTerm, candidates } = settings;
  const entries = toolSet.entries;
  const documents = entries.map((entry) => indexedTool(entry.name, entry.tool));
  const catalog = catalogTerms(documents, fields, processTerm);
  const index = createFieldIndex(
    documents,
    fields,
    fields.map((field) => boost[field]),
    processTerm,
    catalog,
  );
  const groupsOf = commonWordGroups(catalog, documents.length, settings);
  const reranks = settings.nameCoverage || settings.methodAware;
  const nameTerms = reranks ? entries.map((entry) => [...termsOf(entry.tool.name, processTerm)]) : undefined;
  // A tool that changes something: not read-only by the client's rule, nor by the manifest's claim.
  const writes = entries.map((entry) => !entry.tool.effects.readOnly && entry.tool.declaredEffects?.readOnly !== true);
  const byScore = (a: { score: number; id: number }, b: { score: number; id: number }) => b.score - a.score || a.id - b.id;

  const search = ({ plan, intent }: PlannedQuery, limit: number): RcpToolSearchHit[] => {
    // Only the best `keep` can be hits (ties in tool-set order); the re-ranks see the candidates.
    const keep = nameTerms === undefined ? limit : Math.max(candidates, limit);
    let ranked: { id: number; score: number }[] = index.score(groupsOf(plan.terms), plan.prefixed, keep);
    if (nameTerms !== undefined) {
      const asked = new Set(plan.terms);
      // A write is unasked for a read question unless its name says the question's read verb.
      const unasked = (id: number): boolean =>
        settings.methodAware && intent.read && writes[id]! && (intent.verbTerm === undefined || !nameTerms[id]!.includes(intent.verbTerm));
      const top = ranked.map(({ id, score }) => {
        const words = nameTerms[id]!;
        const covered = !settings.nameCoverage || words.length === 0 ? 0 : words.filter((term) => asked.has(term)).length / words.length;
        return { id, score: score * (1 + covered), unasked: unasked(id) };
      });
      ranked = unaskedWritesBelow(top).sort(byScore);
    }
    return ranked.slice(0, limit).map(({ id, score }) => {
      const entry = entries[id]!;
      return Object.freeze({ name: entry.name, score, tool: entry.tool });
    });
  };
  const plan = (query: string): ReturnType<LexicalSearch['plan']> => {
    const planned = planQuery(query, catalog, { processTerm, prefix: settings.prefix });
    return planned.ok ? { ok: true, planned: { plan: planned.plan, intent: queryIntent(query, processTerm) } } : planned;
  };
  return { plan, search };
}

/**
 * The candidates with each unasked write's score halved, and, when the best of them would still
 * reach the best other candidate, all of them scaled alike just below it: a write is never first
 * while a candidate is not one, the writes keep their order among themselves, and the scores stay
 * in rank order.
 */
function unaskedWritesBelow(candidates: readonly { id: number; score: number; unasked: boolean }[]): { id: number; score: number }[] {
  let bestAsked = 0;
  let bestUnasked = 0;
  for (const { score, unasked } of candidates) {
    if (unasked) bestUnasked = Math.max(bestUnasked, score * UNASKED_WRITE_FACTOR);
    else bestAsked = Math.max(bestAsked, score);
  }
  const below = bestAsked > 0 && bestUnasked >= bestAsked ? (bestAsked / bestUnasked) * 0.99 : 1;
  return candidates.map(({ id, score, unasked }) => ({ id, score: unasked ? score * UNASKED_WRITE_FACTOR * below : score }));
}

/**
 * The query's terms as the index scores them, for `commonWords`: a term in more than that share of the tools (any
 * field) is looked up in the name only, after the others, which are looked up in every field.
 */
function commonWordGroups(catalog: CatalogTerms, tools: number, settings: SearchSettings): (terms: readonly string[]) => TermGroup[] {
  const { commonWords, fields } = settings;
  const every = fields.map((_field, index) => index);
  const nameOnly = fields.includes('name') ? [fields.indexOf('name')] : [];
  if (commonWords >= 1 || nameOnly.length === 0 || tools <= COMMON_MIN_TOOLS) return (terms) => [{ terms, fields: every }];
  const commonLimit = Math.max(commonWords * tools, COMMON_MIN_TOOLS);
  return (terms) => {
    const rare: string[] = [];
    const common: string[] = [];
    for (const term of terms) ((catalog.toolsWith.get(term) ?? 0) > commonLimit ? common : rare).push(term);
    return [
      { terms: rare, fields: every },
      { terms: common, fields: nameOnly },
    ];
  };
}

/** The ranker's names as hits: each known once, in its order, at most `limit`; its scores are the lexical ones (0 for a name it added). */
function rankedHits(toolSet: RcpToolSet, found: readonly RcpToolSearchHit[], names: unknown, limit: number): readonly RcpToolSearchHit[] {
  if (!Array.isArray(names)) throw new RcpError('RCP_INVALID_OPTIONS', 'rank must return a list of tool names');
  const scoreOf = new Map(found.map((hit) => [hit.name, hit.score]));
  const hits: RcpToolSearchHit[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    if (typeof name !== 'string') throw new RcpError('RCP_INVALID_OPTIONS', 'rank must return a list of tool names');
    const tool = toolSet.tool(name);
    if (seen.has(name)) continue;
    seen.add(name);
    hits.push(Object.freeze({ name, score: scoreOf.get(name) ?? 0, tool }));
    if (hits.length === limit) break;
  }
  return Object.freeze(hits);
}

/** The search tool's params: what its definition shows the model (`SEARCH_TOOL_SCHEMAS`) and what its calls are checked against. */
export const SEARCH_TOOL_SCHEMAS = Object.freeze({
  query: Object.freeze({
    type: 'string' as const,
    description: `The task, in plain words (e.g. "refund a payment"), at most ${MAX_QUERY_WORDS} different words`,
    maxLength: MAX_QUERY_LENGTH,
  }),
  limit: Object.freeze({ type: 'integer' as const, description: 'Most tools to return (default 5)', minimum: 1, maximum: MAX_LIMIT }),
});
const SEARCH_TOOL_PARAMS: readonly RcpParam[] = [
  { name: 'query', required: true, ...SEARCH_TOOL_SCHEMAS.query },
  { name: 'limit', ...SEARCH_TOOL_SCHEMAS.limit },
];

/** The search tool's arguments (an object or its JSON text), checked by rcp-manifest's argument check. */
const checkSearchArguments = compileArgumentCheck(SEARCH_TOOL_PARAMS);
/** The query alone, by the same schema, for `search()`: a string of at most {@link MAX_QUERY_LENGTH} characters. */
const checkQuery = compileValueCheck(SEARCH_TOOL_PARAMS[0]!);

function searchToolArguments(args: unknown): { query: string; limit: number | undefined } {
  const checked = checkSearchArguments(args);
  if (!checked.ok) throw new RcpInvalidArgumentsError(SEARCH_TOOL_NAME, checked.issues, checked.cause === undefined ? undefined : { cause: checked.cause });
  return { query: checked.values['query'] as string, limit: checked.values['limit'] as number | undefined };
}

function boostOf(given: RcpToolSearchOptions['boost']): Record<RcpToolSearchField, number> {
  if (given === undefined) return { ...DEFAULT_BOOST };
  if (!isRecord(given)) throw new RcpError('RCP_INVALID_OPTIONS', 'boost must be an object of field weights');
  const boost = { ...DEFAULT_BOOST };
  for (const [field, weight] of Object.entries(given)) {
    if (!FIELDS.includes(field as RcpToolSearchField))
      throw new RcpError('RCP_INVALID_OPTIONS', `boost: unknown field ${JSON.stringify(field)} (${FIELDS.join(', ')})`);
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) throw new RcpError('RCP_INVALID_OPTIONS', `boost.${field} must be a number ≥ 0`);
    boost[field as RcpToolSearchField] = weight;
  }
  if (FIELDS.every((field) => boost[field] === 0)) throw new RcpError('RCP_INVALID_OPTIONS', 'boost leaves no field to search');
  return boost;
}

/** Each word of a group (stemmed as the index stems) → the group's first word. */
function synonymMap(groups: readonly (readonly string[])[] | false, stemming: boolean): Map<string, string> {
  const map = new Map<string, string>();
  if (groups === false) return map;
  if (!Array.isArray(groups)) throw new RcpError('RCP_INVALID_OPTIONS', 'synonyms must be a list of word groups, or false');
  groups.forEach((group, index) => {
    if (!Array.isArray(group) || group.length === 0 || !group.every((word) => typeof word === 'string' && splitWords(word).length === 1)) {
      throw new RcpError('RCP_INVALID_OPTIONS', `synonyms[${index}] must be a non-empty list of single words`);
    }
    const key = (word: string) => {
      const [lower] = splitWords(word);
      return stemming ? stem(lower!) : lower!;
    };
    const canonical = key(group[0]!);
    for (const word of group) if (!map.has(key(word))) map.set(key(word), canonical);
  });
  return map;
}

function indexedTool(name: string, tool: RcpClientTool): IndexedTool {
  const prefix = name === tool.name ? '' : name.slice(0, name.length - tool.name.length);
  const host = hostOf(tool.manifestUrl);
  const params = Object.entries(tool.inputSchema.properties)
    .map(([param, schema]) => `${param} ${schema.description ?? ''}`)
    .join(' ');
  const group = tool.group === undefined ? '' : `${tool.group.name} ${tool.group.description}`;
  return { name: tool.name, namespace: `${prefix} ${host}`, description: tool.description, params, group, method: METHOD_WORDS[tool.method] ?? '' };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}
