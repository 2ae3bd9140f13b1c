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

/** The client and its discovery of a manifest URL or file (a file is served from memory, nothing sent). */
export async function openSource(source: string, options: RcpClientOptions = {}): Promise<{ client: RcpClient; discovery: RcpDiscovery }> {
  if (isUrl(source)) {
    const client = createRcpClient(options);
    return { client, discovery: await client.discover(source) };
  }
  const text = await readManifestFile(source);
  const url = `${FILE_ORIGIN}/${encodeURIComponent(basename(source))}`;
  const operatorFetch = options.fetch;
  const client = createRcpClient({
    ...options,
    // The file's own URL answers its text; tool calls go to the operator's fetch (or the platform's).
    fetch: async (input, init) => {
      if (String(input) === url) return new Response(text, { headers: { 'content-type': 'application/json' } });
      if (new URL(String(input)).origin === FILE_ORIGIN) throw new Error('a manifest file is read, never fetched');
      return (operatorFetch ?? fetch)(input, init);
    },
  });
  return { client, discovery: await client.discover(url) };
}
