/**
 * `node bench/dist/profile-gateway.js`: where the MCP gateway's time goes (issue 26). The
 * hand-written MCP server and the RCP gateway each run in their own process under V8's CPU profiler
 * (`--cpu-prof`), serving the same MCP client the call-overhead scenario uses (1,000 warm-up calls,
 * then 16,000 calls 64-way), against the same upstream. Prints each server's CPU per call, self
 * time by package (what share is RCP's own code) and its hottest functions, writes
 * `bench/results/<server>.cpuprofile`; then what the gateway builds per HTTP request — one MCP
 * server for the request's context, every listed tool registered — at 2, 50 and 500 tools.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Profiler } from 'node:inspector';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRcpClient } from 'rcp-client';
import { createRcpMcpGateway } from 'rcp-mcp';
import { summarizeProfile } from '../lib/cpu-profile.js';
import { markdownTable } from '../lib/format.js';
import { generateManifest } from '../lib/generate-manifest.js';
import { mcpContender } from './contenders.js';
import { startChild } from './ipc.js';

const distDir = dirname(fileURLToPath(import.meta.url));
const resultsDir = join(dirname(distDir), 'results');
const WARM_UP = 1_000;
const CALLS = 16_000;
const CONCURRENCY = 64;

const servers = [
  { id: 'mcp-server', label: 'hand-written MCP server (MCP SDK v1, Hono)' },
  { id: 'mcp-gateway-server', label: 'RCP MCP gateway (rcp-mcp, MCP SDK v2)' },
];

const upstream = await startChild(join(distDir, 'upstream-server.js'), []);
const origin = `http://127.0.0.1:${upstream.port}`;

/** Runs one MCP server under `--cpu-prof`, drives it, stops it and reads the profile it wrote. */
async function profileServer(id: string, profileDir: string): Promise<{ profile: Profiler.Profile; wall: number }> {
  const child = await startChild(join(distDir, `${id}.js`), [origin], {
    execArgv: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=100'],
  });
  let wall: number;
  try {
    const client = mcpContender(`http://127.0.0.1:${child.port}/mcp`);
    await client.setup();
    await client.check();
    for (let i = 0; i < WARM_UP; i++) await client.call(i);
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < CALLS) await client.call(next++);
      }),
    );
    wall = performance.now() - start;
    await client.close?.();
  } finally {
    // SIGTERM: the child exits normally, and --cpu-prof writes its profile on exit (no SIGKILL
    // after a grace period here: writing a large profile can take longer than `stop()` waits).
    if (child.process.exitCode === null && child.process.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.process.once('exit', () => resolve()));
      child.process.kill('SIGTERM');
      await exited;
    }
  }
  const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
  if (file === undefined) throw new Error(`${id} wrote no profile`);
  return { profile: JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as Profiler.Profile, wall };
}

mkdirSync(resultsDir, { recursive: true });
try {
  for (const server of servers) {
    const profileDir = mkdtempSync(join(tmpdir(), 'rcp-bench-profile-'));
    try {
      const profile = await profileServer(server.id, profileDir);
      const target = join(resultsDir, `${server.id}.cpuprofile`);
      writeFileSync(target, JSON.stringify(profile.profile));
      // The profile covers the whole process: its start-up (the gateway's discovery too), the
      // warm-up and the measured calls. Per call is over every tool call it answered.
      const calls = WARM_UP + CALLS + 2;
      const { total, byOwner, top } = summarizeProfile(profile.profile);
      const own = byOwner.filter(([name]) => name.startsWith('rcp-')).reduce((sum, [, micros]) => sum + micros, 0);
      console.log(`\n## ${server.label}\n`);
      console.log(
        `${CALLS} calls ${CONCURRENCY}-way in ${profile.wall.toFixed(0)} ms (${((profile.wall * 1000) / CALLS).toFixed(0)} µs per call); server CPU (busy samples, start-up included) ${(total / calls).toFixed(0)} µs per call, RCP packages ${((own / total) * 100).toFixed(1)}% of it (profile: ${target})\n`,
      );
      console.log(
        markdownTable(
          ['Self time by package', 'µs/call', 'share'],
          byOwner.slice(0, 12).map(([name, micros]) => [name, (micros / calls).toFixed(1), `${((micros / total) * 100).toFixed(1)}%`]),
          ['l', 'r', 'r'],
        ),
      );
      console.log();
      console.log(
        markdownTable(
          ['Hottest functions (self time)', 'µs/call', 'share'],
          top.slice(0, 15).map(([name, micros]) => [name, (micros / calls).toFixed(2), `${((micros / total) * 100).toFixed(1)}%`]),
          ['l', 'r', 'r'],
        ),
      );
    } finally {
      rmSync(profileDir, { recursive: true, force: true });
    }
  }
} finally {
  await upstream.stop();
}

// Per HTTP request the SDK needs a fresh MCP server (it refuses one already serving), so the
// gateway builds one for the request's context and registers every listed tool on it.
const rows: string[][] = [];
for (const tools of [2, 50, 500]) {
  const body = JSON.stringify(generateManifest(tools));
  const fetch = (async () => new Response(body, { status: 200, headers: { 'content-type': 'application/json' } })) as unknown as typeof globalThis.fetch;
  const client = createRcpClient({ fetch, onWarning: () => {} });
  const source = await client.discover('http://127.0.0.1:9/manifest.json'); // answered in memory
  const gateway = createRcpMcpGateway({ client, source });
  const dynamic = createRcpMcpGateway({ client, source, dynamic: true });
  // Enough servers per measurement that garbage collection is part of it, as it is under load.
  const time = (make: () => unknown, registered: number) => {
    const repeat = Math.max(400, Math.round(100_000 / registered));
    for (let i = 0; i < repeat; i++) make();
    const start = performance.now();
    for (let i = 0; i < repeat; i++) make();
    return ((performance.now() - start) * 1000) / repeat;
  };
  rows.push([String(tools), `${time(() => gateway.serverFor({}), tools).toFixed(0)} µs`, `${time(() => dynamic.serverFor({}), 3).toFixed(0)} µs`]);
}
console.log('\n## What the gateway builds per HTTP request: one MCP server, its tools registered\n');
console.log(markdownTable(['Listed tools', 'serverFor (every tool listed)', 'serverFor (dynamic mode: 3 meta-tools)'], rows, ['r', 'r', 'r']));
process.exit(0);
