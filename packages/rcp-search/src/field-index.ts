import { wordsStartedBy, type CatalogTerms } from './plan-query';
import { splitWords } from './split-words';

/**
 * The lexical index of one tool set: per term and field, the tools that hold it and each one's BM25 score, computed
 * once when the search is built. A query then adds up the scores of the tools that hold one of its terms and keeps
 * the best few; it never visits a tool that holds none, nor allocates anything per tool (issue 41: a query took
 * 3.9 ms of CPU at 5,000 tools, most of it building and sorting a result object for every matching tool).
 *
 * *Decision:* the scores are the ones MiniSearch 7.2 (what rcp-search used before) gives for the same documents,
 * options and query, so every ranking stays as it was: BM25 with its constants (k 1.2, b 0.7, d 0.5); a field's
 * length is its distinct words before stop words and stemming; the document frequency is counted per field; a prefix
 * match weighs `0.3 · length / (length + 0.3 · extra letters)`; each tool's sum is multiplied by how many of the
 * query's terms it matched; and the sums are added in MiniSearch's order (per term, per field; the common words'
 * sum after the others'). A score can differ from MiniSearch's in its last bit only, where a term's prefix matches
 * are added in another order (sorted here, MiniSearch's tree order there). `field-index.test.ts` checks the scores
 * against MiniSearch's own.
 */

const K = 1.2;
const B = 0.7;
const D = 0.5;
/** A prefix match's weight at distance 0 (what rcp-search gave MiniSearch as `weights.prefix`). */
const PREFIX_WEIGHT = 0.3;

/** The tools that hold a term in one field, in tool-set order, and each one's BM25 score there. */
interface Postings {
  readonly tools: Int32Array;
  readonly scores: Float64Array;
}

/** A group of query terms searched in the same fields (the common words are searched in names only). */
export interface TermGroup {
  readonly terms: readonly string[];
  /** The fields, as indexes into the index's fields, in the index's field order. */
  readonly fields: readonly number[];
}

/** One scored tool. */
export interface ScoredTool {
  readonly id: number;
  readonly score: number;
}

/**
 * The index and its scoring. Scratch space for one query at a time lives in it (a query is scored synchronously,
 * start to end), sized once by the tool count.
 */
export interface FieldIndex {
  /**
   * The best `keep` tools for the query's term groups, best first, ties in tool-set order (lower id first); a term of
   * `prefixed` also matches the catalog's words it starts. Group sums are added in group order.
   */
  readonly score: (groups: readonly TermGroup[], prefixed: ReadonlySet<string>, keep: number) => ScoredTool[];
}

/**
 * Builds the index over documents (one per tool, in tool-set order) for the given fields, each field's text split by
 * {@link splitWords} and its words processed by `processTerm` (a word it maps to `null` is not indexed), with each
 * field's weight. `catalog` is the terms' sorted list, for prefix matches.
 *
 * @example
 * ```ts
 * const index = createFieldIndex([{ name: 'delete note' }], ['name'], [3], (word) => word, catalog);
 * index.score([{ terms: ['note'], fields: [0] }], new Set(), 5); // [{ id: 0, score: … }]
 * ```
 */
