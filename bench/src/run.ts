/**
 * `pnpm bench`: RCP against raw fetch, ky, UTCP and MCP on the same work, in the same run.
 * Prints Markdown tables on stdout (progress on stderr) and writes bench/results/latest.json.
 *
 * Environment (for development only; the defaults are the published setup):
 *   BENCH_QUICK=1            small counts, 2 rounds (a smoke run; numbers are not comparable)
 *   BENCH_ROUNDS, BENCH_SEQ, BENCH_CONC, BENCH_MCP_SCALE, BENCH_ONLY=call,discovery,template,mapping,footprint,oauth,server,search,coldstart,approval,stream,upload
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCallOverhead } from './call-overhead/run-call-overhead.js';
import type { CallOverheadConfig, CallOverheadResult, ContenderSummary } from './call-overhead/types.js';
import { runDiscovery, type DiscoveryResult } from './discovery.js';
import { runFootprint, type FootprintResult } from './footprint.js';
import { bytes, markdownTable, ms, ns, num, ratio, us } from './lib/format.js';
import { contenderVersions, machineInfo } from './lib/machine.js';
import { atLeast, atMost, type TargetRow } from './lib/targets.js';
import type { ModelReadsRow } from './model-reads.js';
import { runResponseMapping, type ResponseMappingResult } from './response-mapping.js';
import { runServerHandler, type ServerHandlerResult } from './server-handler.js';
import { runTemplateRender, type TemplateRenderResult } from './template-render.js';
import { runOAuthToken, type OAuthTokenResult } from './oauth-token.js';
import { runApprovalLedger, type ApprovalLedgerResult } from './approval-ledger.js';
import { runStreamCollect, type StreamCollectResult } from './stream-collect.js';
import { runUploadThroughput, type UploadThroughputResult } from './upload-throughput.js';
import { renderSearchSection } from './search/render-search-section.js';
import { runColdStart, type ColdStartResult } from './cold-start/run-cold-start.js';
import { runSearchEvals, type SearchEvalResult } from './search/run-search-eval.js';

const startedAt = performance.now();
const benchDir = dirname(dirname(fileURLToPath(import.meta.url)));
const quick = process.env.BENCH_QUICK === '1';
const ALL_SECTIONS = ['call', 'discovery', 'template', 'mapping', 'footprint', 'oauth', 'server', 'search', 'coldstart', 'approval', 'stream', 'upload'];
const only = new Set(process.env.BENCH_ONLY === undefined ? ALL_SECTIONS : process.env.BENCH_ONLY.split(','));
const envNumber = (name: string, fallback: number) => (process.env[name] === undefined ? fallback : Number(process.env[name]));
const progress = (text: string) => process.stderr.write(`[bench ${((performance.now() - startedAt) / 1000).toFixed(0).padStart(3)}s] ${text}\n`);

const ROUNDS = envNumber('BENCH_ROUNDS', quick ? 2 : 5);
const callConfig: CallOverheadConfig = {
  rounds: ROUNDS,
  sequentialCalls: envNumber('BENCH_SEQ', quick ? 300 : 2_000),
  concurrentCalls: envNumber('BENCH_CONC', quick ? 1_000 : 5_000),
  concurrency: 64,
  sequentialSlices: 8,
  concurrentSlices: 5,
  warmupSequential: quick ? 100 : 300,
  warmupConcurrent: quick ? 300 : 1_000,
  slowContenders: ['mcp', 'mcp-gateway'],
  slowScale: envNumber('BENCH_MCP_SCALE', 0.25),
};

/** Reference ratios to raw fetch given by issue 6 for the peers (sequential / 64-way). */
const ISSUE_REFERENCE: Record<string, string> = {
  fetch: '1.00 / 1.00',
  ky: '0.82 / 0.63',
  rcp: 'target ≥ 1.4 / ≥ 2.5',
  'rcp-fetch': 'target ≥ 0.92 / ≥ 0.93',
  undici: 'limit: rcp ≥ 0.9×',
  utcp: '0.87 / 0.74',
  'utcp-silenced': '0.92 / 0.93',
  mcp: '0.21 / 0.17',
  'mcp-gateway': 'target ≥ 1 / ≥ 2× mcp',
};

const out: string[] = [];
const print = (text = '') => out.push(text);

// ---------------------------------------------------------------------------------------------
const machine = machineInfo();
const versions = contenderVersions();
progress(`${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}; load ${machine.loadAverage1m}`);

let call: CallOverheadResult | { error: string } | undefined;
if (only.has('call')) {
  progress(
    `1/5 call overhead: ${callConfig.rounds} rounds × (${callConfig.sequentialCalls} sequential + ${callConfig.concurrentCalls} at ${callConfig.concurrency}-way) per contender`,
  );
  try {
    call = await runCallOverhead(callConfig);
  } catch (error) {
    call = { error: error instanceof Error ? error.message : String(error) };
    progress(`call overhead failed: ${call.error}`);
  }
}

