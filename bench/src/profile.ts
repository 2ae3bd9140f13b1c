/**
 * `node bench/dist/profile.js [contender ...]`: V8 CPU profile (the profiler behind `node --cpu-prof`,
 * driven through `node:inspector` so each contender gets its own profile) of the call-overhead
 * contenders against the same upstream process. Prints self time by package and the hottest
 * functions, and writes `bench/results/<contender>.cpuprofile` (open in Chrome DevTools).
 *
 * Default contenders: fetch rcp (also: undici, ky, utcp-silenced). Calls: 4,000 sequential + 8,000 64-way after 1,000 warm-up calls;
 * `--mode=sequential` or `--mode=concurrent` profiles one mode only.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { Session, type Profiler } from 'node:inspector';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { kyContender, rawFetch, rawFetchWithSignal, rawUndici, rcpContender, utcpContender, type Contender } from './call-overhead/contenders.js';
import { startChild } from './call-overhead/ipc.js';
import { post, summarizeProfile as summarize } from './lib/cpu-profile.js';
import { markdownTable } from './lib/format.js';

const benchDir = dirname(dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const modeArg = args.find((a) => a.startsWith('--mode='))?.slice('--mode='.length) ?? 'both';
const ids = args.filter((a) => !a.startsWith('--'));
const wanted = ids.length > 0 ? ids : ['fetch', 'rcp'];
const SEQUENTIAL = modeArg === 'concurrent' ? 0 : 4_000;
const CONCURRENT = modeArg === 'sequential' ? 0 : 8_000;

async function drive(contender: Contender): Promise<void> {
  for (let i = 0; i < SEQUENTIAL; i++) await contender.call(i);
  let next = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < CONCURRENT) await contender.call(next++);
    }),
  );
}

const upstream = await startChild(join(benchDir, 'dist', 'upstream-server.js'), []);
const origin = `http://127.0.0.1:${upstream.port}`;
const factories: Record<string, () => Contender> = {
  fetch: () => rawFetch(origin),
  'fetch-signal': () => rawFetchWithSignal(origin),
  ky: () => kyContender(origin),
  undici: () => rawUndici(origin),
  rcp: () => rcpContender(origin),
  'rcp-fetch': () => rcpContender(origin, 'fetch'),
  'utcp-silenced': () => utcpContender(origin, true),
};
const session = new Session();
session.connect();
await post(session, 'Profiler.enable');
await post(session, 'Profiler.setSamplingInterval', { interval: 100 });
mkdirSync(join(benchDir, 'results'), { recursive: true });

try {
  for (const id of wanted) {
    const make = factories[id];
    if (make === undefined) throw new Error(`unknown contender ${id} (one of ${Object.keys(factories).join(', ')})`);
    const contender = make();
    await contender.setup();
    await contender.check();
    contender.before?.();
    for (let i = 0; i < 1_000; i++) await contender.call(i);
    const cpuBefore = process.cpuUsage();
    const start = performance.now();
    await post(session, 'Profiler.start');
    await drive(contender);
    const { profile } = await post<{ profile: Profiler.Profile }>(session, 'Profiler.stop');
    const wall = performance.now() - start;
    const cpu = process.cpuUsage(cpuBefore);
    contender.after?.();
    const file = join(benchDir, 'results', `${id}${modeArg === 'both' ? '' : `-${modeArg}`}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    const { total, byOwner, top } = summarize(profile);
    const calls = SEQUENTIAL + CONCURRENT;
    process.stdout.write(
      `\n## ${contender.label}: ${calls} calls in ${wall.toFixed(0)} ms, client CPU ${((cpu.user + cpu.system) / calls).toFixed(1)} µs/call (profile: ${file})\n\n`,
    );
    process.stdout.write(
      `${markdownTable(
        ['Self time by package', 'µs/call', 'share'],
        byOwner.slice(0, 12).map(([name, micros]) => [name, (micros / calls).toFixed(1), `${((micros / total) * 100).toFixed(1)}%`]),
        ['l', 'r', 'r'],
      )}\n\n`,
    );
    process.stdout.write(
      `${markdownTable(
        ['Hottest functions (self time)', 'µs/call', 'share'],
        top.map(([name, micros]) => [name, (micros / calls).toFixed(2), `${((micros / total) * 100).toFixed(1)}%`]),
        ['l', 'r', 'r'],
      )}\n`,
    );
  }
} finally {
  session.disconnect();
  await upstream.stop();
}
process.exit(0);
