/**
 * The gateway's dynamic mode (docs/behaviour.md, the gateway): for hosts without tool search, three
 * meta-tools instead of every tool — `search_tools` (rcp-search over the served tool set),
 * `describe_tool` (one tool's schemas) and `call_tool` (a call by name, through the same tool
 * set and the same per-call path as a listed tool: stages, resolvers, approvals, trust) — and a
 * fourth, `list_groups`, when the served tools have groups (./dynamic-groups.ts).
 */
import type { ToolAnnotations } from '@modelcontextprotocol/server';
import { RcpError, isRcpError, toModelResult, type ModelResult, type RcpClientTool, type RcpInputSchema, type RcpToolSet } from 'rcp-client';
import { createToolSearch, toolSearchDefinition, type RcpToolSearch, type RcpToolSearchOptions } from 'rcp-search';
import { GROUP_PROPERTY, LIST_GROUPS_NAME, groupSearches, groupsListing } from './dynamic-groups';
import { mcpFileSchema } from './file-params';
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
  /** The model result of a call of `search_tools`, `describe_tool` or `list_groups`; `call_tool` has none (the gateway runs the call). */
  readonly answer?: (args: Record<string, unknown>) => Promise<ModelResult>;
  /**
   * `call_tool`'s: the tool a name names, or the model result of a name the set does not know —
   * a pointer to `search_tools` and at most three close names, not a list of the set's names.
   */
  readonly lookUp?: (name: string) => Promise<RcpClientTool | ModelResult>;
}

/** Most close names an unknown name's answer offers. */
const CLOSE_NAMES = 3;

/**
 * The tool `name` names in the set, through the set's own lookup; a name it does not know is
 * `RCP_UNKNOWN_TOOL` with a message for a model that sees three meta-tools, not the set: find
 * tools with `search_tools`, and the closest names the search gives for the name's own words.
 * Any other refusal (`RCP_TOOL_NOT_IN_STAGE`) is the set's own.
 */
async function findTool(toolSet: RcpToolSet, search: RcpToolSearch, name: string): Promise<RcpClientTool> {
  try {
    return toolSet.tool(name);
  } catch (error) {
    if (!isRcpError(error, 'RCP_UNKNOWN_TOOL') || name === '') throw error;
    // The name's words are a query like any other (a name too long for one finds nothing close).
    const close = await search.search(name.slice(0, 200), { limit: CLOSE_NAMES }).catch(() => []);
    const shown = JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);
    const names = close.length === 0 ? '' : ` Close names: ${close.map((hit) => hit.name).join(', ')}.`;
    throw new RcpError('RCP_UNKNOWN_TOOL', `Unknown tool ${shown}. Find the tool for the task with search_tools (describe the task in plain words).${names}`);
  }
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
 * The meta-tools over a tool set: `search_tools`, `describe_tool` and `call_tool`, and when the
 * set's tools have groups (RCP 0.4) `list_groups` after them and a `group` argument on
 * `search_tools`. The search index is built here, once per gateway; a group's own index on the
 * first search of that group.
 *
 * @example
 * ```ts
 * const [search, describe, call, listGroups] = metaTools(toolSet, {});
 * ```
 */
export function metaTools(toolSet: RcpToolSet, searchOptions: RcpToolSearchOptions | undefined): readonly MetaTool[] {
  const search = createToolSearch(toolSet, searchOptions);
  const definition = toolSearchDefinition({ toolCount: toolSet.entries.length });
  const readOnly: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
  const grouped = toolSet.groups.length > 0;
  const groups = grouped ? groupSearches(toolSet, searchOptions) : undefined;
  // Each tool's group under its set-wide name, for describe_tool.
  const groupOf = new Map(toolSet.groups.flatMap((group) => group.names.map((name) => [name, group.name] as const)));
  const searchTool: MetaTool = {
    ...definition,
    // The answer is compact (names, one line, param names): the schema is describe_tool's.
    description: `${definition.description} Read a tool's input schema with describe_tool before calling it with call_tool.`,
    annotations: readOnly,
    answer: answerWith(async (args) => ({ tools: (await search.handleCall(args)).tools })),
  };
  return [
    groups === undefined
      ? searchTool
      : {
          ...searchTool,
          description: `${searchTool.description} With "group" (a name from ${LIST_GROUPS_NAME}), only that group's tools are searched.`,
          inputSchema: { ...definition.inputSchema, properties: { ...definition.inputSchema.properties, group: GROUP_PROPERTY } },
          answer: answerWith(async ({ group, ...args }) => {
            // The SDK checked the schema: a group is a string. The group's own search checks the rest.
            const within = group === undefined ? search : groups.searchOf(String(group));
            return { tools: (await within.handleCall(args)).tools };
          }),
        },
    {
      name: DESCRIBE_TOOL_NAME,
      description:
        'Describe one tool by name (from search_tools): its description, the input schema its arguments must match, ' +
        'its output schema when it has one, and its annotations (read-only, destructive …).',
      inputSchema: { type: 'object', properties: { name: NAME_PROPERTY }, required: ['name'], additionalProperties: false },
      annotations: readOnly,
      answer: answerWith(async ({ name }) => {
        // The tool set's own lookup; an unknown name points at search_tools.
        const tool = await findTool(toolSet, search, String(name));
        const group = groupOf.get(String(name));
        return {
          name: String(name),
          description: tool.description,
          ...(group !== undefined && { group }),
          inputSchema: mcpFileSchema(tool.inputSchema),
          ...(tool.outputSchema !== undefined && { outputSchema: tool.outputSchema }),
          annotations: toolAnnotations(tool),
        };
      }),
    },
    {
      name: CALL_TOOL_NAME,
      description:
        'Call one tool by name (from search_tools) with its arguments, which must match its input schema ' +
        "(from describe_tool). The answer is the tool's own result. Each call is judged as the named " +
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
      lookUp: async (name) => {
        try {
          return await findTool(toolSet, search, name);
        } catch (error) {
          return toModelResult(error);
        }
      },
    },
    ...(grouped
      ? [
          {
            name: LIST_GROUPS_NAME,
            description:
              `List the groups the ${toolSet.entries.length} available tools are in: each group's name, what it is for in one line ` +
              `and how many tools it has. Pass a group's name to search_tools as "group" to search only its tools.`,
            inputSchema: { type: 'object', properties: {}, required: [], additionalProperties: false },
            annotations: readOnly,
            answer: answerWith(async () => groupsListing(toolSet)),
          } satisfies MetaTool,
        ]
      : []),
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
