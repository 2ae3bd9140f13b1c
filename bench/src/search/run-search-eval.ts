/**
 * Scenario 9: tool search over large catalogs (issues 28 and 41). Recall@1 / recall@5 of
 * rcp-search on each labelled evaluation set — the project's own (eval-tasks.json) and the
 * independent second one (eval-tasks-2.json) — beside a plain-BM25 baseline (MiniSearch with
 * default settings over name + description), ablations of each signal, the per-query time at 500
 * and 5,000 tools, and (for the first set) the worst-case query and what the model reads with and
 * without deferral.
 */
import MiniSearch from 'minisearch';
import type { RcpDiscovery, RcpToolSet } from 'rcp-client';
import type { RcpManifest } from 'rcp-manifest';
import {
  DEFAULT_SYNONYMS,
  MAX_QUERY_LENGTH,
  MAX_QUERY_WORDS,
  STOP_WORDS,
  createToolSearch,
  describeToolHits,
  splitWords,
  stem,
  toolSearchDefinition,
  type RcpToolSearchOptions,
} from 'rcp-search';
import { median } from '../lib/stats.js';
import {
  DISTRACTOR_DOCUMENTS,
  apiKeyIndex,
  combinedToolSet,
  createDocumentImporter,
  discoverAll,
  readEvalSets,
  twilioProductDocuments,
  type EvalSet,
  type EvalSetId,
  type EvalTask,
  type NamedEvalSet,
} from './eval-set.js';

/** Recall over one group of tasks; "hard" tasks are the ones phrased in other words. */
export interface Recall {
  tasks: number;
  recallAt1: number;
  recallAt5: number;
  normalRecallAt1: number;
  normalRecallAt5: number;
  hardRecallAt1: number;
  hardRecallAt5: number;
}

export interface RecallRow {
  contender: string;
  tools: number;
  /** Every task. */
  all: Recall;
  /** The development half (what rcp-search's defaults were tuned on). */
  dev: Recall;
  /** The held-out half (never looked at while tuning). */
  heldout: Recall;
}

export interface TimingRow {
  contender: string;
  tools: number;
  buildMs: number;
  perQueryMicros: number;
  /** CPU time (user + system) of this process per query: less sensitive to other work on the machine. */
  perQueryCpuMicros: number;
}

/**
 * The slowest query rcp-search accepts over the largest catalog (issue 38), and the attack that
 * once blocked the event loop for seconds, which is now refused before any search.
 */
export interface WorstCaseRow {
  tools: number;
  /** Which candidate query was the slowest. */
  label: string;
  /** Distinct words of the worst-case query (at most rcp-search's `MAX_QUERY_WORDS`) and its length in characters (at most `MAX_QUERY_LENGTH`). */
  words: number;
  chars: number;
  /** The median and the slowest of the rounds, per query. */
  medianMicros: number;
  maxMicros: number;
  cpuMicros: number;
  /** The 1,500 repeated short words of the attack (about 9 KB): the time to refuse it. */
  attackChars: number;
  attackRefusedMicros: number;
  attackCode: string;
}

export interface SearchEvalResult {
  /** Which evaluation set these numbers are for. */
  set: { id: EvalSetId; title: string; file: string };
  tasks: number;
  hardTasks: number;
  apis: { key: string; title: string; licence: string; tools: number }[];
  distractorTools: number;
  recall: RecallRow[];
  timing: TimingRow[];
  /** Measured on the first set's 5,000-tool catalog only (undefined for the others). */
  worstCase: WorstCaseRow | undefined;
  /** Tasks the defaults miss (top 5) on the smaller set, by half. */
  missedByDefaults: { dev: string[]; heldout: string[] };
  /** How many tasks each half holds (hard ones in brackets in the report). */
  halves: { dev: number; devHard: number; heldout: number; heldoutHard: number };
  /** What the model reads; measured for the first set only (empty for the others). */
  reads: { listing: string; tools: number; chars: number; approxTokens: number }[];
  notes: string[];
}

