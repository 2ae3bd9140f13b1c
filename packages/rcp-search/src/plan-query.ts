import { splitWords } from './split-words';

/**
 * What one query may cost is decided here, before the index is touched: a query is its distinct
 * terms, each looked up once, and a term searched as a prefix adds one lookup per indexed word it
 * starts. Without these bounds a query of 1,500 repeated words over 1,000 tools blocked the event
 * loop for seconds, and over 5,000 tools a gateway ran out of memory (issue 38).
 */

/**
 * The longest search query, in characters (code points): a task in plain words is a sentence or
 * two. The search tool's schema says it to the model (`maxLength`).
 *
 * @example
 * ```ts
 * import { MAX_QUERY_LENGTH } from 'rcp-search';
 * const query = task.slice(0, MAX_QUERY_LENGTH);
 * ```
 */
export const MAX_QUERY_LENGTH = 1_000;
/**
 * The most different words one search query may have: repeats, stop words and words of one
 * synonym group count once (or not at all). The evaluation's longest task has 9; at 5,000 tools
 * each word costs up to a few milliseconds, so this bounds the slowest query (issue 38).
 *
 * @example
 * ```ts
 * import { MAX_QUERY_WORDS } from 'rcp-search';
 * console.log(`describe the task in at most ${MAX_QUERY_WORDS} words`);
 * ```
 */
export const MAX_QUERY_WORDS = 16;
/** The most indexed words all of one query's prefix terms may expand to together. */
export const MAX_PREFIX_EXPANSIONS = 64;
/** A term of this many characters or more is also searched as a prefix (`repo` → `repos`). */
export const MIN_PREFIX_LENGTH = 4;

/** The terms of the indexed tools, counted once when the search is built. */
export interface CatalogTerms {
  /** How many tools hold each term, in any indexed field. */
  readonly toolsWith: ReadonlyMap<string, number>;
  /** Every term, in code-unit order, so the words a prefix starts are one range. */
  readonly sorted: readonly string[];
}

/**
 * The terms of each tool's indexed fields, processed as the index processes them.
 *
 * @example
 * ```ts
 * const catalog = catalogTerms([{ name: 'deleteNote' }], ['name'], (word) => word);
 * catalog.toolsWith.get('note'); // 1
 * ```
 */
export function catalogTerms<Field extends string>(
  documents: readonly Readonly<Record<Field, string>>[],
  fields: readonly Field[],
  processTerm: (word: string) => string | null,
): CatalogTerms {
  const toolsWith = new Map<string, number>();
  for (const document of documents) {
    const terms = new Set<string>();
    for (const field of fields) for (const term of termsOf(document[field], processTerm)) terms.add(term);
    for (const term of terms) toolsWith.set(term, (toolsWith.get(term) ?? 0) + 1);
  }
  return { toolsWith, sorted: [...toolsWith.keys()].sort() };
}

/** The processed terms of a text, each once (stop words dropped). */
export function termsOf(text: string, processTerm: (word: string) => string | null): Set<string> {
  const terms = new Set<string>();
  for (const word of splitWords(text)) {
    const term = processTerm(word);
    if (term !== null) terms.add(term);
  }
  return terms;
}

/**
 * How many indexed words longer than `term` start with it, counted up to `atMost + 1` (so the
 * count costs a binary search and at most that many steps, whatever the catalog).
 *
 * @example
 * ```ts
 * prefixExpansions({ toolsWith: new Map(), sorted: ['repo', 'repos', 'repository'] }, 'repo', 64); // 2
 * ```
 */
export function prefixExpansions(catalog: CatalogTerms, term: string, atMost: number): number {
  let count = 0;
  for (const _word of wordsStartedBy(catalog.sorted, term)) if (++count > atMost) break;
  return count;
}

/**
 * The words of `sorted` (code-unit order) longer than `prefix` that start with it, in that order: a binary search,
 * then one step per word.
 *
 * @example
 * ```ts
 * [...wordsStartedBy(['repo', 'repos', 'repository', 'rest'], 'repo')]; // ['repos', 'repository']
 * ```
 */
export function* wordsStartedBy(sorted: readonly string[], prefix: string): Generator<string> {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < prefix) low = middle + 1;
    else high = middle;
  }
  for (let i = low; i < sorted.length && sorted[i]!.startsWith(prefix); i++) if (sorted[i] !== prefix) yield sorted[i]!;
}

/** A query as it is searched: its distinct terms, and which of them are also prefixes. */
export interface QueryPlan {
  /** The distinct terms, in query order, processed as the index's words are. */
  readonly terms: readonly string[];
  /** The terms also searched as a prefix. */
  readonly prefixed: ReadonlySet<string>;
  /** The index lookups the query makes: one per term, plus one per word a prefix term expands to. */
  readonly lookups: number;
}

/**
 * A query's plan, or what is wrong with it (past {@link MAX_QUERY_WORDS}). Words are split and
 * processed as the index's are; a term said twice (a repeated word, or two words of one synonym
 * group) is searched once. A term of {@link MIN_PREFIX_LENGTH} characters or more is also a prefix
 * while the words it starts fit in what is left of {@link MAX_PREFIX_EXPANSIONS}, in query order;
 * past that it is matched exactly (a stem that starts that many words says little, and each costs
 * a lookup). The query's length ({@link MAX_QUERY_LENGTH}) is checked before, where the query is.
 *
 * @example
 * ```ts
 * const planned = planQuery('delete delete a note', catalog, { processTerm, prefix: true });
 * if (planned.ok) planned.plan.terms; // ['delete', 'note']
 * ```
 */
export function planQuery(
  query: string,
  catalog: CatalogTerms,
  options: { readonly processTerm: (word: string) => string | null; readonly prefix: boolean },
): { readonly ok: true; readonly plan: QueryPlan } | { readonly ok: false; readonly problem: string } {
  const terms: string[] = [];
  const seen = new Set<string>();
  for (const word of splitWords(query)) {
    const term = options.processTerm(word);
    if (term === null || seen.has(term)) continue;
    if (seen.size === MAX_QUERY_WORDS) {
      return { ok: false, problem: `has more than ${MAX_QUERY_WORDS} different words (repeats and stop words not counted): say the task in fewer words` };
    }
    seen.add(term);
    terms.push(term);
  }
  const prefixed = new Set<string>();
  let expansions = 0;
  if (options.prefix) {
    for (const term of terms) {
      if (term.length < MIN_PREFIX_LENGTH) continue;
      const left = MAX_PREFIX_EXPANSIONS - expansions;
      const count = prefixExpansions(catalog, term, left);
      if (count > left) continue;
      prefixed.add(term);
      expansions += count;
    }
  }
  return { ok: true, plan: { terms, prefixed, lookups: terms.length + expansions } };
}
