import { oneLineDescription } from 'rcp-internal';
import type { RcpInputSchema } from 'rcp-client';
import type { RcpToolSearchHit } from './create-tool-search';

/**
 * One found tool as the model reads it. By default compact (issue 41: a Stripe answer of three
 * tools was 3–15 KB of schemas): the tool set's name, the first sentence of the tool's description
 * on one line, and its model-facing params' names, a required one marked `(required)` — the full
 * schema comes from the stack's next step (its native deferred loading, the gateway's
 * `describe_tool`). With `inputSchemas: true`, the whole description and the input schema instead.
 *
 * @example
 * ```ts
 * const tool: RcpFoundTool = { name: 'PostRefunds', description: 'Create a refund.', params: ['charge (required)', 'amount'] };
 * ```
 */
export interface RcpFoundTool {
  readonly name: string;
  /** The description's first sentence, on one line, at most 160 characters (compact); the whole description (`inputSchemas: true`). */
  readonly description: string;
  /** The names of the params the model fills, in schema order, a required one as `name (required)`. Compact answers only. */
  readonly params?: readonly string[];
  /** The model-facing input schema (resolver-bound params are not in it). With `inputSchemas: true` only. */
  readonly inputSchema?: RcpInputSchema;
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
 * How {@link describeToolHits} (and `createToolSearch`'s `handleCall`) describe a hit.
 *
 * @example
 * ```ts
 * describeToolHits(hits, { inputSchemas: true });
 * ```
 */
export interface RcpDescribeHitsOptions {
  /**
   * Each hit's whole description and input schema instead of the compact line: for a loop where
   * the model calls a found tool from the search answer alone — no describe step, no deferred
   * loading that hands it the schema.
   * @default false
   */
  inputSchemas?: boolean;
}

/** The params the model fills, a required one marked. */
function paramNames(schema: RcpInputSchema): string[] {
  const required = new Set(schema.required);
  return Object.keys(schema.properties).map((name) => (required.has(name) ? `${name} (required)` : name));
}

/**
 * The search result as the model reads it (see {@link RcpFoundTool}) and as JSON text. Adds
 * nothing a tool listing would not show: the descriptions are the server's, as an adapter sends
 * them (untrusted text, JSON-escaped).
 *
 * @example
 * ```ts
 * import { describeToolHits } from 'rcp-search';
 *
 * const { text } = describeToolHits(await search.search('refund a charge', { limit: 3 }));
 * // {"tools":[{"name":"PostRefunds","description":"Create a refund.","params":["charge (required)","amount"]}, …]}
 * ```
 */
export function describeToolHits(hits: readonly RcpToolSearchHit[], options: RcpDescribeHitsOptions = {}): RcpToolHitsDescription {
  const tools = hits.map(
    ({ name, tool }): RcpFoundTool =>
      Object.freeze(
        options.inputSchemas === true
          ? { name, description: tool.description, inputSchema: tool.inputSchema }
          : { name, description: oneLineDescription(tool.description), params: Object.freeze(paramNames(tool.inputSchema)) },
      ),
  );
  return Object.freeze({ tools: Object.freeze(tools), text: JSON.stringify({ tools }) });
}
