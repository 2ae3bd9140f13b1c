import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { createRcpClient, type RcpClientOptions, type RcpDiscovery } from 'rcp-client';
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
  if (isUrl(source)) return createRcpClient(options).discover(source);
  const text = await readManifestFile(source);
  const url = `${FILE_ORIGIN}/${encodeURIComponent(basename(source))}`;
  const client = createRcpClient({
    ...options,
    fetch: async (input) => {
      if (String(input) !== url) throw new Error('a manifest file is read, never fetched');
      return new Response(text, { headers: { 'content-type': 'application/json' } });
    },
  });
  return client.discover(url);
}
