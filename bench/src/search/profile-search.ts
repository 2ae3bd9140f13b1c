/**
 * `node bench/dist/profile-search.js`: a CPU profile (`node --cpu-prof` style, through
 * `node:inspector`) of rcp-search's queries over the 5,000-tool catalog of scenario 9 (issue 28),
 * every eval task 20 times after a warm-up. Prints the hottest functions by self time and the
 * per-query time, and writes `bench/results/search.cpuprofile` (open in Chrome DevTools).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session, type Profiler } from 'node:inspector';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createToolSearch } from 'rcp-search';
import { post } from '../lib/cpu-profile.js';
import { markdownTable } from '../lib/format.js';
import { loadSearchCatalogs } from './run-search-eval.js';

const benchDir = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

const { set, sets } = await loadSearchCatalogs();
const { toolSet, tools } = sets[sets.length - 1]!;
const search = createToolSearch(toolSet);
const queries = set.tasks.map((task) => task.query);
for (let warm = 0; warm < 3; warm++) for (const query of queries) await search.search(query);

const session = new Session();
session.connect();
await post(session, 'Profiler.enable');
await post(session, 'Profiler.setSamplingInterval', { interval: 100 });
await post(session, 'Profiler.start');
const repeat = 20;
const start = performance.now();
for (let r = 0; r < repeat; r++) for (const query of queries) await search.search(query);
const micros = ((performance.now() - start) * 1000) / (repeat * queries.length);
const { profile } = await post<{ profile: Profiler.Profile }>(session, 'Profiler.stop');
session.disconnect();

const self = new Map<string, number>();
const deltas = profile.timeDeltas ?? [];
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
(profile.samples ?? []).forEach((id, i) => {
  const { callFrame } = byId.get(id)!;
  const key = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.split('/node_modules/').at(-1)?.split('/').slice(-2).join('/') ?? ''}:${callFrame.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + (deltas[i] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);
const rows = [...self.entries()]
  .sort((a, b) => b[1] - a[1])
  .slice(0, 25)
  .map(([name, us]) => [name, `${((us / total) * 100).toFixed(1)}%`]);
console.log(
  `${queries.length} queries × ${repeat} over ${tools.toLocaleString('en-US')} tools: ${micros.toFixed(0)} µs per query (wall, under the profiler)\n`,
);
console.log(markdownTable(['Function (self time)', 'share'], rows, ['l', 'r']));
mkdirSync(join(benchDir, 'results'), { recursive: true });
writeFileSync(join(benchDir, 'results', 'search.cpuprofile'), JSON.stringify(profile));
