import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { createRcpClient, type RcpClient, type RcpClientOptions, type RcpDiscovery } from 'rcp-client';
import { UsageError } from './usage-error';

/** A manifest source on the command line: an http(s) URL, or a file. */
export function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/**
 * The URL a manifest file is discovered under: never contacted (the file's text is served from
 * memory), so relative tool URLs resolve against a host that does not exist.
 */
const FILE_ORIGIN = 'https://manifest-file.invalid';

/** The manifest file's text; a missing or unreadable file is one usage-level line. */
export async function readManifestFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${path}${code ? ` (${code})` : ''}`, 1);
  }
}

/**
 * Discovers a manifest from a URL, or from a file (served from memory, nothing sent), with the
 * given client options.
 */
export async function discoverSource(source: string, options: RcpClientOptions = {}): Promise<RcpDiscovery> {
  return (await openSource(source, options)).discovery;
}

/**
 * The client and its discovery of a manifest URL or file. A file is loaded with `client.load`
 * (nothing fetched) under a URL that names no real host, declared a local source: its tools are
 * judged as those of a manifest served from this machine would be (loopback and private
 * addresses allowed, link-local never), and every call goes through the client's own transport.
 */
export async function openSource(source: string, options: RcpClientOptions = {}): Promise<{ client: RcpClient; discovery: RcpDiscovery }> {
  const client = createRcpClient(options);
  if (isUrl(source)) return { client, discovery: await client.discover(source) };
  const text = await readManifestFile(source);
  const manifestUrl = `${FILE_ORIGIN}/${encodeURIComponent(basename(source))}`;
  return { client, discovery: await client.load(text, { manifestUrl, sourceClass: 'local' }) };
}
