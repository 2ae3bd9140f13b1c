/**
 * Scenario 5: footprint.
 *  - Browser bundle: esbuild (bundle, platform browser, ESM, minify) of each entry with all its
 *    dependencies, then gzip level 9 — `rcp-client` is the one with a target; the others give scale.
 *  - Cold import: `await import(...)` time in a fresh `node` process, median of several spawns
 *    (interleaved across packages).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { dependencyOf, installedPackage } from './lib/packages.js';
import { median } from './lib/stats.js';

const run = promisify(execFile);
const benchDir = dirname(dirname(fileURLToPath(import.meta.url)));

export interface BundleRow {
  name: string;
  status: 'ok' | 'n/a';
  reason?: string;
  minifiedBytes?: number;
  gzipBytes?: number;
  /** The chunks loaded only by a dynamic `import()` (code splitting), min+gz; 0 when none. */
  lazyGzipBytes?: number;
  /** Minified bytes contributed by each package (from esbuild's metafile), largest first. */
  byPackage?: { name: string; bytes: number }[];
}

export interface ColdImportRow {
  name: string;
  status: 'ok' | 'n/a';
  reason?: string;
  /** Median milliseconds for the `import()` calls, measured inside the fresh process. */
  ms?: number;
  samples?: number[];
}

export interface FootprintResult {
  bundles: BundleRow[];
  coldImports: ColdImportRow[];
  spawnsPerPackage: number;
}

