import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { createRcpClient, type RcpClient, type RcpClientOptions, type RcpDiscovery } from 'rcp-client';
import { RcpUsageError } from './usage-error';

/**
 * A manifest source on the command line is an http(s) URL, or else a file.
 *
 * @example
 * ```ts
 * isManifestUrl('http://127.0.0.1:8080/rcp/manifest'); // true
 * isManifestUrl('./rcp-manifest.json'); // false
 * ```
 */
export function isManifestUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/**
 * The URL a manifest file is declared under: never contacted (the file's text is loaded from
 * memory), so relative tool URLs resolve against a host that does not exist.
 */
const FILE_ORIGIN = 'https://manifest-file.invalid';

/**
 * A manifest file's text; a missing or unreadable file is one line (exit code 1).
 *
 * @example
 * ```ts
 * const text = await readManifestFile('rcp-manifest.json');
 * ```
 */
export async function readManifestFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new RcpUsageError(`cannot read ${path}${code ? ` (${code})` : ''}`, { exitCode: 1 });
  }
}

/**
 * A client and its discovery of a manifest URL or file. A URL is discovered; a file is handed
 * to `client.load` (nothing fetched) under a URL that names no real host, declared a local
 * source (SPEC §12.1; docs/behaviour.md): its tools are judged as those of a manifest served from this
 * machine would be — loopback and private addresses allowed, link-local never — and every call
 * goes through the client's own transport. `text`, when given, is the file's text already read.
 *
 * @example
 * ```ts
 * const { client, discovery } = await openManifestSource('./rcp-manifest.json', { resolvers });
 * ```
 */
export async function openManifestSource<Context = any>(
  source: string,
  options: RcpClientOptions<Context> = {},
  text?: string,
): Promise<{ client: RcpClient<Context>; discovery: RcpDiscovery }> {
  // The command line prints discovery warnings itself, worded with its flags: the client's own
  // console line would say each twice.
  const client = createRcpClient<Context>({ onWarning: () => {}, ...options });
  if (isManifestUrl(source)) return { client, discovery: await client.discover(source) };
  const manifestUrl = `${FILE_ORIGIN}/${encodeURIComponent(basename(source))}`;
  return { client, discovery: await client.load(text ?? (await readManifestFile(source)), { manifestUrl, sourceClass: 'local' }) };
}
