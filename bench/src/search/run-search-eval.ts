/**
 * Scenario 7: tool search over large catalogs (issue 28). Recall@1 / recall@5 of rcp-search on the
 * labelled tasks (eval-tasks.json) beside a plain-BM25 baseline (MiniSearch with default settings
 * over name + description), ablations of each signal, the per-query time at 500 and 5,000 tools,
 * and what the model reads with and without deferral.
 */
import MiniSearch from 'minisearch';
import type { RcpDiscovery, RcpToolSet } from 'rcp-client';
import type { RcpManifest } from 'rcp-manifest';
import { DEFAULT_SYNONYMS, createToolSearch, describeToolHits, toolSearchDefinition, type RcpToolSearchOptions } from 'rcp-search';
import { median } from '../lib/stats.js';
import { DISTRACTOR_DOCUMENTS, apiKeyIndex, combinedToolSet, discoverAll, importDocument, readEvalSet, twilioProductDocuments, type EvalTask } from './eval-set.js';

export interface RecallRow {
  contender: string;
  tools: number;
  recallAt1: number;
  recallAt5: number;
  hardRecallAt5: number;
  normalRecallAt5: number;
}

export interface TimingRow {
  contender: string;
  tools: number;
  buildMs: number;
  perQueryMicros: number;
  /** CPU time (user + system) of this process per query: less sensitive to other work on the machine. */
  perQueryCpuMicros: number;
}

export interface SearchEvalResult {
  tasks: number;
  hardTasks: number;
  apis: { key: string; title: string; licence: string; tools: number }[];
  distractorTools: number;
  recall: RecallRow[];
  timing: TimingRow[];
  /** Tasks the defaults miss (top 5) on the smaller set. */
  missedByDefaults: string[];
  reads: { listing: string; tools: number; chars: number; approxTokens: number }[];
  notes: string[];
}

type Ranker = (query: string) => Promise<readonly { name: string }[]> | readonly { name: string }[];

interface Contender {
  id: string;
  does: string;
  build: (toolSet: RcpToolSet) => Ranker;
}

const rcp = (options: RcpToolSearchOptions) => (toolSet: RcpToolSet): Ranker => {
  const search = createToolSearch(toolSet, options);
  return (query) => search.search(query, { limit: 5 });
};

/** Plain BM25: MiniSearch with its default settings over the tool's name and description. */
const baseline = (toolSet: RcpToolSet): Ranker => {
  const index = new MiniSearch<{ id: number; name: string; description: string }>({ fields: ['name', 'description'] });
  index.addAll(toolSet.entries.map((entry, id) => ({ id, name: entry.name, description: entry.tool.description })));
  return (query) => index.search(query).slice(0, 5).map((result) => ({ name: toolSet.entries[result.id as number]!.name }));
};

export const SEARCH_CONTENDERS: readonly Contender[] = [
  { id: 'baseline: plain BM25 (MiniSearch defaults, name + description)', does: 'MiniSearch 7.2 with default options', build: baseline },
  { id: 'rcp-search (defaults)', does: 'every signal', build: rcp({}) },
  { id: '− name coverage re-rank', does: 'nameCoverage: false', build: rcp({ nameCoverage: false }) },
  { id: '− synonyms', does: 'synonyms: false', build: rcp({ synonyms: false }) },
  { id: '− stemming', does: 'stemming: false', build: rcp({ stemming: false }) },
  { id: '− prefix matching', does: 'prefix: false', build: rcp({ prefix: false }) },
  { id: '− param text', does: 'boost.params = 0', build: rcp({ boost: { params: 0 } }) },
  { id: '− method verb', does: 'boost.method = 0', build: rcp({ boost: { method: 0 } }) },
  { id: '− namespace', does: 'boost.namespace = 0', build: rcp({ boost: { namespace: 0 } }) },
  { id: 'name weight 1 (not 3)', does: 'boost.name = 1', build: rcp({ boost: { name: 1 } }) },
  {
    id: 'name splitting only (name + description, no other signal)',
    does: 'split names, no params / namespace / method / stemming / synonyms / prefix / name coverage',
    build: rcp({ boost: { params: 0, namespace: 0, method: 0, name: 1 }, stemming: false, synonyms: false, prefix: false, nameCoverage: false }),
  },
];

