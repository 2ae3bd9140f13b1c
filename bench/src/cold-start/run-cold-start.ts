/**
 * Scenario 10 (issue 26): cold start and memory.
 *  - cold `import()` of rcp-client ÷ ky's, in fresh node processes, spawns interleaved;
 *  - the MCP gateway's start-to-first-output: spawn the `rcp-mcp` bin with a manifest file, an
 *    `initialize` request already on its stdin, time to its first stdout line; ÷ a hand-written
 *    minimal MCP server (same SDK, stdio) doing the same;
 *  - the CLI's start-to-exit: `rcp --version` and `rcp describe <file>` ÷ `node -e ""`;
 *  - retained heap after discovering 1,000 and 5,000 tools, and per idle client (a child process
 *    with `--expose-gc`), ÷ the manifest's JSON size.
 * Import rows: the `import()` timed inside the fresh process; the other rows: wall clock from spawn,
 * measured in this (parent) process. Median of `spawns` per row.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { installedPackage } from '../lib/packages.js';
import { seedManifestAbsolute } from '../lib/seed.js';
import { median } from '../lib/stats.js';

const run = promisify(execFile);
const distDir = dirname(fileURLToPath(import.meta.url));
const benchDir = dirname(distDir);
const repoDir = dirname(benchDir);

export interface StartRow {
  id: string;
  label: string;
  status: 'ok' | 'n/a';
  reason?: string;
  /** Median milliseconds over the spawns. */
  ms?: number;
  samples?: number[];
}

export interface HeapRow {
  label: string;
  tools?: number;
  manifestBytes?: number;
  retainedBytes: number;
  /** A part of the discovery's heap shown for reference (no target). */
  reference?: boolean;
}