export type Ranker = (query: string) => Promise<readonly { name: string }[]> | readonly { name: string }[];

interface Contender {
  id: string;
  does: string;
  build: (toolSet: RcpToolSet) => Ranker;
}

const rcp =
  (options: RcpToolSearchOptions) =>
  (toolSet: RcpToolSet): Ranker => {
    const search = createToolSearch(toolSet, options);
    return (query) => search.search(query, { limit: 5 });
  };

/** Plain BM25: MiniSearch with its default settings over the tool's name and description. */
const baseline = (toolSet: RcpToolSet): Ranker => {
  const index = new MiniSearch<{ id: number; name: string; description: string }>({ fields: ['name', 'description'] });
  index.addAll(toolSet.entries.map((entry, id) => ({ id, name: entry.name, description: entry.tool.description })));
  return (query) =>
    index
      .search(query)
      .slice(0, 5)
      .map((result) => ({ name: toolSet.entries[result.id as number]!.name }));
};

/** rcp-search's synonym groups before this evaluation was split (19 groups), to measure what the larger vocabulary adds. */
const EARLIER_SYNONYMS: readonly (readonly string[])[] = [
  ['create', 'add', 'new', 'make', 'register', 'insert'],
  ['delete', 'remove', 'destroy', 'erase', 'drop', 'discard', 'purge'],
  ['list', 'all', 'enumerate', 'browse', 'every'],
  ['get', 'fetch', 'retrieve', 'read', 'show', 'view', 'display', 'see', 'inspect', 'detail'],
  ['update', 'edit', 'change', 'modify', 'alter', 'rename', 'set'],
  ['search', 'find', 'query', 'lookup', 'look'],
  ['send', 'deliver', 'dispatch'],
  ['start', 'begin', 'launch', 'trigger'],
  ['stop', 'halt', 'terminate'],
  ['user', 'person', 'people'],
  ['repository', 'repo'],
  ['organization', 'organisation', 'org'],
  ['invite', 'invitation'],
  ['image', 'picture', 'photo'],
  ['label', 'tag'],
  ['email', 'mail'],
  ['setting', 'config', 'configuration', 'preference', 'option'],
  ['notification', 'alert'],
  ['favorite', 'favourite', 'star', 'bookmark'],
];

export const SEARCH_CONTENDERS: readonly Contender[] = [
  { id: 'baseline: plain BM25 (MiniSearch defaults, name + description)', does: 'MiniSearch 7.2 with default options', build: baseline },
  { id: 'rcp-search (defaults)', does: 'every signal', build: rcp({}) },
  { id: '− name coverage re-rank', does: 'nameCoverage: false', build: rcp({ nameCoverage: false }) },
  { id: '− synonyms', does: 'synonyms: false', build: rcp({ synonyms: false }) },
  {
    id: 'the earlier 19 synonym groups',
    does: 'the 19 groups rcp-search had before the split (no question words)',
    build: rcp({ synonyms: EARLIER_SYNONYMS }),
  },
  { id: '− common words in names only', does: 'commonWords: 1 (every word searched in every field)', build: rcp({ commonWords: 1 }) },
  { id: '− stemming', does: 'stemming: false', build: rcp({ stemming: false }) },
  { id: '− prefix matching', does: 'prefix: false', build: rcp({ prefix: false }) },
  { id: '− param text', does: 'boost.params = 0', build: rcp({ boost: { params: 0 } }) },
  { id: '− method verb', does: 'boost.method = 0', build: rcp({ boost: { method: 0 } }) },
  { id: '− namespace', does: 'boost.namespace = 0', build: rcp({ boost: { namespace: 0 } }) },
  { id: 'name weight 1 (not 3)', does: 'boost.name = 1', build: rcp({ boost: { name: 1 } }) },
  {
    id: 'name splitting only (name + description, no other signal)',
    does: 'split names, no params / namespace / method / stemming / synonyms / prefix / name coverage / common words',
    build: rcp({
      boost: { params: 0, namespace: 0, method: 0, name: 1 },
      stemming: false,
      synonyms: false,
      prefix: false,
      nameCoverage: false,
      commonWords: 1,
    }),
  },
];