/** Entry points: what a user imports. `rcp-errors` is reached through rcp-client's own dependency. */
function entries(): { name: string; bundleSource: string; importUrls: string[] }[] {
  const client = installedPackage('rcp-client');
  const clientUrl = pathToFileURL(client.entry).href;
  const errors = dependencyOf(client, 'rcp-errors');
  const manifest = installedPackage('rcp-manifest');
  const template = installedPackage('rcp-template');
  const ky = installedPackage('ky');
  const fileUrl = (path: string) => pathToFileURL(path).href;
  const mcpClient = import.meta.resolve('@modelcontextprotocol/sdk/client/index.js');
  const mcpTransport = import.meta.resolve('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const utcpSdk = import.meta.resolve('@utcp/sdk');
  const utcpHttp = import.meta.resolve('@utcp/http');
  return [
    { name: 'rcp-client', bundleSource: `export * from ${JSON.stringify(client.entry)};`, importUrls: [clientUrl] },
    { name: 'rcp-manifest', bundleSource: `export * from ${JSON.stringify(manifest.entry)};`, importUrls: [fileUrl(manifest.entry)] },
    { name: 'rcp-template', bundleSource: `export * from ${JSON.stringify(template.entry)};`, importUrls: [fileUrl(template.entry)] },
    { name: 'rcp-errors', bundleSource: `export * from ${JSON.stringify(errors.entry)};`, importUrls: [fileUrl(errors.entry)] },
    { name: 'ky (peer HTTP client)', bundleSource: `export { default } from ${JSON.stringify(ky.entry)};`, importUrls: [fileUrl(ky.entry)] },
    {
      name: 'MCP SDK client + streamable HTTP transport',
      bundleSource: `export { Client } from ${JSON.stringify(fileURLToPath(mcpClient))}; export { StreamableHTTPClientTransport } from ${JSON.stringify(fileURLToPath(mcpTransport))};`,
      importUrls: [mcpClient, mcpTransport],
    },
    {
      name: 'UTCP SDK + HTTP protocol',
      bundleSource: `export { UtcpClient } from ${JSON.stringify(fileURLToPath(utcpSdk))}; export * from ${JSON.stringify(fileURLToPath(utcpHttp))};`,
      importUrls: [utcpSdk, utcpHttp],
    },
  ];
}

/** The package a bundled file belongs to: the last `node_modules/<name>` or workspace `packages/<dir>`. */
function packageOfPath(path: string): string {
  const parts = path.split('/');
  const nm = parts.lastIndexOf('node_modules');
  if (nm !== -1 && parts[nm + 1] !== undefined) return parts[nm + 1]!.startsWith('@') ? `${parts[nm + 1]}/${parts[nm + 2]}` : parts[nm + 1]!;
  const pk = parts.lastIndexOf('packages');
  if (pk !== -1 && parts[pk + 1] !== undefined) return parts[pk + 1]!;
  return '(entry)';
}

async function bundleSize(name: string, source: string): Promise<BundleRow> {
  try {
    const result = await build({
      stdin: { contents: source, resolveDir: benchDir, loader: 'js', sourcefile: `${name}-entry.js` },
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      minify: true,
      treeShaking: true,
      // Code splitting, as a web app's bundler does: what the entry loads lazily (import()) is
      // its own chunk, counted apart.
      splitting: true,
      outdir: join(tmpdir(), 'rcp-bench-bundle'),
      write: false,
      metafile: true,
      logLevel: 'silent',
      legalComments: 'none',
    });
    const entryOutput = Object.entries(result.metafile.outputs).find(([, meta]) => meta.entryPoint !== undefined)?.[0];
    const gz = (file: { contents: Uint8Array }) => gzipSync(file.contents, { level: 9 }).length;
    const entry = result.outputFiles.find((file) => entryOutput !== undefined && file.path.endsWith(entryOutput.split('/').pop()!))!;
    const lazy = result.outputFiles.filter((file) => file !== entry && !file.path.endsWith('.map'));
    const byPackage = new Map<string, number>();
    for (const meta of Object.values(result.metafile.outputs)) {
      for (const [path, input] of Object.entries(meta.inputs)) {
        const owner = packageOfPath(path);
        byPackage.set(owner, (byPackage.get(owner) ?? 0) + input.bytesInOutput);
      }
    }
    return {
      name,
      status: 'ok',
      minifiedBytes: entry.contents.length,
      gzipBytes: gz(entry),
      lazyGzipBytes: lazy.reduce((sum, file) => sum + gz(file), 0),
      byPackage: [...byPackage].map(([owner, bytes]) => ({ name: owner, bytes })).sort((a, b) => b.bytes - a.bytes),
    };
  } catch (error) {
    const first = (error as { errors?: { text: string }[] }).errors?.[0]?.text ?? String(error);
    return { name, status: 'n/a', reason: `esbuild (platform browser) failed: ${first.slice(0, 200)}` };
  }
}

const COLD_IMPORT_SCRIPT = [
  'const urls = JSON.parse(process.argv[1]);',
  'const start = performance.now();',
  'for (const url of urls) await import(url);',
  'process.stdout.write(String(performance.now() - start));',
  'process.exit(0);',
].join('\n');

export async function runFootprint(options: { spawns: number }): Promise<FootprintResult> {
  const list = entries();
  const bundles: BundleRow[] = [];
  for (const entry of list) bundles.push(await bundleSize(entry.name, entry.bundleSource));

  const samples = new Map<string, number[]>(list.map((e) => [e.name, []]));
  const failures = new Map<string, string>();
  for (let round = 0; round < options.spawns; round++) {
    for (const entry of list) {
      if (failures.has(entry.name)) continue;
      try {
        // UTCP prints to stdout while loading; the timing is the last thing written.
        const { stdout } = await run(process.execPath, ['--input-type=module', '-e', COLD_IMPORT_SCRIPT, JSON.stringify(entry.importUrls)], {
          cwd: benchDir,
          timeout: 20_000,
        });
        const value = Number(/([0-9.]+)$/.exec(stdout.trim())?.[1]);
        if (!Number.isFinite(value)) throw new Error(`unexpected output ${stdout.slice(-100)}`);
        samples.get(entry.name)!.push(value);
      } catch (error) {
        const stderr =
          String((error as { stderr?: string }).stderr ?? '')
            .trim()
            .split('\n')
            .pop() ?? '';
        failures.set(entry.name, `${String(error).split('\n')[0]!.slice(0, 120)} ${stderr.slice(0, 200)}`);
      }
    }
  }
  const coldImports: ColdImportRow[] = list.map((entry) => {
    const reason = failures.get(entry.name);
    if (reason !== undefined) return { name: entry.name, status: 'n/a', reason };
    const values = samples.get(entry.name)!;
    return { name: entry.name, status: 'ok', ms: median(values), samples: values };
  });
  return { bundles, coldImports, spawnsPerPackage: options.spawns };
}
