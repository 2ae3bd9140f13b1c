import type { RcpInputSchema } from 'rcp-client';
import type { RcpToolSearchHit } from './create-tool-search';

/**
 * One found tool as the model reads it: the tool set's name, the tool's own description and
 * its model-facing input schema (resolver-bound params are not in it).
 *
 * @example
 * ```ts
 * const tool: RcpFoundTool = { name: 'issues_create', description: 'Create an issue', inputSchema };
 * ```
 */
export interface RcpFoundTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: RcpInputSchema;
}

/**
 * What the model reads back from the search tool: the found tools, and the same as JSON text
 * (`{"tools":[…]}`) for APIs whose tool results are text.
 *
 * @example
 * ```ts
 * const { tools, text } = describeToolHits(hits);
 * ```
 */
export interface RcpToolHitsDescription {
  readonly tools: readonly RcpFoundTool[];
  readonly text: string;
}

/**
 * The search result as the model-facing tools (name, description, input schema of each hit)
 * and as JSON text. Adds nothing a tool listing would not show: the descriptions are the
 * server's, as an adapter sends them (untrusted text, JSON-escaped).
 *
 * @example
 * ```ts
 * import { describeToolHits } from 'rcp-search';
 *
 * const { text } = describeToolHits(await search.search('refund a charge', { limit: 3 }));
 * ```
 */
export function describeToolHits(hits: readonly RcpToolSearchHit[]): RcpToolHitsDescription {
  const tools = hits.map(({ name, tool }) => Object.freeze({ name, description: tool.description, inputSchema: tool.inputSchema }));
  return Object.freeze({ tools: Object.freeze(tools), text: JSON.stringify({ tools }) });
}
