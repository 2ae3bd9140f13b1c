import type { RcpInputSchema } from 'rcp-client';
import { SEARCH_TOOL_NAME, SEARCH_TOOL_SCHEMAS } from './create-tool-search';

/**
 * The search tool a model is given instead of every tool's schema: `search_tools` with a
 * `query` and an optional `limit`. Answer its calls with `search.handleCall(args)`; its
 * description says what the answer holds — the compact line per tool, or with `inputSchemas:
 * true` (as `createToolSearch` was given) the input schemas.
 *
 * @example
 * ```ts
 * import { toolSearchDefinition } from 'rcp-search';
 *
 * const { name, description, inputSchema } = toolSearchDefinition({ toolCount: search.toolSet.entries.length });
 * ```
 */
export function toolSearchDefinition(options: { toolCount?: number; inputSchemas?: boolean } = {}): {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: RcpInputSchema;
} {
  const count = typeof options.toolCount === 'number' && Number.isInteger(options.toolCount) && options.toolCount > 0 ? `${options.toolCount} ` : '';
  const answer =
    options.inputSchemas === true
      ? 'the answer lists the best matching tools with their input schemas, which you can then call by name.'
      : "the answer lists the best matching tools: each one's name, what it does in one line and its param names (required ones marked).";
  return Object.freeze({
    name: SEARCH_TOOL_NAME,
    description: `Find the tools for a task among ${count}available tools. Describe the task in plain words; ${answer}`,
    inputSchema: Object.freeze({
      type: 'object' as const,
      // The same params its calls are checked against.
      properties: SEARCH_TOOL_SCHEMAS,
      required: Object.freeze(['query']),
      additionalProperties: false as const,
    }),
  });
}
