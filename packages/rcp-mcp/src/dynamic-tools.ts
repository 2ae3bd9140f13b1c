/**
 * The gateway's dynamic mode (docs/behaviour.md, the gateway): for hosts without tool search, three
 * meta-tools instead of every tool — `search_tools` (rcp-search over the served tool set),
 * `describe_tool` (one tool's schemas) and `call_tool` (a call by name, through the same tool
 * set and the same per-call path as a listed tool: stages, resolvers, approvals, trust).
 */
import type { ToolAnnotations } from '@modelcontextprotocol/server';
import { toModelResult, type ModelResult, type RcpInputSchema, type RcpToolSet } from 'rcp-client';
import { createToolSearch, toolSearchDefinition, type RcpToolSearchOptions } from 'rcp-search';
import { toolAnnotations } from './tool-annotations';

/** The meta-tool that describes one tool by name. */
export const DESCRIBE_TOOL_NAME = 'describe_tool';
/** The meta-tool that calls one tool by name. */
export const CALL_TOOL_NAME = 'call_tool';

/** One meta-tool: what is listed, and how a call of it is answered (`call_tool`'s by the gateway's per-call path). */
export interface MetaTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: RcpInputSchema;
  readonly annotations: ToolAnnotations;
  /** The model result of a call of `search_tools` or `describe_tool`; `call_tool` has none (the gateway runs the call). */
  readonly answer?: (args: Record<string, unknown>) => Promise<ModelResult>;
}

const NAME_PROPERTY = { type: 'string', description: 'A tool name, as search_tools gives it' } as const;

/** A meta-tool's answer: its data as a model result, or what it ran into as the error's model-safe text (anything not an RCP error is UNKNOWN_ERROR). */
function answerWith(produce: (args: Record<string, unknown>) => Promise<unknown>): (args: Record<string, unknown>) => Promise<ModelResult> {
  return async (args) => {
    try {
      return toModelResult({ data: await produce(args) });
    } catch (error) {
      return toModelResult(error);
    }
  };
}

/**
 * The three meta-tools over a tool set: the search index is built here, once per gateway.
 *
 * @example
 * ```ts
 * const [search, describe, call] = metaTools(toolSet, {});
 * ```
 */
export function metaTools(toolSet: RcpToolSet, searchOptions: RcpToolSearchOptions | undefined): readonly MetaTool[] {
  const search = createToolSearch(toolSet, searchOptions);
  const definition = toolSearchDefinition({ toolCount: toolSet.entries.length });
  const readOnly: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
  return [
    {
      ...definition,
      annotations: readOnly,
      answer: answerWith(async (args) => ({ tools: (await search.handleCall(args)).tools })),
    },
    {
      name: DESCRIBE_TOOL_NAME,
      description:
        'Describe one tool by name (from search_tools): its description, the input schema its arguments must match, ' +
        'its output schema when it has one, and its annotations (read-only, destructive …).',
      inputSchema: { type: 'object', properties: { name: NAME_PROPERTY }, required: ['name'], additionalProperties: false },
      annotations: readOnly,
      answer: answerWith(async ({ name }) => {
        // The tool set's own lookup: an unknown name is its RCP_UNKNOWN_TOOL, as client.call gives.
        const tool = toolSet.tool(String(name));
        return {
          name: String(name),
          description: tool.description,
          inputSchema: tool.inputSchema,
          ...(tool.outputSchema !== undefined && { outputSchema: tool.outputSchema }),
          annotations: toolAnnotations(tool),
        };
      }),
    },
    {
      name: CALL_TOOL_NAME,
      description:
        'Call one tool by name (from search_tools) with its arguments, which must match its input schema ' +
        "(from search_tools or describe_tool). The answer is the tool's own result. Each call is judged as the named " +
        "tool's own: a call that changes data may first wait for a person's approval in the host, and an approval " +
        'covers that one call with those arguments only.',
      inputSchema: {
        type: 'object',
        properties: {
          name: NAME_PROPERTY,
          arguments: { type: 'object', description: "The tool's arguments, as its input schema says (default: none)" },
        },
        required: ['name'],
        additionalProperties: false,
      },
      annotations: callToolAnnotations(toolSet),
    },
  ];
}

/**
 * `call_tool`'s annotations: the most cautious of the tools it can call, since a host's "always
 * allow" of it covers every one of them. Read-only only when every tool is; destructive when any
 * is; idempotent only when every tool is; open-world when any is (or with no tools, what MCP
 * assumes of a tool it knows nothing of). The approval itself is per underlying tool (the gateway's
 * per-call path), whatever the host allows.
 *
 * @example
 * ```ts
 * callToolAnnotations(toolSet); // { openWorldHint: true, destructiveHint: true } for a set with a DELETE
 * ```
 */
export function callToolAnnotations(toolSet: RcpToolSet): ToolAnnotations {
  const effects = toolSet.entries.map(({ tool }) => tool.effects);
  const annotations: ToolAnnotations = { openWorldHint: effects.length === 0 || effects.some((effect) => effect.openWorld) };
  if (effects.length === 0) return annotations;
  if (effects.every((effect) => effect.readOnly)) return { ...annotations, readOnlyHint: true };
  if (effects.some((effect) => effect.destructive)) annotations.destructiveHint = true;
  if (effects.every((effect) => effect.idempotent)) annotations.idempotentHint = true;
  return annotations;
}
