/**
 * What one query may cost (issue 38): a query of 1,500 short repeated words over 1,000 tools
 * blocked the event loop for seconds, because every word was searched, repeats included, and a
 * short stem prefix-matched every tool. The work is counted here as the index lookups a query's
 * plan makes (what the search then asks the index for), never as wall time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRcpError, type RcpDiscovery } from 'rcp-client';
import { startTestServer, type TestServer } from 'rcp-test-utils';
import { createToolSearch } from './index';
import { MAX_PREFIX_EXPANSIONS, MAX_QUERY_LENGTH, MAX_QUERY_WORDS, catalogTerms, planQuery, prefixExpansions } from './plan-query';
import { discoverManifest, tool } from './test-tools';

const TOOLS = 1_200;
/** `aaa`, `aab`, … : a distinct run of letters per number (digits would be split off as words of their own). */
const letters = (n: number) => Array.from({ length: 3 }, (_, i) => String.fromCharCode(97 + (Math.floor(n / 26 ** (2 - i)) % 26))).join('');

let server: TestServer;
let hostile: RcpDiscovery;
beforeAll(async () => {
  server = await startTestServer();
  // A catalog where the stem `reco` starts a different word in every tool: the worst case for a prefix.
  const tools = Array.from({ length: TOOLS }, (_, i) => tool(`getItem${letters(i)}`, `Returns the reco${letters(i)} entry and its records.`));
  hostile = await discoverManifest(server, { rcpVersion: '0.1', tools }, '/rcp/hostile');
});
afterAll(async () => {
  await server.close();
});

const identity = (word: string) => word;
const refusal = async (run: () => Promise<unknown>) => {
  try {
    await run();
  } catch (error) {
    if (isRcpError(error)) return { code: error.code, message: error.message, issues: (error as { issues?: unknown }).issues };
    throw error;
  }
  throw new Error('accepted');
};

describe('the attack: 1,500 short repeated words over 1,200 tools', () => {
  const attack = Array.from({ length: 1_500 }, () => 'reco1').join(' ');

  it('is refused before any search, past 1,000 characters: RCP_INVALID_OPTIONS from search(), RCP_INVALID_ARGUMENTS from the search tool', async () => {
    expect(attack.length).toBeGreaterThan(8_000);
    const search = createToolSearch(hostile);
    expect(await refusal(() => search.search(attack))).toMatchObject({
      code: 'RCP_INVALID_OPTIONS',
      message: `the search query must be at most ${MAX_QUERY_LENGTH} characters long`,
    });
    expect(await refusal(() => search.handleCall({ query: attack }))).toMatchObject({
      code: 'RCP_INVALID_ARGUMENTS',
      issues: [{ path: '/query', message: `must be at most ${MAX_QUERY_LENGTH} characters long` }],
    });
  });

  it('under the length cap, the repeated words are two terms, and a stem that starts 1,200 words is matched exactly: 2 lookups', async () => {
    const search = createToolSearch(hostile);
    const repeated = attack.slice(0, MAX_QUERY_LENGTH - 4);
    const catalog = catalogTerms(
      hostile.tools.map((entry) => ({ description: entry.description })),
      ['description'],
      identity,
    );
    expect(prefixExpansions(catalog, 'reco', MAX_PREFIX_EXPANSIONS)).toBe(MAX_PREFIX_EXPANSIONS + 1); // counting stops there
    const planned = planQuery(repeated, catalog, { processTerm: identity, prefix: true });
    expect(planned).toEqual({ ok: true, plan: { terms: ['reco', '1'], prefixed: new Set(), lookups: 2 } });
    // The search itself answers (nothing matches the word `reco` exactly).
    expect(await search.search(repeated)).toEqual([]);
  });

  it('any accepted query makes at most 16 term lookups and 64 prefix expansions, whatever the catalog', () => {
    // 40 four-letter stems; stem j starts 3·(j+1) different words (3 to 120), spread over 1,200 tools.
    const stems = Array.from({ length: 40 }, (_, j) => `q${letters(j)}`);
    const words = stems.flatMap((stem, j) => Array.from({ length: 3 * (j + 1) }, (_, w) => `${stem}${letters(w)}`));
    const documents = Array.from({ length: TOOLS }, (_, i) => ({ description: words.filter((_, w) => w % TOOLS === i).join(' ') }));
    const catalog = catalogTerms(documents, ['description'], identity);
    expect(catalog.sorted).toHaveLength(words.length);
    let most = 0;
    let unbounded = 0;
    for (let start = 0; start + MAX_QUERY_WORDS <= stems.length; start++) {
      const query = stems.slice(start, start + MAX_QUERY_WORDS);
      const planned = planQuery(query.join(' '), catalog, { processTerm: identity, prefix: true });
      if (!planned.ok) throw new Error(planned.problem);
      expect(planned.plan.terms).toEqual(query);
      expect(planned.plan.lookups).toBeLessThanOrEqual(MAX_QUERY_WORDS + MAX_PREFIX_EXPANSIONS);
      most = Math.max(most, planned.plan.lookups);
      unbounded = Math.max(unbounded, MAX_QUERY_WORDS + query.reduce((sum, stem) => sum + prefixExpansions(catalog, stem, Number.MAX_SAFE_INTEGER), 0));
    }
    // Without the bound the worst of these queries would make over 1,000 lookups; with it, prefixes are used up to it.
    expect(unbounded).toBeGreaterThan(1_000);
    expect(most).toBeGreaterThan(MAX_QUERY_WORDS + MAX_PREFIX_EXPANSIONS - 3); // a stem's words come in threes
    const tooMany = planQuery(stems.slice(0, MAX_QUERY_WORDS + 1).join(' '), catalog, { processTerm: identity, prefix: true });
    expect(tooMany).toEqual({
      ok: false,
      problem: 'has more than 16 different words (repeats and stop words not counted): say the task in fewer words',
    });
  });

  it('a query of more than 16 different words is refused with a typed error, from search() and from the search tool', async () => {
    const search = createToolSearch(hostile);
    const words = Array.from({ length: MAX_QUERY_WORDS + 1 }, (_, i) => `w${letters(i)}`).join(' ');
    expect(await refusal(() => search.search(words))).toMatchObject({
      code: 'RCP_INVALID_OPTIONS',
      message: expect.stringMatching(/^the search query has more than 16/),
    });
    expect(await refusal(() => search.handleCall({ query: words }))).toMatchObject({
      code: 'RCP_INVALID_ARGUMENTS',
      issues: [{ path: '/query', message: expect.stringMatching(/^has more than 16 different words/) }],
    });
    // Repeats, stop words and two words of one synonym group are one term each, or none.
    const same = Array.from({ length: 40 }, () => 'the remove delete note').join(' ');
    expect(same.length).toBeLessThanOrEqual(MAX_QUERY_LENGTH);
    await expect(search.search(same)).resolves.toEqual([]);
  });
});

describe('each distinct term is searched once', () => {
  it('a repeated word, or a synonym of a word already said, changes neither the hits nor their scores', async () => {
    const notes = await discoverManifest(
      server,
      { rcpVersion: '0.1', tools: [tool('deleteNote', 'Deletes a note.'), tool('getNote', 'Returns a note.'), tool('deleteLabel', 'Deletes a label.')] },
      '/rcp/notes',
    );
    const search = createToolSearch(notes);
    const once = await search.search('delete a note');
    expect(once.map((hit) => hit.name)).toEqual(['deleteNote', 'getNote', 'deleteLabel']);
    expect(await search.search('delete delete delete a note note')).toEqual(once);
    expect(await search.search('delete, remove and erase a note')).toEqual(once);
  });
});