let discovery: DiscoveryResult | { error: string } | undefined;
if (only.has('discovery')) {
  progress('2/5 discovery');
  try {
    discovery = await runDiscovery({ rounds: ROUNDS, sizes: quick ? [10, 1_000] : [10, 1_000, 5_000, 10_000] });
  } catch (error) {
    discovery = { error: String((error as Error)?.stack ?? error) };
    progress(`discovery failed: ${discovery.error}`);
  }
}

let serverSide: ServerHandlerResult | { error: string } | undefined;
if (only.has('server')) {
  progress('server side: rcp-server vs a hand-written handler and Hono');
  try {
    serverSide = await runServerHandler({ rounds: ROUNDS, calls: quick ? 2_000 : 20_000 });
  } catch (error) {
    serverSide = { error: String((error as Error)?.stack ?? error) };
    progress(`server side failed: ${serverSide.error}`);
  }
}

let template: TemplateRenderResult | { error: string } | undefined;
if (only.has('template')) {
  progress('3/5 template render');
  try {
    template = runTemplateRender({ rounds: ROUNDS, iterations: quick ? 50_000 : 300_000 });
  } catch (error) {
    template = { error: String((error as Error)?.stack ?? error) };
    progress(`template render failed: ${template.error}`);
  }
}

let mapping: ResponseMappingResult | { error: string } | undefined;
if (only.has('mapping')) {
  progress('4/5 response mapping');
  try {
    mapping = runResponseMapping({
      rounds: ROUNDS,
      smallIterations: quick ? 50_000 : 300_000,
      bigIterations: quick ? 50_000 : 300_000,
      wildcardIterations: quick ? 20 : 100,
    });
  } catch (error) {
    mapping = { error: String((error as Error)?.stack ?? error) };
    progress(`response mapping failed: ${mapping.error}`);
  }
}

let footprint: FootprintResult | { error: string } | undefined;
if (only.has('footprint')) {
  progress('5/5 footprint');
  try {
    footprint = await runFootprint({ spawns: quick ? 3 : 7 });
  } catch (error) {
    footprint = { error: String((error as Error)?.stack ?? error) };
    progress(`footprint failed: ${footprint.error}`);
  }
}

let coldStart: ColdStartResult | { error: string } | undefined;
if (only.has('coldstart')) {
  progress('cold start and memory (issue 26): fresh processes, then a heap child with --expose-gc');
  try {
    coldStart = await runColdStart({ spawns: quick ? 3 : 7, heapSizes: quick ? [1_000] : [1_000, 5_000] });
  } catch (error) {
    coldStart = { error: String((error as Error)?.stack ?? error) };
    progress(`cold start failed: ${coldStart.error}`);
  }
}

let searchEval: SearchEvalResult[] | { error: string } | undefined;
if (only.has('search')) {
  progress('6/6 (after the five above) tool search (imports the real API descriptions of both evaluation sets and the distractors, then searches)');
  try {
    searchEval = await runSearchEvals({ rounds: ROUNDS, quick });
  } catch (error) {
    searchEval = { error: String((error as Error)?.stack ?? error) };
    progress(`tool search failed: ${searchEval.error}`);
  }
}

// ---------------------------------------------------------------------------------------------
const isError = (value: unknown): value is { error: string } => typeof value === 'object' && value !== null && 'error' in value;
const targets: TargetRow[] = [];

print(`# RCP bench — ${new Date().toISOString().slice(0, 10)}`);
print();
print(
  `Machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB RAM, ${machine.platform} ${machine.arch}, Node ${machine.node}. ` +
    `1-minute load average at start: ${machine.loadAverage1m} (other work on the machine makes every number noisier). ` +
    `Medians of ${ROUNDS} interleaved rounds after warm-up; ratios are to raw fetch (higher is better for throughput).`,
);
print(
  `Versions: ${Object.entries(versions)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}.`,
);
if (quick) print('\n**BENCH_QUICK=1: smoke run with small counts — numbers are not comparable.**');
print();

let approvalLedger: ApprovalLedgerResult | { error: string } | undefined;
if (only.has('approval')) {
  progress('approval: an approved, keyed write on the Redis ledger, the in-memory ledger, and with no approval');
  try {
    approvalLedger = await runApprovalLedger({ rounds: ROUNDS, calls: quick ? 200 : 1_000 });
    if (approvalLedger.redisSkipped !== undefined) progress(`approval: the Redis row is skipped: ${approvalLedger.redisSkipped}`);
  } catch (error) {
    approvalLedger = { error: String((error as Error)?.stack ?? error) };
    progress(`approval failed: ${approvalLedger.error}`);
  }
}

let streamCollect: StreamCollectResult | { error: string } | undefined;
if (only.has('stream')) {
  progress('stream: 10,000 SSE events collected by rcp-client vs a plain read of the same bytes');
  try {
    streamCollect = await runStreamCollect({ rounds: ROUNDS, reads: quick ? 4 : 20, events: 10_000 });
  } catch (error) {
    streamCollect = { error: String((error as Error)?.stack ?? error) };
    progress(`stream failed: ${streamCollect.error}`);
  }
}