export interface SearchCatalogs {
  named: NamedEvalSet;
  set: EvalSet;
  /** The 500-tool set, then the 5,000-tool one. */
  sets: { tools: number; toolSet: RcpToolSet }[];
  /** Whether a hit of `toolSet` is one of the task's expected tools (in the task's API). */
  isExpected: (task: EvalTask, name: string, toolSet: RcpToolSet) => boolean;
  discoveries: Map<string, RcpDiscovery>;
  labelled: string[];
  fullTools: number;
  notes: string[];
}

/**
 * Imports a set's labelled APIs and the distractors and builds its 500- and 5,000-tool catalogs.
 * The distractors are the Twilio product APIs and {@link DISTRACTOR_DOCUMENTS}, then the other
 * sets' APIs (`otherDocuments`), in that order until the catalog holds 5,000 tools: the first set's
 * catalog is full before the second set's APIs would be reached, so its numbers are as before.
 */
export async function loadSearchCatalogs(
  named: NamedEvalSet = readEvalSets()[0]!,
  importDocument: (document: string) => Promise<RcpManifest> = createDocumentImporter(),
  otherDocuments: readonly string[] = [],
): Promise<SearchCatalogs> {
  const notes: string[] = [];
  const set = named.set;
  const labelled = Object.keys(set.apis);
  const manifests = new Map<string, RcpManifest>();
  for (const key of labelled) manifests.set(key, await importDocument(set.apis[key]!.document));
  const distractors = [...twilioProductDocuments(), ...DISTRACTOR_DOCUMENTS, ...otherDocuments];
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
  return { named, set, sets, isExpected, discoveries, labelled, fullTools: full.entries.length, notes };
}

/** The position (0-based) of the first expected tool among a ranker's hits for each task, -1 if none. */
export async function positionsOf(rank: Ranker, tasks: readonly EvalTask[], isExpected: SearchCatalogs['isExpected'], toolSet: RcpToolSet): Promise<number[]> {
  const positions: number[] = [];
  for (const task of tasks) positions.push((await rank(task.query)).findIndex((hit) => isExpected(task, hit.name, toolSet)));
  return positions;
}

/** Recall@1 / @5 over the tasks `keep` selects, from their positions. */
export function recallOf(tasks: readonly EvalTask[], positions: readonly number[], keep: (task: EvalTask) => boolean): Recall {
  let count = 0;
  let hard = 0;
  let at1 = 0;
  let at5 = 0;
  let hard1 = 0;
  let hard5 = 0;
  tasks.forEach((task, i) => {
    if (!keep(task)) return;
    const position = positions[i]!;
    const found = position >= 0 && position < 5;
    count++;
    if (task.hard) hard++;
    if (position === 0) at1++;
    if (found) at5++;
    if (position === 0 && task.hard) hard1++;
    if (found && task.hard) hard5++;
  });
  return {
    tasks: count,
    recallAt1: at1 / count,
    recallAt5: at5 / count,
    normalRecallAt1: (at1 - hard1) / (count - hard),
    normalRecallAt5: (at5 - hard5) / (count - hard),
    hardRecallAt1: hard1 / hard,
    hardRecallAt5: hard5 / hard,
  };
}

/**
 * Candidates for the query that makes the most work rcp-search accepts over a tool set, each of
 * `MAX_QUERY_WORDS` distinct words repeated up to `MAX_QUERY_LENGTH` characters (repeats are split
 * and dropped, never searched): the catalog's most widespread words (one per stem, stop words
 * out); the most widespread of those in at most a tenth of the tools (searched in every field,
 * not in names only); and the four-letter stems that start the most words (each a prefix).
 */
