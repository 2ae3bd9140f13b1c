/**
 * The index scores what MiniSearch 7.2 scored (issue 41: the query path was rewritten for speed, and no ranking may
 * change). MiniSearch is the reference here, configured as rcp-search configured it before: the same fields, weights,
 * word splitting and processing, prefix weight 0.3, OR, and the common words searched in names only as a nested query.
 */
import MiniSearch, { type Query } from 'minisearch';
import { describe, expect, it } from 'vitest';
import { createFieldIndex, type TermGroup } from './field-index';
import { catalogTerms } from './plan-query';
import { splitWords } from './split-words';
import { STOP_WORDS } from './synonyms';

type Field = 'name' | 'namespace' | 'description' | 'params' | 'group';
const FIELDS: readonly Field[] = ['name', 'namespace', 'description', 'params', 'group'];
const WEIGHTS = [3, 1, 1, 0.5, 0.25];
/** Words that share prefixes (`repo`, `repos`, `repository`, `report` …), stop words among them, some in many tools. */
const WORDS = [
  'repo',
  'repos',
  'repository',
  'report',
  'reports',
  'record',
  'recording',
  'get',
  'list',
  'create',
  'delete',
  'update',
  'user',
  'users',
  'issue',
  'issues',
  'comment',
  'invoice',
  'invoices',
  'customer',
  'payment',
  'refund',
  'the',
  'of',
  'a',
  'for',
  'team',
  'teams',
  'member',
  'membership',
  'webhook',
  'event',
  'events',
  'label',
  'labels',
  'star',
  'stargazer',
  'branch',
  'branches',
  'protection',
];

/** A deterministic sequence in [0, 1) (a linear congruential generator), so a failure is repeatable. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const next = random(41);
const pick = (count: number) => Array.from({ length: count }, () => WORDS[Math.floor(next() * WORDS.length)]!);
/** 400 documents: short names, longer descriptions with repeats, empty fields now and then, and exact duplicates. */
const documents: Record<Field, string>[] = Array.from({ length: 400 }, (_, id) => ({
  name: pick(1 + Math.floor(next() * 3)).join('_'),
  namespace: id % 3 === 0 ? '' : `api${id % 5}.example.com`,
  description: pick(Math.floor(next() * 12)).join(' '),
  params: pick(Math.floor(next() * 4)).join(' '),
  group: id % 7 === 0 ? '' : pick(2).join(' '),
}));
documents.push({ ...documents[10]! }, { ...documents[11]! });

const processTerm = (word: string): string | null => (STOP_WORDS.has(word) ? null : word);
const catalog = catalogTerms(documents, FIELDS, processTerm);

/** rcp-search's lexical search before issue 41: MiniSearch, its query, and the best `keep` in tool-set order on ties. */
function referenceSearch(): (groups: readonly TermGroup[], prefixed: ReadonlySet<string>, keep: number) => { id: number; score: number }[] {
  const index = new MiniSearch<Record<Field, string> & { id: number }>({
    fields: [...FIELDS],
    tokenize: splitWords,
    processTerm,
    searchOptions: { boost: Object.fromEntries(FIELDS.map((field, i) => [field, WEIGHTS[i]!])), combineWith: 'OR', weights: { fuzzy: 0, prefix: 0.3 } },
  });
  index.addAll(documents.map((document, id) => ({ id, ...document })));
  return (groups, prefixed, keep) => {
    const [rare, common] = groups;
    const query: Query =
      common === undefined
        ? rare!.terms.join(' ')
        : { combineWith: 'OR', queries: [rare!.terms.join(' '), { queries: [common.terms.join(' ')], fields: ['name'] }] };
    const results = index.search(query, { tokenize: (text) => text.split(' '), processTerm: (term) => term, prefix: (term) => prefixed.has(term) });
    return results
      .map((result) => ({ id: result.id as number, score: result.score }))
      .sort((a, b) => b.score - a.score || a.id - b.id)
      .slice(0, keep);
  };
}

describe('the field index', () => {
  const index = createFieldIndex(documents, FIELDS, WEIGHTS, processTerm, catalog);
  const reference = referenceSearch();
  const terms = [...new Set(WORDS.map(processTerm).filter((term): term is string => term !== null))];

  it('ranks 400 random queries as MiniSearch did, with the same scores: plain, with prefixes, with common words in names only', () => {
    const draw = random(7);
    let compared = 0;
    for (let q = 0; q < 400; q++) {
      const chosen = [...new Set(Array.from({ length: 1 + Math.floor(draw() * 6) }, () => terms[Math.floor(draw() * terms.length)]!))];
      const prefixed = new Set(q % 2 === 0 ? chosen.filter((term) => term.length >= 4 && draw() < 0.6) : []);
      const split = q % 3 === 0 ? Math.floor(draw() * (chosen.length + 1)) : chosen.length;
      const groups: TermGroup[] =
        q % 3 === 0
          ? [
              { terms: chosen.slice(0, split), fields: [0, 1, 2, 3, 4] },
              { terms: chosen.slice(split), fields: [0] },
            ]
          : [{ terms: chosen, fields: [0, 1, 2, 3, 4] }];
      const keep = q % 4 === 0 ? 500 : 1 + Math.floor(draw() * 50);
      const expected = reference(groups, prefixed, keep);
      const found = index.score(groups, prefixed, keep);
      // The same tools in the same order, and the same numbers (here to the last bit: see field-index.ts on prefix sums).
      expect(found).toEqual(expected);
      compared += found.length;
    }
    expect(compared).toBeGreaterThan(10_000);
  });

  it('finds nothing for a word no tool has, or only stop words', () => {
    expect(index.score([{ terms: ['zebra'], fields: [0, 1, 2, 3, 4] }], new Set(), 5)).toEqual([]);
    expect(index.score([{ terms: [], fields: [0, 1, 2, 3, 4] }], new Set(), 5)).toEqual([]);
  });

  it('gives a query the same hits however many queries ran before it (the scratch space is cleared after each)', () => {
    const query: TermGroup[] = [{ terms: ['repo', 'issue'], fields: [0, 1, 2, 3, 4] }];
    const first = index.score(query, new Set(['repo']), 20);
    index.score([{ terms: ['user', 'team', 'label'], fields: [0, 2] }], new Set(['user']), 3);
    expect(index.score(query, new Set(['repo']), 20)).toEqual(first);
  });
});