let uploadThroughput: UploadThroughputResult | { error: string } | undefined;
if (only.has('upload')) {
  progress('upload: a 10 MB file through rcp-client vs a hand-written fetch with FormData');
  try {
    uploadThroughput = await runUploadThroughput({ rounds: ROUNDS, uploads: quick ? 2 : 8, fileBytes: 10_000_000 });
  } catch (error) {
    uploadThroughput = { error: String((error as Error)?.stack ?? error) };
    progress(`upload failed: ${uploadThroughput.error}`);
  }
}

let oauth: OAuthTokenResult | { error: string } | undefined;
if (only.has('oauth')) {
  progress('oauth: a cached-token call next to a static-credential call');
  try {
    oauth = await runOAuthToken({ rounds: ROUNDS, calls: quick ? 300 : 2_000 });
  } catch (error) {
    oauth = { error: String((error as Error)?.stack ?? error) };
    progress(`oauth failed: ${oauth.error}`);
  }
}

// 1. Call overhead
print('## 1. Call overhead (same two seed calls, alternating; upstream, MCP server and client in separate processes)');
print();
if (call === undefined) print('_skipped_');
else if (isError(call)) print(`**failed:** ${call.error}`);
else {
  const c = call.config;
  print(
    `${c.sequentialCalls.toLocaleString('en-US')} sequential and ${c.concurrentCalls.toLocaleString('en-US')} ${c.concurrency}-way concurrent calls per contender per round, ${c.rounds} rounds. Each round is split into ${c.sequentialSlices} sequential / ${c.concurrentSlices} concurrent slices per contender, and the slices of all contenders are interleaved (order rotated every slice), so a contender's calls/s in a round and the raw-fetch calls/s it is divided by come from the same stretch of time. ` +
      `CPU/call is the CPU time of all processes (client + upstream + MCP server) divided by calls.`,
  );
  if (c.sequentialCalls < 2_000 || c.concurrentCalls < 10_000) {
    print(
      `\n_Note: issue 6's setup is 2,000 sequential and 10,000 64-way calls per round; this run does ${c.sequentialCalls.toLocaleString('en-US')} and ${c.concurrentCalls.toLocaleString('en-US')} so that \`pnpm bench\` finishes in under five minutes on this 2-core machine. calls/s, latencies and ratios are rates, so they stay comparable._`,
    );
  }
  for (const note of call.notes) print(`\n_Note: ${note}_`);
  print();
  const row = (s: ContenderSummary, mode: 'sequential' | 'concurrent') => {
    const m = s[mode];
    if (s.status !== 'ok' || m === undefined)
      return [s.label, mode === 'sequential' ? 'seq' : `${c.concurrency}-way`, 'n/a', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a', ISSUE_REFERENCE[s.id] ?? ''];
    return [
      s.label,
      mode === 'sequential' ? 'seq' : `${c.concurrency}-way`,
      num(m.callsPerSecond),
      ratio(m.ratioToFetch),
      ms(m.p50Ms),
      ms(m.p99Ms),
      us(m.cpuMicrosPerCall),
      ratio(m.cpuRatioToFetch),
      ISSUE_REFERENCE[s.id] ?? '',
    ];
  };
  const rows: string[][] = [];
  for (const mode of ['sequential', 'concurrent'] as const) for (const s of call.contenders) rows.push(row(s, mode));
  print(
    markdownTable(['Contender', 'Mode', 'calls/s', '× fetch', 'p50', 'p99', 'CPU/call', 'CPU × fetch', 'issue ref (seq / 64-way)'], rows, [
      'l',
      'l',
      'r',
      'r',
      'r',
      'r',
      'r',
      'r',
      'l',
    ]),
  );
  const unavailable = call.contenders.filter((s) => s.status !== 'ok');
  for (const s of unavailable) print(`\n- **${s.label}: n/a** — ${s.reason}`);
  print();
  print('What each contender does per call:');
  for (const s of call.contenders) print(`- **${s.label}** — ${s.does}`);

  const rcp = call.contenders.find((s) => s.id === 'rcp');
  const mcp = call.contenders.find((s) => s.id === 'mcp');
  const rcpFetch = call.contenders.find((s) => s.id === 'rcp-fetch');
  const undici = call.contenders.find((s) => s.id === 'undici');
  // Peers: other ways of calling an API, not the limits (raw fetch, raw undici) nor RCP itself.
  const peers = call.contenders.filter((s) => !['rcp', 'rcp-fetch', 'fetch', 'fetch-signal', 'undici', 'mcp-gateway'].includes(s.id) && s.status === 'ok');
  const x = (v: number) => `${v.toFixed(2)}×`;
  targets.push(atLeast('Node default transport ≥ 1.4× raw fetch, sequential', rcp?.sequential?.ratioToFetch, 1.4, x));
  targets.push(atLeast('Node default transport ≥ 2.5× raw fetch, 64-way', rcp?.concurrent?.ratioToFetch, 2.5, x));
  for (const mode of ['sequential', 'concurrent'] as const) {
    const mine = rcp?.[mode]?.callsPerSecond;
    const limit = undici?.[mode]?.callsPerSecond;
    targets.push(
      atLeast(
        `Node default transport ≥ 0.9× raw undici.request (${mode === 'sequential' ? 'seq' : '64-way'})`,
        mine !== undefined && limit !== undefined ? mine / limit : undefined,
        0.9,
        x,
      ),
    );
  }
  const mcpConcurrent = mcp?.concurrent?.callsPerSecond;
  targets.push(
    atLeast(
      'Node default transport ≥ 20× MCP, 64-way',
      rcp?.concurrent?.callsPerSecond !== undefined && mcpConcurrent !== undefined ? rcp.concurrent.callsPerSecond / mcpConcurrent : undefined,
      20,
      (v) => `${v.toFixed(1)}×`,
    ),
  );
  targets.push(atLeast('fetch transport ≥ 0.92× raw fetch, sequential', rcpFetch?.sequential?.ratioToFetch, 0.92, x));
  targets.push(atLeast('fetch transport ≥ 0.93× raw fetch, 64-way', rcpFetch?.concurrent?.ratioToFetch, 0.93, x));
  for (const mode of ['sequential', 'concurrent'] as const) {
    const best = peers.reduce<ContenderSummary | undefined>((a, b) => ((b[mode]?.ratioToFetch ?? 0) > (a?.[mode]?.ratioToFetch ?? 0) ? b : a), undefined);
    const mine = rcp?.[mode]?.ratioToFetch;
    const theirs = best?.[mode]?.ratioToFetch;
    targets.push(
      mine === undefined || theirs === undefined
        ? { target: `ahead of every peer (${mode})`, measured: 'n/a', status: 'n/a (not measured)', met: null }
        : {
            target: `ahead of every peer (${mode === 'sequential' ? 'seq' : '64-way'})`,
            measured: `${mine.toFixed(2)}× vs best peer ${best!.label} ${theirs.toFixed(2)}×`,
            status: mine > theirs ? 'met' : `missed by ${(theirs - mine).toFixed(2)}×`,
            met: mine > theirs,
          },
    );
    const rcpCps = rcp?.[mode]?.callsPerSecond;
    const mcpCps = mcp?.[mode]?.callsPerSecond;
    targets.push(
      atLeast(
        `≥ 4× the MCP proxy path's throughput (${mode === 'sequential' ? 'seq' : '64-way'})`,
        rcpCps !== undefined && mcpCps !== undefined ? rcpCps / mcpCps : undefined,
        4,
        (v) => `${v.toFixed(1)}×`,
      ),
    );
    const gatewayCps = call.contenders.find((s) => s.id === 'mcp-gateway')?.[mode]?.callsPerSecond;
    // Issue 6: no slower (seq); issue 26: at least twice the hand-written server's throughput at 64-way.
    const gatewayGoal = mode === 'sequential' ? 1 : 2;
    targets.push(
      atLeast(
        mode === 'sequential'
          ? 'RCP through the MCP gateway no slower than the hand-written MCP server (seq)'
          : 'MCP gateway ≥ 2× the hand-written MCP server, 64-way (issue 26)',
        gatewayCps !== undefined && mcpCps !== undefined ? gatewayCps / mcpCps : undefined,
        gatewayGoal,
        (v) => `${v.toFixed(2)}×`,
      ),
    );
  }
}
print();

// 2. Discovery
print('## 2. Discovery (generated manifests, six template shapes)');
print();
if (discovery === undefined) print('_skipped_');
else if (isError(discovery)) print(`**failed:** ${discovery.error}`);
else {
  const ops = discovery.sizes[0]?.ops.map((o) => o.op) ?? [];
  const rows: string[][] = [];
  for (const op of ops) {
    for (const size of discovery.sizes) {
      const r = size.ops.find((o) => o.op === op)!;
      rows.push([
        op,
        num(size.tools),
        bytes(size.manifestBytes),
        r.status === 'ok' ? ms(r.ms) : `n/a — ${r.reason}`,
        r.status === 'ok' ? us(r.microsPerTool) : 'n/a',
      ]);
    }
  }
  print(markdownTable(['Operation', 'Tools', 'Manifest', 'median', 'per tool'], rows, ['l', 'r', 'r', 'r', 'r']));
  for (const note of discovery.notes) print(`\n_Note: ${note}_`);
  const find = (tools: number, op: string) => discovery.sizes.find((s) => s.tools === tools)?.ops.find((o) => o.op === op);
  const memoryOp = 'discover (in-memory fetch) + describe';
  targets.push(
    atMost(
      `discover + describe, 1,000 tools, per tool ≤ 30 µs — ${memoryOp} (issue 26)`,
      find(1_000, memoryOp)?.microsPerTool,
      30,
      (v) => `${v.toFixed(1)} µs`,
    ),
  );
  const flat = (op: string, from: number, to: number) => {
    const a = find(from, op);
    const b = find(to, op);
    return a?.status === 'ok' && b?.status === 'ok' ? b.microsPerTool! / a.microsPerTool! : undefined;
  };
  targets.push(
    atMost(
      'cost per tool flat from 1,000 to 10,000 — parseManifest (per-tool 10k ÷ 1k ≤ 1.25)',
      flat('parseManifest', 1_000, 10_000),
      1.25,
      (v) => `${v.toFixed(2)}×`,
    ),
  );
  targets.push(
    atMost(
      `discover + describe flat to 5,000 tools: per tool 5k ÷ 1k ≤ 1.25 — ${memoryOp} (issue 26)`,
      flat(memoryOp, 1_000, 5_000),
      1.25,
      (v) => `${v.toFixed(2)}×`,
    ),
  );
  if (find(10_000, memoryOp)?.status === 'ok') {
    targets.push(atMost(`cost per tool flat from 1,000 to 10,000 — ${memoryOp} (≤ 1.25)`, flat(memoryOp, 1_000, 10_000), 1.25, (v) => `${v.toFixed(2)}×`));
  }
}
print();

// 3. Template render
print('## 3. Template render (seed tools)');
print();
if (template === undefined) print('_skipped_');
else if (isError(template)) print(`**failed:** ${template.error}`);
else {
  const rows = template.cases.flatMap((c) => c.results.map((r) => [c.tool, r.id, ns(r.ns), ratio(r.ratioToBaseline), c.sameOutput ? 'yes' : 'NO']));
  print(`${num(template.iterations)} renders per contender per round.`);
  print();
  print(markdownTable(['Tool', 'Contender', 'per render', '× hand-written', 'same URL'], rows, ['l', 'l', 'r', 'r', 'l']));
  targets.push(atMost('template render within 2× the hand-written function (worst seed tool)', template.worstRatio, 2, (v) => `${v.toFixed(2)}×`));
}
print();

// 4. Response mapping
print('## 4. Response mapping');
print();
if (mapping === undefined) print('_skipped_');
else if (isError(mapping)) print(`**failed:** ${mapping.error}`);
else {
  const rows = mapping.cases.flatMap((c) =>
    c.results.map((r) => [c.name, bytes(c.responseBytes), r.id, ns(r.ns), ratio(r.ratioToBaseline), c.sameOutput ? 'yes' : 'NO']),
  );
  print(markdownTable(['Case', 'Response', 'Contender', 'per apply', '× hand-written', 'same output'], rows, ['l', 'r', 'l', 'r', 'r', 'l']));
  targets.push(atMost('singular mapping ≤ 3× hand-written access, worst case (issues 6, 26)', mapping.worstSingularRatio, 3, (v) => `${v.toFixed(2)}×`));
}
print();

// 5. Footprint
print('## 5. Footprint');
print();
if (footprint === undefined) print('_skipped_');
else if (isError(footprint)) print(`**failed:** ${footprint.error}`);
else {
  const rows = footprint.bundles.map((b) => {
    const cold = footprint.coldImports.find((c) => c.name === b.name);
    return [
      b.name,
      b.status === 'ok' ? bytes(b.minifiedBytes) : `n/a — ${b.reason}`,
      b.status === 'ok' ? bytes(b.gzipBytes) : 'n/a',
      b.status === 'ok' ? (b.lazyGzipBytes ? bytes(b.lazyGzipBytes) : '—') : 'n/a',
      cold?.status === 'ok' ? ms(cold.ms) : `n/a${cold?.reason ? ` — ${cold.reason}` : ''}`,
    ];
  });
  print(
    `Bundle: esbuild bundle, platform browser, ESM, minify, code splitting, then gzip -9 (KB = 1,000 bytes); min and min+gz are the entry chunk, lazy the chunks it loads only by import(). Cold import: \`await import()\` in a fresh node process, median of ${footprint.spawnsPerPackage} spawns.`,
  );
  print();
  print(markdownTable(['Package (with its dependencies)', 'min', 'min+gz', 'lazy (min+gz)', 'cold import'], rows, ['l', 'r', 'r', 'r', 'r']));
  const client = footprint.bundles.find((b) => b.name === 'rcp-client');
  if (client?.byPackage !== undefined) {
    print();
    print(
      `rcp-client bundle by package (minified bytes before gzip): ${client.byPackage
        .slice(0, 8)
        .map((p) => `${p.name} ${bytes(p.bytes)}`)
        .join(', ')}.`,
    );
  }
  const lazy = client?.status === 'ok' && client.lazyGzipBytes ? ` (+${bytes(client.lazyGzipBytes)} lazy chunks)` : ' (no lazy chunk)';
  targets.push(atMost('rcp-client browser bundle entry chunk ≤ 25 KB min+gz (issue 26)', client?.gzipBytes, 25_000, (v) => bytes(Math.round(v))));
  const bundleRow = targets[targets.length - 1]!;
  if (bundleRow.met !== null) bundleRow.measured += lazy;
  const clientCold = footprint.coldImports.find((c) => c.name === 'rcp-client');
  targets.push(atMost('cold import() of rcp-client ≤ 50 ms', clientCold?.status === 'ok' ? clientCold.ms : undefined, 50, (v) => `${v.toFixed(0)} ms`));
}
print();

// 6. What the model reads
print('## 6. What the model reads (seed tools: name, description, input schema as compact JSON)');
print();
const reads: ModelReadsRow[] = call !== undefined && !isError(call) ? call.modelReads : [];
if (reads.length === 0) print('_not measured (needs the call-overhead scenario)_');
else {
  const rows = reads.map((r) => [
    r.stack,
    r.status === 'ok' ? num(r.bytes) : `n/a — ${r.reason}`,
    r.status === 'ok' ? `~${num(r.approxTokens)}` : 'n/a',
    r.referenceBytes === undefined ? '' : num(r.referenceBytes),
    r.note,
  ]);
  print(markdownTable(['Listing', 'bytes', 'tokens (chars/4)', 'issue ref bytes', 'note'], rows, ['l', 'r', 'r', 'r', 'l']));
  const rcpBytes = reads.find((r) => r.stack.startsWith('RCP'))?.bytes;
  for (const peer of reads.filter((r) => !r.stack.startsWith('RCP'))) {
    const name = peer.stack.split(' ')[0]!;
    const bound = Math.min(peer.bytes ?? Infinity, peer.referenceBytes ?? Infinity);
    targets.push(
      atMost(
        `model-facing schemas smaller than ${name}'s listing (measured ${peer.bytes ?? 'n/a'} B, issue ${peer.referenceBytes ?? 'n/a'} B)`,
        rcpBytes,
        bound - 1,
        (v) => `${Math.round(v)} B`,
      ),
    );
  }
  print();
  print('<details><summary>Listings measured</summary>\n');
  for (const r of reads) if (r.listing) print(`**${r.stack}**\n\n\`\`\`json\n${r.listing}\n\`\`\`\n`);
  print('</details>');
}
print();

// 7. Tool search
print('## 9. Tool search over large catalogs (issues 28 and 41)');
print();
if (searchEval === undefined) print('_skipped_');
else if (isError(searchEval)) print(`**failed:** ${searchEval.error}`);
else {
  const section = renderSearchSection(searchEval);
  for (const line of section.lines) print(line);
  targets.push(...section.targets);
}
print();

// Targets
// 7. OAuth 2
print('## 7. OAuth 2: a cached-token call (rcp-oauth) next to a static credential');
print();
if (oauth === undefined) print('_skipped_');
else if (isError(oauth)) print(`**failed:** ${oauth.error}`);
else {
  print(
    `${num(oauth.calls)} sequential \`execute\` calls per contender per round, same loopback bearer-auth tool, same process; token requests during the scenario: ${oauth.tokenRequests}.`,
  );
  print();
  print(
    markdownTable(
      ['Credentials', 'per call', '× static'],
      [
        ['static credential (`credentials: () => token`)', us(oauth.staticUs), ratio(1)],
        ['rcp-oauth `clientCredentials` (cached token)', us(oauth.oauthUs), ratio(oauth.ratio)],
      ],
      ['l', 'r', 'r'],
    ),
  );
}
print();

// 11. Approval ledger
print('## 11. Approval that holds across instances: the ledger and the idempotency key (issue 39)');
print();
if (approvalLedger === undefined) print('_skipped_');
else if (isError(approvalLedger)) print(`**failed:** ${approvalLedger.error}`);
else {
  const a = approvalLedger;
  print(
    `${num(a.calls)} sequential writes per contender per round (a POST whose tool declares \`idempotency\`), same loopback API, same process; an approved one is \`review(…, { key })\` then the call resuming it (verified, claimed once, the key derived from the approval). Writes received: ${num(a.writes)}.`,
  );
  print();
  print(
    markdownTable(
      ['Write', 'per call', '× no approval', '× in-memory ledger'],
      [
        ['no approval (a random key)', us(a.plainUs), ratio(1), ''],
        ['approved, in-memory ledger', us(a.memoryUs), ratio(a.memoryPerPlain), ratio(1)],
        a.redisUs === undefined
          ? ['approved, Redis ledger (rcp-redis)', 'n/a', 'n/a', 'n/a']
          : ['approved, Redis ledger (rcp-redis, a real redis-server on loopback)', us(a.redisUs), ratio(a.redisPerPlain), ratio(a.redisPerMemory)],
      ],
      ['l', 'r', 'r', 'r'],
    ),
  );
  if (a.redisSkipped !== undefined) {
    print();
    print(`The Redis row is skipped: ${a.redisSkipped}.`);
  }
}
print();

// 12. Streamed answers
print('## 12. Streamed answers: the parse cost per event (issue 42, RCP 0.4 streams)');
print();
if (streamCollect === undefined) print('_skipped_');
else if (isError(streamCollect)) print(`**failed:** ${streamCollect.error}`);
else {
  const s = streamCollect;
  print(
    `One SSE answer of ${num(s.events)} events (${bytes(s.bodyBytes)}) from a loopback server in this process, read ${num(s.reads)} times per contender per round, interleaved with the order rotated. rcp-client collects it (\`collect: "concat"\`, \`field: "@delta"\`: each event's SSE lines, its data's JSON and the field, joined; \`onProgress\` counted); the plain read is \`fetch\` and \`arrayBuffer()\` of the same bytes. Per event is (rcp − plain) ÷ events. Collected text exact: ${s.sameOutput ? 'yes' : 'NO'}. Reported, not asserted.`,
  );
  print();
  print(
    markdownTable(
      ['Read of the stream', 'per read', '× plain read', 'per event'],
      [
        ['plain read (fetch + arrayBuffer)', ms(s.plainMs), ratio(1), ''],
        ['rcp-client execute, collected', ms(s.rcpMs), ratio(s.rcpPerPlain), ns(s.parseNsPerEvent)],
      ],
      ['l', 'r', 'r', 'r'],
    ),
  );
}
print();

// 13. File uploads
print('## 13. File uploads: a 10 MB file through rcp-client ÷ a hand-written fetch with FormData (issue 42, RCP 0.4 files)');
print();
if (uploadThroughput === undefined) print('_skipped_');
else if (isError(uploadThroughput)) print(`**failed:** ${uploadThroughput.error}`);
else {
  const u = uploadThroughput;
  print(
    `The same ${bytes(u.fileBytes)} file (random bytes) posted to a loopback server in this process that reads each body to its end, ${num(u.uploads)} uploads per contender per round, interleaved with the order rotated. rcp-client executes a tool with a \`file\` param and \`bodyEncoding: "multipart"\` (the file from its \`files\` resolver: checked, SHA-256 for the review digest, sent as chunks); the hand-written upload is \`fetch\` with a \`FormData\` of the same bytes as a \`Blob\` and one text field. Every body arrived whole: ${u.complete ? 'yes' : 'NO'}. Reported, not asserted.`,
  );
  print();
  print(
    markdownTable(
      ['Upload of the file', 'per upload', 'throughput', '× fetch + FormData'],
      [
        ['fetch + FormData (hand-written)', ms(u.fetchMs), `${u.fetchMBps.toFixed(0)} MB/s`, ratio(1)],
        ['rcp-client execute (multipart tool)', ms(u.rcpMs), `${u.rcpMBps.toFixed(0)} MB/s`, ratio(u.rcpPerFetch)],
      ],
      ['l', 'r', 'r', 'r'],
    ),
  );
}
print();

// 10. Cold start and memory
print('## 10. Cold start and memory (issue 26)');
print();
if (coldStart === undefined) print('_skipped_');
else if (isError(coldStart)) print(`**failed:** ${coldStart.error}`);
else {
  const row = (id: string) => coldStart.rows.find((r) => r.id === id);
  const per = (id: string, base: string) => {
    const a = row(id)?.ms;
    const b = row(base)?.ms;
    return a !== undefined && b !== undefined ? a / b : undefined;
  };
  const shown: [string, string, string, string][] = [
    ['import-rcp-client', 'import-ky', '× ky', '≤ 1.5× (issue 26)'],
    ['import-ky', 'import-ky', '× ky', ''],
    ['mcp-gateway', 'mcp-minimal', '× hand-written MCP server', 'reported (issue 26 sets no bound)'],
    ['mcp-minimal', 'mcp-minimal', '× hand-written MCP server', ''],
    ['cli-version', 'node-empty', '× `node -e ""`', 'reported (issue 26 sets no bound)'],
    ['cli-describe', 'node-empty', '× `node -e ""`', 'reported (issue 26 sets no bound)'],
    ['node-empty', 'node-empty', '× `node -e ""`', ''],
  ];
  print(
    `Import rows: the \`import()\` timed inside a fresh node process (Node's own start-up left out, as in scenario 5). Other rows: wall time from spawn, measured by the bench process. Median of ${coldStart.spawns} spawns per row after one unmeasured spawn, all rows interleaved with the order rotated every round. ` +
      'The gateway and the hand-written server get an MCP `initialize` request on stdin at spawn and are timed to their first stdout line (the result); the manifest is the seed, read from a file.',
  );
  print();
  print(
    markdownTable(
      ['Start', 'median', 'ratio', 'of', 'target'],
      shown.map(([id, base, of, target]) => {
        const r = row(id)!;
        return [r.label, r.status === 'ok' ? ms(r.ms) : `n/a — ${r.reason}`, ratio(per(id, base)), of, target];
      }),
      ['l', 'r', 'r', 'l', 'l'],
    ),
  );
  targets.push(atMost("cold import() of rcp-client ≤ 1.5× ky's, same run (issue 26)", per('import-rcp-client', 'import-ky'), 1.5, (v) => `${v.toFixed(2)}×`));
  for (const [id, base, of] of shown.filter(([, , , target]) => target.startsWith('reported'))) {
    const r = row(id);
    const value = per(id, base);
    targets.push({
      target: `${r?.label ?? id}: start to first output (issue 26, no bound)`,
      measured: r?.status === 'ok' && value !== undefined ? `${ms(r.ms!)} (${value.toFixed(2)}${of})` : 'n/a',
      status: 'reported',
      met: null,
    });
  }
  print();
  if (isError(coldStart.heap)) print(`**retained heap failed:** ${coldStart.heap.error}`);
  else {
    print(
      "Retained heap: `heapUsed` after full collections (`--expose-gc`, a child process), the discovery held, minus before it; code is warmed up first. Per tool ÷ the tool's share of the manifest JSON.",
    );
    print();
    print(
      markdownTable(
        ['Retained', 'total', 'per tool', 'manifest JSON per tool', '× manifest JSON', 'target'],
        coldStart.heap.map((h) =>
          h.tools === undefined
            ? [h.label, bytes(h.retainedBytes), '', '', '', 'reported']
            : [
                h.label,
                bytes(h.retainedBytes),
                bytes(h.retainedBytes / h.tools),
                bytes(h.manifestBytes! / h.tools),
                ratio(h.retainedBytes / h.manifestBytes!),
                h.reference ? 'reference' : '≤ 3× (issue 26)',
              ],
        ),
        ['l', 'r', 'r', 'r', 'r', 'l'],
      ),
    );
    for (const h of coldStart.heap) {
      if (h.reference) continue;
      if (h.tools === undefined)
        targets.push({ target: `retained heap, ${h.label} (issue 26)`, measured: bytes(h.retainedBytes), status: 'reported', met: null });
      else
        targets.push(
          atMost(
            `retained heap per discovered tool ≤ 3× its manifest JSON (${num(h.tools)} tools)`,
            h.retainedBytes / h.manifestBytes!,
            3,
            (v) => `${v.toFixed(2)}×`,
          ),
        );
    }
  }
}
print();

print('## Targets (issues 6, 26 and 28; reported, never asserted)');
print();
print(
  markdownTable(
    ['Target', 'Measured', 'Status'],
    targets.map((t) => [t.target, t.measured, t.status]),
  ),
);
print();

// 7. The server side
print('## 8. The server side (one tool call answered in process, fetch(Request) → Response)');
print();
if (serverSide === undefined) print('_skipped_');
else if (isError(serverSide)) print(`**failed:** ${serverSide.error}`);
else {
  print(
    `${num(serverSide.calls)} calls per contender per round; each builds its Request and reads the body. Same status and body from all: ${serverSide.sameOutput ? 'yes' : 'NO'}.`,
  );
  print();
  const rows = serverSide.rows.map((r) => [r.label, us(r.us), ratio(r.ratioToHand), ratio(r.ratioToHono)]);
  print(markdownTable(['Contender', 'per call', '× hand-written', '× Hono alone'], rows, ['l', 'r', 'r', 'r']));
}
print();
const wallSeconds = (performance.now() - startedAt) / 1000;
print(`Bench wall time (after build): ${wallSeconds.toFixed(0)} s.`);

const report = out.join('\n');
process.stdout.write(`${report}\n`);

mkdirSync(join(benchDir, 'results'), { recursive: true });
const json = {
  generatedAt: new Date().toISOString(),
  quick,
  wallSeconds,
  machine: { ...machine, loadAverage1mAtEnd: Math.round(os.loadavg()[0]! * 100) / 100 },
  versions,
  rounds: ROUNDS,
  callOverhead: call,
  discovery,
  templateRender: template,
  responseMapping: mapping,
  footprint,
  modelReads: reads,
  oauthToken: oauth,
  approvalLedger,
  streamCollect,
  uploadThroughput,
  serverSide,
  toolSearch: searchEval,
  coldStart,
  targets,
};
// latest.* is the whole bench; a BENCH_ONLY run writes only-<sections>.* beside it.
const whole = ALL_SECTIONS.every((section) => only.has(section));
const name = whole ? 'latest' : `only-${[...only].join('-')}`;
writeFileSync(join(benchDir, 'results', `${name}.json`), `${JSON.stringify(json, null, 2)}\n`);
writeFileSync(join(benchDir, 'results', `${name}.md`), `${report}\n`);
progress(`wrote bench/results/${name}.json and bench/results/${name}.md`);
process.exit(0);
