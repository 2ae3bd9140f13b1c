/**
 * The client side of the call-overhead scenario, run as a child of `run.js` with stdout sent to
 * /dev/null (UTCP logs every call to stdout "as shipped"). It starts the upstream and MCP server
 * processes, runs every contender interleaved (rotated order each round), and sends the summary
 * back over IPC. Progress goes to stderr.
 */
import { fileURLToPath } from 'node:url';
import { median, percentileSorted, rotate } from '../lib/stats.js';
import { kyContender, mcpContender, rawFetch, rawFetchWithSignal, rawUndici, rcpContender, utcpContender, type Contender } from './contenders.js';
import { startChild, type BenchChild } from './ipc.js';
import { modelReadsRow, type ModelFacingTool, type ModelReadsRow } from '../model-reads.js';
import type { CallClientMessage, CallOverheadConfig, CallOverheadResult, ContenderSummary, ModeSummary, SegmentResult } from './types.js';

const log = (text: string) => process.stderr.write(`  [call] ${text}\n`);
const config = JSON.parse(process.argv[2] ?? '{}') as CallOverheadConfig;
const SEGMENT_TIMEOUT_MS = 90_000;

type Mode = 'sequential' | 'concurrent';

async function cpuMicrosAll(children: BenchChild[]): Promise<number> {
  const own = process.cpuUsage();
  const others = await Promise.all(children.map((c) => c.cpuMicros()));
  return own.user + own.system + others.reduce((a, b) => a + b, 0);
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
    }),
  ]);
}

/** The raw outcome of one slice: `calls` calls of one contender in one mode. */
interface Slice {
  calls: number;
  errors: number;
  wallMs: number;
  cpuMicros: number;
  latencies: Float64Array;
}

/** Runs `calls` calls of `contender` in `mode`, timing each call. `offset` varies the call indices. */
async function slice(contender: Contender, mode: Mode, calls: number, offset: number, children: BenchChild[]): Promise<Slice> {
  const latencies = new Float64Array(calls);
  let errors = 0;
  let firstError: unknown;
  const one = async (i: number) => {
    const start = performance.now();
    try {
      await contender.call(offset + i);
    } catch (error) {
      errors++;
      firstError ??= error;
    }
    latencies[i] = performance.now() - start;
  };
  contender.before?.();
  try {
    const cpuBefore = await cpuMicrosAll(children);
    const start = performance.now();
    if (mode === 'sequential') {
      for (let i = 0; i < calls; i++) await one(i);
    } else {
      let next = 0;
      const worker = async () => {
        while (next < calls) await one(next++);
      };
      await Promise.all(Array.from({ length: Math.min(config.concurrency, calls) }, worker));
    }
    const wallMs = performance.now() - start;
    const cpuAfter = await cpuMicrosAll(children);
    if (errors > calls / 100) throw new Error(`${errors} of ${calls} calls failed, first: ${String(firstError)}`);
    return { calls, errors, wallMs, cpuMicros: cpuAfter - cpuBefore, latencies };
  } finally {
    contender.after?.();
  }
}

/** One round of one contender: its slices merged. */
function mergeSlices(slices: Slice[]): SegmentResult {
  const calls = slices.reduce((a, s) => a + s.calls, 0);
  const wallMs = slices.reduce((a, s) => a + s.wallMs, 0);
  const latencies = new Float64Array(calls);
  let at = 0;
  for (const s of slices) {
    latencies.set(s.latencies, at);
    at += s.calls;
  }
  latencies.sort();
  return {
    calls,
    errors: slices.reduce((a, s) => a + s.errors, 0),
    wallMs,
    callsPerSecond: (calls / wallMs) * 1000,
    p50Ms: percentileSorted(latencies, 50),
    p99Ms: percentileSorted(latencies, 99),
    cpuMicrosPerCall: slices.reduce((a, s) => a + s.cpuMicros, 0) / calls,
  };
}

