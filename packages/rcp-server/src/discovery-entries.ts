import type { RcpServer } from './create-rcp-server';

/**
 * One `llms.txt` line pointing an agent at the server's manifest: a Markdown list item with the
 * tool count and names (`[`, `]` and line breaks in the title are replaced, so it stays one item).
 *
 * @example
 * ```ts
 * import { llmsTxtLine } from 'rcp-server';
 *
 * llmsTxtLine(server, 'https://learn.example.com/rcp/manifest', { title: 'Learning platform tools' });
 * // '- [Learning platform tools](https://learn.example.com/rcp/manifest): RCP manifest, 2 HTTP tools: search_courses, get_course'
 * ```
 */
export function llmsTxtLine(server: RcpServer, manifestUrl: string, options: { title?: string } = {}): string {
  const title = (options.title ?? 'RCP tools').replace(/[[\]\r\n]/g, ' ');
  const names = server.manifest.tools.map((tool) => tool.name);
  return `- [${title}](${new URL(manifestUrl).href}): RCP manifest, ${names.length} HTTP tool${names.length === 1 ? '' : 's'}: ${names.join(', ')}`;
}

/**
 * An RFC 9727 `api-catalog` document (`application/linkset+json`, served at
 * `/.well-known/api-catalog`) whose one entry points at the manifest as the API's `service-desc`.
 *
 * @example
 * ```ts
 * import { apiCatalog } from 'rcp-server';
 *
 * apiCatalog('https://learn.example.com/rcp/manifest', { anchor: 'https://learn.example.com/api/' });
 * // { linkset: [{ anchor: 'https://learn.example.com/api/',
 * //   'service-desc': [{ href: 'https://learn.example.com/rcp/manifest', type: 'application/json' }] }] }
 * ```
 */
export function apiCatalog(
  manifestUrl: string,
  options: { anchor?: string } = {},
): { linkset: { anchor: string; 'service-desc': { href: string; type: string }[] }[] } {
  const href = new URL(manifestUrl).href;
  const anchor = options.anchor === undefined ? new URL('/', href).href : new URL(options.anchor).href;
  return { linkset: [{ anchor, 'service-desc': [{ href, type: 'application/json' }] }] };
}
