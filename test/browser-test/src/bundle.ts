import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** One output file of the bundle. */
export interface BundleChunk {
  readonly file: string;
  readonly bytes: number;
  readonly gzipBytes: number;
  /** The packages whose code is in this chunk. */
  readonly packages: readonly string[];
}

/** rcp-client bundled for a browser: the entry chunk and the lazy ones, written to `dir`. */
export interface ClientBundle {
  readonly dir: string;
  readonly entry: BundleChunk;
  readonly chunks: readonly BundleChunk[];
}

function packageOf(path: string): string {
  const match = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (match !== null) return match[1]!;
  return /packages\/([^/]+)/.exec(path)?.[1] ?? path;
}

/**
 * Bundles the built `rcp-client` (its `browser`/`default` conditions, as a web app's bundler
 * would: no undici, no node: modules) as ES modules with code splitting, minified.
 */
export async function bundleClient(): Promise<ClientBundle> {
  const dir = mkdtempSync(join(tmpdir(), 'rcp-browser-'));
  const result = await build({
    stdin: { contents: "export * from 'rcp-client';", resolveDir: packageDir, sourcefile: 'rcp-client-entry.js', loader: 'js' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    outdir: dir,
    entryNames: 'rcp-client',
    metafile: true,
    logLevel: 'silent',
    tsconfig: join(packageDir, 'bundle.tsconfig.json'),
  });
  const chunks: BundleChunk[] = [];
  for (const [output, meta] of Object.entries(result.metafile.outputs)) {
    if (output.endsWith('.map')) continue;
    const file = output.split('/').pop()!;
    const bytes = readFileSync(join(dir, file));
    chunks.push({
      file,
      bytes: bytes.length,
      gzipBytes: gzipSync(bytes, { level: 9 }).length,
      packages: [...new Set(Object.keys(meta.inputs).map(packageOf))].sort(),
    });
  }
  const entry = chunks.find((chunk) => chunk.file === 'rcp-client.js');
  if (entry === undefined) throw new Error(`no entry chunk among ${readdirSync(dir).join(', ')}`);
  return { dir, entry, chunks };
}