function summarize(rounds: SegmentResult[], baseline: SegmentResult[]): ModeSummary {
  return {
    rounds,
    callsPerSecond: median(rounds.map((r) => r.callsPerSecond)),
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    cpuMicrosPerCall: median(rounds.map((r) => r.cpuMicrosPerCall)),
    ratioToFetch: median(rounds.map((r, k) => r.callsPerSecond / baseline[k]!.callsPerSecond)),
    cpuRatioToFetch: median(rounds.map((r, k) => r.cpuMicrosPerCall / baseline[k]!.cpuMicrosPerCall)),
    errors: rounds.reduce((a, r) => a + r.errors, 0),
  };
}

async function main(): Promise<CallOverheadResult> {
  const startedAt = performance.now();
  const notes: string[] = [];
  const upstreamPath = fileURLToPath(new URL('./upstream-server.js', import.meta.url));
  const mcpPath = fileURLToPath(new URL('./mcp-server.js', import.meta.url));
  const upstream = await startChild(upstreamPath, []);
  const origin = `http://127.0.0.1:${upstream.port}`;
  const mcp = await startChild(mcpPath, [origin]);
  const gateway = await startChild(fileURLToPath(new URL('./mcp-gateway-server.js', import.meta.url)), [origin]);
  const children = [upstream, mcp, gateway];
  log(`upstream ${origin}, MCP server http://127.0.0.1:${mcp.port}/mcp, RCP MCP gateway http://127.0.0.1:${gateway.port}/mcp (separate processes)`);

  const all: Contender[] = [
    rawFetch(origin),
    rawFetchWithSignal(origin),
    rawUndici(origin),
    kyContender(origin),
    rcpContender(origin),
    rcpContender(origin, 'fetch'),
    utcpContender(origin, false),
    utcpContender(origin, true),
    mcpContender(`http://127.0.0.1:${mcp.port}/mcp`),
    mcpContender(`http://127.0.0.1:${gateway.port}/mcp`, {
      id: 'mcp-gateway',
      label: 'RCP through the MCP gateway (rcp-mcp)',
      does: 'the same MCP client → rcp-mcp gateway process (stateless handler, fresh McpServer per request) → rcp-client call (validation, render, capped read, mappings) to the upstream',
    }),
  ];
  const unavailable = new Map<string, string>();
  for (const contender of all) {
    try {
      await withTimeout(contender.setup(), 20_000, `${contender.id} setup`);
      await withTimeout(contender.check(), 20_000, `${contender.id} check`);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      unavailable.set(contender.id, reason.split('\n')[0]!.slice(0, 300));
      log(`${contender.id}: n/a — ${reason.split('\n')[0]}`);
    }
  }
  const listingOf = async (id: string): Promise<ModelFacingTool[] | Error> => {
    const contender = all.find((c) => c.id === id)!;
    if (unavailable.has(id)) return new Error(unavailable.get(id));
    try {
      return await contender.listing!();
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  };
  const modelReads: ModelReadsRow[] = [
    modelReadsRow('RCP (rcp-client discover)', 'learnerId is resolver-bound, so it is absent from the schema', await listingOf('rcp')),
    modelReadsRow('MCP (tools/list from the MCP server)', 'learnerId visible; zod → JSON Schema by the SDK', await listingOf('mcp'), 572),
    modelReadsRow(
      'UTCP (UtcpClient.getTools)',
      'learnerId visible; names namespaced by the manual ("learning."); the query parameter is the wire name `q`',
      await listingOf('utcp'),
      470,
    ),
  ];

  if (unavailable.has('fetch')) throw new Error(`the baseline does not work: ${unavailable.get('fetch')}`);

  const callsFor = (contender: Contender, mode: Mode) => {
    const base = mode === 'sequential' ? config.sequentialCalls : config.concurrentCalls;
    return config.slowContenders.includes(contender.id) ? Math.max(64, Math.round(base * config.slowScale)) : base;
  };
  for (const id of config.slowContenders) {
    if (config.slowScale !== 1) {
      notes.push(
        `${id}: ${Math.round(config.sequentialCalls * config.slowScale)} sequential / ${Math.round(config.concurrentCalls * config.slowScale)} concurrent calls per round (scaled ×${config.slowScale} to keep the run under five minutes; calls/s and ratios are per-second rates, so comparable).`,
      );
    }
  }

  const active = () => all.filter((c) => !unavailable.has(c.id));
  log('warm-up');
  for (const contender of active()) {
    try {
      const scale = config.slowContenders.includes(contender.id) ? config.slowScale : 1;
      await withTimeout(slice(contender, 'sequential', Math.max(32, Math.round(config.warmupSequential * scale)), 7, children), SEGMENT_TIMEOUT_MS, 'warm-up');
      await withTimeout(slice(contender, 'concurrent', Math.max(64, Math.round(config.warmupConcurrent * scale)), 11, children), SEGMENT_TIMEOUT_MS, 'warm-up');
    } catch (error) {
      unavailable.set(contender.id, `warm-up failed: ${String(error).slice(0, 300)}`);
    }
  }

  // Each round's calls are split into slices, and the slices of all contenders are interleaved
  // (rotated order per slice), so every contender sees the same machine conditions within a round.
  const rounds = new Map<string, Record<Mode, SegmentResult[]>>();
  for (const contender of all) rounds.set(contender.id, { sequential: [], concurrent: [] });
  for (let round = 0; round < config.rounds; round++) {
    for (const mode of ['sequential', 'concurrent'] as const) {
      const slices = mode === 'sequential' ? config.sequentialSlices : config.concurrentSlices;
      const collected = new Map<string, Slice[]>();
      for (let k = 0; k < slices; k++) {
        for (const contender of rotate(active(), round * slices + k)) {
          const calls = Math.max(1, Math.round(callsFor(contender, mode) / slices));
          try {
            const result = await withTimeout(slice(contender, mode, calls, round * 7919 + k * calls, children), SEGMENT_TIMEOUT_MS, `${contender.id} ${mode}`);
            if (!collected.has(contender.id)) collected.set(contender.id, []);
            collected.get(contender.id)!.push(result);
          } catch (error) {
            unavailable.set(contender.id, `failed in round ${round + 1}: ${String(error).slice(0, 300)}`);
          }
        }
      }
      const line: string[] = [];
      for (const contender of all) {
        const got = collected.get(contender.id);
        if (unavailable.has(contender.id) || got === undefined) continue;
        const merged = mergeSlices(got);
        rounds.get(contender.id)![mode].push(merged);
        line.push(`${contender.id} ${Math.round(merged.callsPerSecond)}/s`);
      }
      log(`round ${round + 1}/${config.rounds} ${mode}: ${line.join(', ')}`);
    }
  }

  const baseline = rounds.get('fetch')!;
  const contenders: ContenderSummary[] = all.map((contender) => {
    const reason = unavailable.get(contender.id);
    const own = rounds.get(contender.id)!;
    if (reason !== undefined || own.sequential.length !== config.rounds || own.concurrent.length !== config.rounds) {
      return { id: contender.id, label: contender.label, does: contender.does, status: 'n/a', reason: reason ?? 'incomplete rounds' };
    }
    return {
      id: contender.id,
      label: contender.label,
      does: contender.does,
      status: 'ok',
      sequential: summarize(own.sequential, baseline.sequential),
      concurrent: summarize(own.concurrent, baseline.concurrent),
    };
  });

  for (const contender of all) await contender.close?.().catch(() => {});
  await Promise.all(children.map((c) => c.stop()));
  return { config, contenders, modelReads, notes, wallSeconds: (performance.now() - startedAt) / 1000 };
}

// If run.js goes away (killed, crashed), stop: exiting runs ipc.ts's exit hook, which kills the servers.
process.on('disconnect', () => process.exit(1));

// The whole scenario is bounded: if anything hangs, give up and let the parent report it.
const watchdog = setTimeout(() => {
  process.send?.({ type: 'failed', message: 'call-overhead scenario exceeded 240 s' } satisfies CallClientMessage);
  process.exit(2);
}, 240_000);
watchdog.unref();

main().then(
  (result) => {
    process.send?.({ type: 'result', result } satisfies CallClientMessage, () => process.exit(0));
  },
  (error: unknown) => {
    process.send?.({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies CallClientMessage, () =>
      process.exit(1),
    );
  },
);