export function worstCaseQueries(toolSet: RcpToolSet): { label: string; query: string; words: number }[] {
  const byStem = new Map<string, { word: string; tools: number }>();
  const starting = new Map<string, Set<string>>();
  for (const { name, tool } of toolSet.entries) {
    const words = new Set(splitWords(`${name} ${tool.description} ${Object.keys(tool.inputSchema.properties).join(' ')}`));
    for (const word of words) {
      if (word.length < 4 || STOP_WORDS.has(word) || !/^[a-z]+$/.test(word)) continue;
      const key = stem(word);
      const seen = byStem.get(key);
      if (seen === undefined) byStem.set(key, { word, tools: 1 });
      else seen.tools++;
      const head = word.slice(0, 4);
      if (!starting.has(head)) starting.set(head, new Set());
      starting.get(head)!.add(word);
    }
  }
  const widespread = [...byStem.values()].sort((a, b) => b.tools - a.tools || (a.word < b.word ? -1 : 1));
  const filled = (label: string, chosen: readonly string[]) => {
    let query = chosen.join(' ');
    for (let i = 0; query.length + chosen[i % chosen.length]!.length + 1 <= MAX_QUERY_LENGTH; i++) query += ` ${chosen[i % chosen.length]}`;
    return { label, query, words: chosen.length };
  };
  const tenth = toolSet.entries.length / 10;
  return [
    filled(
      'the most widespread words',
      widespread.slice(0, MAX_QUERY_WORDS).map((entry) => entry.word),
    ),
    filled(
      'the most widespread words in at most a tenth of the tools',
      widespread
        .filter((entry) => entry.tools <= tenth)
        .slice(0, MAX_QUERY_WORDS)
        .map((entry) => entry.word),
    ),
    filled(
      'the stems that start the most words',
      [...starting.entries()]
        .sort((a, b) => b[1].size - a[1].size || (a[0] < b[0] ? -1 : 1))
        .slice(0, MAX_QUERY_WORDS)
        .map(([head]) => head),
    ),
  ];
}

/** Each candidate of {@link worstCaseQueries} timed; the slowest is the worst case. */
async function measureWorstCase(toolSet: RcpToolSet, tools: number, rounds: number): Promise<WorstCaseRow> {
  const search = createToolSearch(toolSet);
  const runs = Math.max(10, rounds * 5);
  let worst: Omit<WorstCaseRow, 'attackChars' | 'attackRefusedMicros' | 'attackCode'> | undefined;
  for (const { label, query, words } of worstCaseQueries(toolSet)) {
    for (let warm = 0; warm < 3; warm++) await search.search(query);
    const times: number[] = [];
    const cpu = process.cpuUsage();
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      await search.search(query);
      times.push((performance.now() - start) * 1000);
    }
    const used = process.cpuUsage(cpu);
    const row = {
      tools,
      label,
      words,
      chars: query.length,
      medianMicros: median(times),
      maxMicros: Math.max(...times),
      cpuMicros: (used.user + used.system) / runs,
    };
    if (worst === undefined || row.medianMicros > worst.medianMicros) worst = row;
  }
  const attack = Array.from({ length: 1_500 }, () => 'reco1').join(' ');
  const start = performance.now();
  const attackCode = await search.search(attack).then(
    () => 'accepted',
    (error: { code?: string }) => error.code ?? 'thrown',
  );
  const attackRefusedMicros = (performance.now() - start) * 1000;
  return { ...worst!, attackChars: attack.length, attackRefusedMicros, attackCode };
}

/**
 * Both evaluation sets, one after the other, sharing one import of each document. The first
 * set's run also measures the worst-case query and what the model reads.
 */
export async function runSearchEvals(options: { rounds: number; quick: boolean }): Promise<SearchEvalResult[]> {
  const importDocument = createDocumentImporter();
  const all = readEvalSets();
  const results: SearchEvalResult[] = [];
  for (const [index, named] of all.entries()) {
    const otherDocuments = all.filter((other) => other !== named).flatMap((other) => Object.values(other.set.apis).map((api) => api.document));
    const catalogs = await loadSearchCatalogs(named, importDocument, otherDocuments);
    results.push(await runSearchEval(catalogs, { ...options, extras: index === 0 }));
  }
  return results;
}