export async function runSearchEval(options: { rounds: number; quick: boolean }): Promise<SearchEvalResult> {
  const notes: string[] = [];
  const set = readEvalSet();
  const labelled = Object.keys(set.apis);
  const manifests = new Map<string, RcpManifest>();
  for (const key of labelled) manifests.set(key, await importDocument(set.apis[key]!.document));
  const distractors = [...twilioProductDocuments(), ...DISTRACTOR_DOCUMENTS];
  for (const document of distractors) {
    try {
      manifests.set(document, await importDocument(document));
    } catch (error) {
      notes.push(`distractor ${document} not imported: ${(error as Error).message.slice(0, 120)}`);
    }
  }
  const discoveries = await discoverAll(manifests);
  const keyOf = apiKeyIndex(manifests.keys());
  const keys = [...manifests.keys()];

  const full = combinedToolSet(discoveries, keys, 5_000);
  const expectedNames = new Set<string>();
  const isExpected = (task: EvalTask, name: string, toolSet: RcpToolSet): boolean => {
    const tool = toolSet.tool(name);
    return keyOf.get(tool.manifestUrl) === task.api && task.expected.includes(tool.name);
  };
  for (const entry of full.entries) {
    const key = keyOf.get(entry.tool.manifestUrl)!;
    if (set.tasks.some((task) => task.api === key && task.expected.includes(entry.tool.name))) expectedNames.add(entry.name);
  }
  // 500 tools: every labelled tool, then the labelled APIs' other tools in catalog order.
  const labelledKeys = new Set(labelled);
  const small = new Set(expectedNames);
  for (const entry of full.entries) {
    if (small.size >= 500) break;
    if (labelledKeys.has(keyOf.get(entry.tool.manifestUrl)!)) small.add(entry.name);
  }
  const sets: { tools: number; toolSet: RcpToolSet }[] = [
    { tools: small.size, toolSet: full.select((_tool, name) => small.has(name)) },
    { tools: full.entries.length, toolSet: full },
  ];
  if (full.entries.length < 5_000) notes.push(`the combined catalog has ${full.entries.length} tools (fewer than 5,000 imported)`);

  const recall: RecallRow[] = [];
  const timing: TimingRow[] = [];
  const missedByDefaults: string[] = [];
  const tasks = set.tasks;
  for (const { tools, toolSet } of sets) {
    for (const contender of SEARCH_CONTENDERS) {
      const t0 = performance.now();
      const rank = contender.build(toolSet);
      const buildMs = performance.now() - t0;
      let at1 = 0;
      let at5 = 0;
      let hard5 = 0;
      let normal5 = 0;
      const missed: string[] = [];
      for (const task of tasks) {
        const hits = await rank(task.query);
        const position = hits.findIndex((hit) => isExpected(task, hit.name, toolSet));
        if (position === 0) at1++;
        if (position >= 0 && position < 5) {
          at5++;
          if (task.hard) hard5++;
          else normal5++;
        } else missed.push(`${task.api}: ${task.query}${task.hard ? ' (hard)' : ''}`);
      }
      const hardCount = tasks.filter((task) => task.hard).length;
      recall.push({
        contender: contender.id,
        tools,
        recallAt1: at1 / tasks.length,
        recallAt5: at5 / tasks.length,
        hardRecallAt5: hard5 / hardCount,
        normalRecallAt5: normal5 / (tasks.length - hardCount),
      });
      if (contender.id === 'rcp-search (defaults)' && tools === sets[0]!.tools) missedByDefaults.push(...missed);
      if (contender.id.startsWith('baseline') || contender.id === 'rcp-search (defaults)') {
        const perRound: number[] = [];
        const cpuPerRound: number[] = [];
        const repeat = options.quick ? 3 : 20;
        for (let warm = 0; warm < 2; warm++) for (const task of tasks) await rank(task.query);
        for (let round = 0; round < options.rounds; round++) {
          const start = performance.now();
          const cpu = process.cpuUsage();
          for (let r = 0; r < repeat; r++) for (const task of tasks) await rank(task.query);
          const used = process.cpuUsage(cpu);
          perRound.push(((performance.now() - start) * 1000) / (repeat * tasks.length));
          cpuPerRound.push((used.user + used.system) / (repeat * tasks.length));
        }
        timing.push({ contender: contender.id, tools, buildMs, perQueryMicros: median(perRound), perQueryCpuMicros: median(cpuPerRound) });
      }
    }
  }

  // What the model reads: every tool's schema vs the search tool + the five hits of a search.
  const reads: SearchEvalResult['reads'] = [];
  for (const { tools, toolSet } of sets) {
    const all = JSON.stringify(toolSet.entries.map(({ name, tool }) => ({ name, description: tool.description, inputSchema: tool.inputSchema })));
    reads.push({ listing: `every tool's schema (${tools.toLocaleString('en-US')} tools)`, tools, chars: all.length, approxTokens: Math.round(all.length / 4) });
    const search = createToolSearch(toolSet);
    const definition = JSON.stringify(toolSearchDefinition({ toolCount: tools }));
    const answers: number[] = [];
    for (const task of tasks) answers.push(describeToolHits(await search.search(task.query, { limit: 5 })).text.length);
    const chars = definition.length + Math.round(median(answers));
    reads.push({ listing: `search tool + one search's 5 hits (median over tasks), ${tools.toLocaleString('en-US')} tools`, tools, chars, approxTokens: Math.round(chars / 4) });
  }

  return {
    tasks: tasks.length,
    hardTasks: tasks.filter((task) => task.hard).length,
    apis: labelled.map((key) => ({ key, title: set.apis[key]!.title, licence: set.apis[key]!.licence, tools: discoveries.get(key)!.tools.length })),
    distractorTools: full.entries.length - labelled.reduce((sum, key) => sum + (discoveries.get(key) as RcpDiscovery).tools.length, 0),
    recall,
    timing,
    missedByDefaults,
    reads,
    notes: [...notes, `synonym groups: ${DEFAULT_SYNONYMS.length} (rcp-search DEFAULT_SYNONYMS)`],
  };
}