export interface ColdStartResult {
  spawns: number;
  rows: StartRow[];
  heap: HeapRow[] | { error: string };
}

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'rcp-bench', version: '0.0.0' } },
})}\n`;

// The import itself, timed inside the fresh process (as issue 26 and scenario 5 measure it): Node's
// own start-up, the same for both, is left out.
const IMPORT_SCRIPT =
  'const start = performance.now(); await import(process.argv[1]); process.stdout.write(String(performance.now() - start)); process.exit(0);';

/** Milliseconds the child reports for its `import()`. */
async function importTime(url: string): Promise<number> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', IMPORT_SCRIPT, url], { cwd: benchDir, timeout: 30_000 });
  const value = Number(stdout.trim());
  if (!Number.isFinite(value)) throw new Error(`unexpected output ${stdout.slice(-100)}`);
  return value;
}

/** Wall time from spawn to the child's exit (status 0 required). */
async function timeToExit(args: string[]): Promise<number> {
  const start = performance.now();
  await run(process.execPath, args, { cwd: benchDir, timeout: 30_000 });
  return performance.now() - start;
}

/** Wall time from spawn to the first stdout line; `input` is written to stdin at once. Kills the child. */
function timeToFirstLine(args: string[], input: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { cwd: benchDir, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => finish(new Error('no output within 30 s')), 30_000);
    const finish = (error?: Error, ms?: number) => {
      clearTimeout(timer);
      child.kill();
      if (error !== undefined) reject(new Error(`${error.message}; stderr: ${err.trim().split('\n').pop()?.slice(0, 200) ?? ''}`));
      else resolve(ms!);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) {
        const line = out.slice(0, out.indexOf('\n'));
        if (!line.includes('"result"')) finish(new Error(`first line is not an initialize result: ${line.slice(0, 120)}`));
        else finish(undefined, performance.now() - start);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', (error) => finish(error));
    child.on('exit', (code) => finish(new Error(`exited (${code}) before any output`)));
    child.stdin.end(input);
  });
}

export async function runColdStart(options: { spawns: number; heapSizes: number[] }): Promise<ColdStartResult> {
  const work = mkdtempSync(join(tmpdir(), 'rcp-bench-cold-'));
  const manifestFile = join(work, 'learning.rcp.json');
  writeFileSync(manifestFile, JSON.stringify(seedManifestAbsolute));
  const mcpBin = join(installedPackage('rcp-mcp').directory, 'bin', 'rcp-mcp.js');
  const cliBin = join(repoDir, 'packages', 'rcp-cli', 'bin', 'rcp.js');
  const contenders: { id: string; label: string; measure: () => Promise<number> }[] = [
    { id: 'import-rcp-client', label: 'cold `import()` of rcp-client', measure: () => importTime(pathToFileURL(installedPackage('rcp-client').entry).href) },
    { id: 'import-ky', label: 'cold `import()` of ky', measure: () => importTime(pathToFileURL(installedPackage('ky').entry).href) },
    { id: 'node-empty', label: '`node -e ""`', measure: () => timeToExit(['-e', '']) },
    {
      id: 'mcp-gateway',
      label: '`rcp-mcp <file> --ctx learnerId=l-1`: first stdout line (initialize result)',
      measure: () => timeToFirstLine([mcpBin, manifestFile, '--ctx', 'learnerId=l-1'], INITIALIZE),
    },
    {
      id: 'mcp-minimal',
      label: 'hand-written minimal MCP server (same SDK, stdio): first stdout line',
      measure: () => timeToFirstLine([join(distDir, 'minimal-mcp-server.js')], INITIALIZE),
    },
    { id: 'cli-version', label: '`rcp --version` start to exit', measure: () => timeToExit([cliBin, '--version']) },
    { id: 'cli-describe', label: '`rcp describe <file>` start to exit', measure: () => timeToExit([cliBin, 'describe', manifestFile]) },
  ];
  const samples = new Map<string, number[]>(contenders.map((c) => [c.id, []]));
  const failures = new Map<string, string>();
  try {
    // One unmeasured spawn each (disk cache), then `spawns` rounds, the order rotated every round.
    for (let round = -1; round < options.spawns; round++) {
      const order = contenders.map((_, i) => contenders[(i + Math.max(round, 0)) % contenders.length]!);
      for (const contender of order) {
        if (failures.has(contender.id)) continue;
        try {
          const ms = await contender.measure();
          if (round >= 0) samples.get(contender.id)!.push(ms);
        } catch (error) {
          const stderr =
            String((error as { stderr?: string }).stderr ?? '')
              .trim()
              .split('\n')
              .pop() ?? '';
          failures.set(
            contender.id,
            `${String((error as Error).message ?? error)
              .split('\n')[0]!
              .slice(0, 200)} ${stderr.slice(0, 200)}`.trim(),
          );
        }
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const rows: StartRow[] = contenders.map((c) => {
    const reason = failures.get(c.id);
    if (reason !== undefined) return { id: c.id, label: c.label, status: 'n/a', reason };
    const values = samples.get(c.id)!;
    return { id: c.id, label: c.label, status: 'ok', ms: median(values), samples: values };
  });

  let heap: ColdStartResult['heap'];
  try {
    const { stdout } = await run(process.execPath, ['--expose-gc', join(distDir, 'heap-child.js'), JSON.stringify(options.heapSizes), '200'], {
      cwd: benchDir,
      timeout: 120_000,
      maxBuffer: 2 ** 20,
    });
    const parsed = JSON.parse(stdout.trim().split('\n').pop()!) as {
      discovery: { tools: number; manifestBytes: number; retainedBytes: number; parsedJsonBytes: number; manifestCopyBytes: number }[];
      idleClientBytes: number;
    };
    heap = [
      ...parsed.discovery.flatMap(({ tools, manifestBytes, retainedBytes, parsedJsonBytes, manifestCopyBytes }) => {
        const of = tools.toLocaleString('en-US');
        return [
          { label: `discovered manifest, ${of} tools`, tools, manifestBytes, retainedBytes },
          { label: `for reference: JSON.parse of the same manifest alone, ${of} tools`, tools, manifestBytes, retainedBytes: parsedJsonBytes, reference: true },
          {
            label: `for reference: parseManifest's validated copy alone, ${of} tools`,
            tools,
            manifestBytes,
            retainedBytes: manifestCopyBytes,
            reference: true,
          },
        ];
      }),
      { label: 'idle client (createRcpClient, nothing discovered), each', retainedBytes: parsed.idleClientBytes },
    ];
  } catch (error) {
    heap = { error: String((error as { stderr?: string }).stderr ?? error).slice(0, 400) };
  }
  return { spawns: options.spawns, rows, heap };
}