/** One set's recall, timing and (with `extras`) worst case and model reads. */
export async function runSearchEval(catalogs: SearchCatalogs, options: { rounds: number; quick: boolean; extras: boolean }): Promise<SearchEvalResult> {
  const { named, set, sets, isExpected, discoveries, labelled, fullTools, notes } = catalogs;

  const recall: RecallRow[] = [];
  const timing: TimingRow[] = [];
  const missedByDefaults: SearchEvalResult['missedByDefaults'] = { dev: [], heldout: [] };
  const tasks = set.tasks;
  for (const { tools, toolSet } of sets) {
    for (const contender of SEARCH_CONTENDERS) {
      const t0 = performance.now();
      const rank = contender.build(toolSet);
      const buildMs = performance.now() - t0;
      const positions = await positionsOf(rank, tasks, isExpected, toolSet);
      recall.push({
        contender: contender.id,
        tools,
        all: recallOf(tasks, positions, () => true),
        dev: recallOf(tasks, positions, (task) => task.split === 'dev'),
        heldout: recallOf(tasks, positions, (task) => task.split === 'heldout'),
      });
      if (contender.id === 'rcp-search (defaults)' && tools === sets[0]!.tools) {
        tasks.forEach((task, i) => {
          const position = positions[i]!;
          if (position < 0 || position >= 5) missedByDefaults[task.split].push(`${task.api}: ${task.query}${task.hard ? ' (hard)' : ''}`);
        });
      }
      if (contender.id.startsWith('baseline') || contender.id === 'rcp-search (defaults)' || contender.id === '− common words in names only') {
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

  const largest = sets[sets.length - 1]!;
  const worstCase = options.extras ? await measureWorstCase(largest.toolSet, largest.tools, options.rounds) : undefined;

  // What the model reads: every tool's schema vs the search tool + the five hits of a search.
  const reads: SearchEvalResult['reads'] = [];
  for (const { tools, toolSet } of options.extras ? sets : []) {
    const all = JSON.stringify(toolSet.entries.map(({ name, tool }) => ({ name, description: tool.description, inputSchema: tool.inputSchema })));
    reads.push({ listing: `every tool's schema (${tools.toLocaleString('en-US')} tools)`, tools, chars: all.length, approxTokens: Math.round(all.length / 4) });
    const search = createToolSearch(toolSet);
    const definition = JSON.stringify(toolSearchDefinition({ toolCount: tools }));
    const answers: number[] = [];
    for (const task of tasks) answers.push(describeToolHits(await search.search(task.query, { limit: 5 })).text.length);
    const chars = definition.length + Math.round(median(answers));
    reads.push({
      listing: `search tool + one search's 5 hits (median over tasks), ${tools.toLocaleString('en-US')} tools`,
      tools,
      chars,
      approxTokens: Math.round(chars / 4),
    });
  }

  return {
    set: { id: named.id, title: named.title, file: named.file },
    tasks: tasks.length,
    hardTasks: tasks.filter((task) => task.hard).length,
    apis: labelled.map((key) => ({ key, title: set.apis[key]!.title, licence: set.apis[key]!.licence, tools: discoveries.get(key)!.tools.length })),
    distractorTools: fullTools - labelled.reduce((sum, key) => sum + (discoveries.get(key) as RcpDiscovery).tools.length, 0),
    recall,
    timing,
    worstCase,
    missedByDefaults,
    halves: {
      dev: tasks.filter((task) => task.split === 'dev').length,
      devHard: tasks.filter((task) => task.split === 'dev' && task.hard).length,
      heldout: tasks.filter((task) => task.split === 'heldout').length,
      heldoutHard: tasks.filter((task) => task.split === 'heldout' && task.hard).length,
    },
    reads,
    notes: [...notes, `synonym groups: ${DEFAULT_SYNONYMS.length} (rcp-search DEFAULT_SYNONYMS)`],
  };
}
