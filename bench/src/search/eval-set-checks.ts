import { describe, expect, it } from 'vitest';
import { STOP_WORDS, splitWords, stem } from 'rcp-search';
import { createDocumentImporter, splitOf, type readEvalSets } from './eval-set';

/*
 * The data checks of one tool-search evaluation set (no ranking is run). Each set has its own test
 * file (eval-set-own.test.ts, eval-set-independent.test.ts): importing a set's real API descriptions
 * takes tens of seconds, and two files run on two workers at once where one file would run alone.
 * Each document is imported once per file; names and descriptions are read from the import itself
 * (discovery keeps both as they are, and skipping it saves a tenth of the time).
 */
const contentWords = (text: string) =>
  new Set(
    splitWords(text)
      .filter((word) => !STOP_WORDS.has(word))
      .map(stem),
  );

/** Declares the checks of one evaluation set. */
export function describeEvalSet({ id, set, file }: ReturnType<typeof readEvalSets>[number]): void {
  const importDocument = createDocumentImporter();
  describe(`the tool-search evaluation set '${file}'`, () => {
    const minimum = id === 'own' ? { tasks: 100, apis: 4 } : { tasks: 200, apis: 5 };

    it('has enough tasks over enough APIs, a quarter of them hard, each with a query and expected tools', () => {
      expect(set.tasks.length).toBeGreaterThanOrEqual(minimum.tasks);
      expect(Object.keys(set.apis).length).toBeGreaterThanOrEqual(minimum.apis);
      expect(set.tasks.filter((task) => task.hard).length).toBeGreaterThanOrEqual(set.tasks.length / 4);
      for (const api of Object.keys(set.apis)) expect(set.tasks.filter((task) => task.api === api).length).toBeGreaterThanOrEqual(20);
      expect(new Set(set.tasks.map((task) => task.query)).size).toBe(set.tasks.length);
      for (const task of set.tasks) {
        expect(Object.keys(set.apis)).toContain(task.api);
        expect(task.query.trim()).not.toBe('');
        expect(task.expected.length).toBeGreaterThan(0);
        expect(new Set(task.expected).size).toBe(task.expected.length);
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

    // Importing the set's real API descriptions is almost all of this file's time (mostly the OpenAPI
    // parser's dereferencing: 1–6 s per document on a loaded two-core machine), hence the raised limit.
    it('labels tools that exist in the import of their API, and phrases hard tasks in words the tools do not use', { timeout: 180_000 }, async () => {
      const imported = new Map<string, readonly { name: string; description: string }[]>();
      for (const [key, api] of Object.entries(set.apis)) imported.set(key, (await importDocument(api.document)).tools);
      for (const task of set.tasks) {
        const tools = imported.get(task.api)!;
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
}
