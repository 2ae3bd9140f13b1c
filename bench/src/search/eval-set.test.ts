import { describe, expect, it } from 'vitest';
import { STOP_WORDS, splitWords, stem } from 'rcp-search';
import { discoverAll, importDocument, readEvalSet, splitOf } from './eval-set';

const set = readEvalSet();
const contentWords = (text: string) =>
  new Set(
    splitWords(text)
      .filter((word) => !STOP_WORDS.has(word))
      .map(stem),
  );

describe('the tool-search evaluation set', () => {
  it('has at least 100 tasks over at least 4 APIs, a quarter of them hard, each with a query and expected tools', () => {
    expect(set.tasks.length).toBeGreaterThanOrEqual(100);
    expect(Object.keys(set.apis).length).toBeGreaterThanOrEqual(4);
    expect(set.tasks.filter((task) => task.hard).length).toBeGreaterThanOrEqual(set.tasks.length / 4);
    for (const api of Object.keys(set.apis)) expect(set.tasks.filter((task) => task.api === api).length).toBeGreaterThanOrEqual(20);
    expect(new Set(set.tasks.map((task) => task.query)).size).toBe(set.tasks.length);
    for (const task of set.tasks) {
      expect(Object.keys(set.apis)).toContain(task.api);
      expect(task.query.trim()).not.toBe('');
      expect(task.expected.length).toBeGreaterThan(0);
      expect(typeof task.hard).toBe('boolean');
    }
    for (const api of Object.values(set.apis)) expect(api.licence).toMatch(/^(MIT|Apache-2\.0)$/);
  });

  it('records a deterministic development / held-out split, stratified by API and by hard / normal', () => {
    expect(set.tasks.map((task) => task.split)).toEqual(splitOf(set.tasks));
    for (const api of Object.keys(set.apis)) {
      for (const hard of [false, true]) {
        const stratum = set.tasks.filter((task) => task.api === api && task.hard === hard);
        const dev = stratum.filter((task) => task.split === 'dev').length;
        expect(dev - (stratum.length - dev), `${api} ${hard ? 'hard' : 'normal'}`).toBeGreaterThanOrEqual(0);
        expect(dev - (stratum.length - dev), `${api} ${hard ? 'hard' : 'normal'}`).toBeLessThanOrEqual(1);
      }
    }
  });

  it('labels tools that exist in the import of their API, and phrases hard tasks in words the tools do not use', { timeout: 180_000 }, async () => {
    const manifests = new Map(await Promise.all(Object.entries(set.apis).map(async ([key, api]) => [key, await importDocument(api.document)] as const)));
    const discoveries = await discoverAll(manifests);
    for (const task of set.tasks) {
      const tools = discoveries.get(task.api)!.tools;
      for (const name of task.expected)
        expect(
          tools.some((tool) => tool.name === name),
          `${task.api}: ${name}`,
        ).toBe(true);
      if (!task.hard) continue;
      // Hard: at most one content word (stop words out, stemmed, no synonyms) of the query is in
      // the name or description of any expected tool.
      const query = contentWords(task.query);
      const shared = new Set<string>();
      for (const name of task.expected) {
        const tool = tools.find((candidate) => candidate.name === name)!;
        const words = contentWords(`${tool.name} ${tool.description}`);
        for (const word of query) if (words.has(word)) shared.add(word);
      }
      expect(shared.size, `${task.query}: ${[...shared].join(', ')}`).toBeLessThanOrEqual(1);
    }
  });
});