export function createFieldIndex<Field extends string>(
  documents: readonly Readonly<Record<Field, string>>[],
  fields: readonly Field[],
  weights: readonly number[],
  processTerm: (word: string) => string | null,
  catalog: CatalogTerms,
): FieldIndex {
  const tools = documents.length;
  const postings = buildPostings(documents, fields, processTerm);

  // Scratch for one query: a term's score per tool, the query's sum per tool and group, the terms each tool matched.
  const termScore = new Float64Array(tools);
  const termHas = new Uint8Array(tools);
  const termTools = new Int32Array(tools);
  const groupScores = [new Float64Array(tools), new Float64Array(tools)];
  const matched = new Int32Array(tools);
  const touched = new Int32Array(tools);
  const heap = new Int32Array(tools);
  const total = new Float64Array(tools);

  const score = (groups: readonly TermGroup[], prefixed: ReadonlySet<string>, keep: number): ScoredTool[] => {
    if (groups.length > groupScores.length) throw new Error('at most two term groups');
    let touchedCount = 0;
    groups.forEach((group, g) => {
      const sum = groupScores[g]!;
      for (const term of group.terms) {
        let termCount = 0;
        const add = (found: readonly (Postings | undefined)[] | undefined, weight: number) => {
          if (found === undefined) return;
          for (const field of group.fields) {
            const list: Postings | undefined = found[field];
            if (list === undefined) continue;
            const fieldWeight = weight * weights[field]!;
            const ids: Int32Array = list.tools;
            const scores: Float64Array = list.scores;
            for (let i = 0; i < ids.length; i++) {
              const id = ids[i]!;
              const weighted = fieldWeight * scores[i]!;
              if (termHas[id] === 0) {
                termHas[id] = 1;
                termScore[id] = weighted;
                termTools[termCount++] = id;
              } else termScore[id] = termScore[id]! + weighted;
            }
          }
        };
        add(postings.get(term), 1);
        if (prefixed.has(term)) {
          for (const word of wordsStartedBy(catalog.sorted, term)) {
            add(postings.get(word), (PREFIX_WEIGHT * word.length) / (word.length + 0.3 * (word.length - term.length)));
          }
        }
        for (let i = 0; i < termCount; i++) {
          const id = termTools[i]!;
          if (matched[id] === 0) touched[touchedCount++] = id;
          matched[id] = matched[id]! + 1;
          sum[id] = sum[id]! + termScore[id]!;
          termHas[id] = 0;
        }
      }
    });
    // Each tool's score, its sums times the terms it matched; then the best `keep` (a heap whose root is the worst).
    const [first, second] = groupScores as [Float64Array, Float64Array];
    const worse = (a: number, b: number) => total[a]! < total[b]! || (total[a] === total[b] && a > b);
    let size = 0;
    for (let i = 0; i < touchedCount; i++) {
      const id = touched[i]!;
      total[id] = (first[id]! + second[id]!) * matched[id]!;
      first[id] = 0;
      second[id] = 0;
      matched[id] = 0;
      if (size < keep) {
        let at = size++;
        while (at > 0) {
          const parent = (at - 1) >> 1;
          if (!worse(id, heap[parent]!)) break;
          heap[at] = heap[parent]!;
          at = parent;
        }
        heap[at] = id;
      } else if (size > 0 && worse(heap[0]!, id)) {
        siftDown(heap, size, id, worse);
      }
    }
    const best: ScoredTool[] = [];
    for (let i = 0; i < size; i++) best.push({ id: heap[i]!, score: total[heap[i]!]! });
    return best.sort((a, b) => b.score - a.score || a.id - b.id);
  };
  return { score };
}

/** Puts `id` at the heap's root and moves it down to its place (the heap's root is its worst). */
function siftDown(heap: Int32Array, size: number, id: number, worse: (a: number, b: number) => boolean): void {
  let at = 0;
  for (;;) {
    const left = 2 * at + 1;
    if (left >= size) break;
    const right = left + 1;
    const child = right < size && worse(heap[right]!, heap[left]!) ? right : left;
    if (!worse(heap[child]!, id)) break;
    heap[at] = heap[child]!;
    at = child;
  }
  heap[at] = id;
}

/**
 * Per term, per field: the tools holding it and their BM25 scores. A field's average length is accumulated tool by
 * tool as MiniSearch does, so each score is the number it computed.
 */
function buildPostings<Field extends string>(
  documents: readonly Readonly<Record<Field, string>>[],
  fields: readonly Field[],
  processTerm: (word: string) => string | null,
): Map<string, (Postings | undefined)[]> {
  const tools = documents.length;
  // term → per field: tool ids and term frequencies, in tool order.
  const counts = new Map<string, ({ ids: number[]; frequencies: number[] } | undefined)[]>();
  const lengths = fields.map(() => new Float64Array(tools));
  const average = fields.map(() => 0);
  documents.forEach((document, id) => {
    fields.forEach((field, f) => {
      const words = splitWords(document[field]);
      const length = new Set(words).size;
      lengths[f]![id] = length;
      average[f] = (average[f]! * id + length) / (id + 1);
      for (const word of words) {
        const term = processTerm(word);
        if (term === null) continue;
        let perField = counts.get(term);
        if (perField === undefined) counts.set(term, (perField = fields.map(() => undefined)));
        let entry = perField[f];
        if (entry === undefined) perField[f] = entry = { ids: [], frequencies: [] };
        if (entry.ids.at(-1) === id) entry.frequencies[entry.frequencies.length - 1]!++;
        else {
          entry.ids.push(id);
          entry.frequencies.push(1);
        }
      }
    });
  });
  const postings = new Map<string, (Postings | undefined)[]>();
  for (const [term, perField] of counts) {
    postings.set(
      term,
      perField.map((entry, f) => {
        if (entry === undefined) return undefined;
        const holding = entry.ids.length;
        const inverse = Math.log(1 + (tools - holding + 0.5) / (holding + 0.5));
        const scores = new Float64Array(holding);
        entry.ids.forEach((id, i) => {
          const frequency = entry.frequencies[i]!;
          scores[i] = inverse * (D + (frequency * (K + 1)) / (frequency + K * (1 - B + (B * lengths[f]![id]!) / average[f]!)));
        });
        return { tools: Int32Array.from(entry.ids), scores };
      }),
    );
  }
  return postings;
}
