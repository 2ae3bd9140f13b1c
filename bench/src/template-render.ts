/**
 * Scenario 3: rcp-template's compiled `render` for the seed tools vs a hand-written function doing
 * the same string building with encodeURIComponent (the limit).
 */
import { compileRequest } from 'rcp-template';
import { microBench, type MicroResult } from './lib/micro.js';
import { learnerIds, queries, seedManifestAbsolute } from './lib/seed.js';

export interface TemplateCase {
  tool: string;
  results: MicroResult[];
  sameOutput: boolean;
}

export interface TemplateRenderResult {
  iterations: number;
  rounds: number;
  cases: TemplateCase[];
  /** Worst ratio (rcp ÷ hand-written) over the seed tools. */
  worstRatio: number;
}

export function runTemplateRender(options: { rounds: number; iterations: number }): TemplateRenderResult {
  const [profileTool, searchTool] = seedManifestAbsolute.tools;
  const profile = compileRequest({ method: profileTool.method, url: profileTool.url });
  const search = compileRequest({ method: searchTool.method, url: searchTool.url, queryParams: { ...searchTool.queryParams } });

  const profileValues = learnerIds.map((learnerId) => ({ learnerId }));
  const searchValues = queries.map((query) => ({ query }));

  const handProfile = (values: { learnerId: string }) => ({
    method: 'GET',
    url: `https://api.example.com/learners/${encodeURIComponent(String(values.learnerId))}/profile`,
    headers: {} as Record<string, string>,
  });
  const handSearch = (values: { query: string }) => ({
    method: 'GET',
    url: `https://api.example.com/courses/search?q=${encodeURIComponent(String(values.query))}`,
    headers: {} as Record<string, string>,
  });

  const same = (a: { method: string; url: string }, b: { method: string; url: string }) => a.method === b.method && a.url === b.url;
  const cases: TemplateCase[] = [
    {
      tool: 'get_learner_profile',
      sameOutput: profileValues.every((v) => same(profile.render(v), handProfile(v))),
      results: microBench(
        [
          { id: 'hand-written', fn: (i) => handProfile(profileValues[i & 15]!) },
          { id: 'rcp compiled render', fn: (i) => profile.render(profileValues[i & 15]!) },
        ],
        { rounds: options.rounds, iterations: options.iterations, warmupIterations: options.iterations },
      ),
    },
    {
      tool: 'search_courses',
      sameOutput: searchValues.every((v) => same(search.render(v), handSearch(v))),
      results: microBench(
        [
          { id: 'hand-written', fn: (i) => handSearch(searchValues[i % 5]!) },
          { id: 'rcp compiled render', fn: (i) => search.render(searchValues[i % 5]!) },
        ],
        { rounds: options.rounds, iterations: options.iterations, warmupIterations: options.iterations },
      ),
    },
  ];
  return {
    iterations: options.iterations,
    rounds: options.rounds,
    cases,
    worstRatio: Math.max(...cases.map((c) => c.results[1]!.ratioToBaseline)),
  };
}
