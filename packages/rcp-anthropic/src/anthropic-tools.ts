import {
  createToolSet,
  toModelResult,
  type RcpClient,
  type RcpContextArgs,
  type RcpDiscovery,
  type RcpExecuteOptions,
  type RcpToolSet,
  type RcpToolSetOptions,
} from 'rcp-client';
import { toAnthropicInputSchema, type AnthropicInputSchema } from './input-schema';

/**
 * A Messages API tool definition (`tools` of `messages.create`).
 *
 * @example
 * ```ts
 * const tool: AnthropicTool = { name: 'get_note', description: 'Gets one note.', input_schema: { type: 'object', properties: {}, required: [], additionalProperties: false } };
 * ```
 */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: AnthropicInputSchema;
}

/**
 * A content block of an assistant message: `tool_use` blocks are run, others skipped.
 *
 * @example
 * ```ts
 * const block: AnthropicContentBlock = { type: 'tool_use', id: 'toolu_1', name: 'get_note', input: { noteId: 'n-1' } };
 * ```
 */
export interface AnthropicContentBlock {
  type: string;
  /** Read only from `tool_use` blocks. */
  id?: unknown;
  name?: unknown;
  input?: unknown;
}

/**
 * The `tool_result` block that answers one `tool_use` block.
 *
 * @example
 * ```ts
 * const result: AnthropicToolResult = { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"ok":true,"data":{}}', is_error: false };
 * ```
 */
export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error: boolean;
}

/**
 * RCP tools for the Anthropic Messages API, made by {@link createAnthropicTools}.
 *
 * @example
 * ```ts
 * const rcp = createAnthropicTools(client, discovery);
 * const message = await anthropic.messages.create({ model, max_tokens: 1024, messages, tools: rcp.tools });
 * messages.push({ role: 'assistant', content: message.content }, { role: 'user', content: await rcp.runToolUses(message.content, ctx) });
 * ```
 */
export interface AnthropicTools<Context = any> {
  /** For `messages.create({ tools })`: fresh copies on every read. */
  readonly tools: AnthropicTool[];
  /** The tools, under the names the model sees. */
  readonly toolSet: RcpToolSet;
  /**
   * Runs the `tool_use` blocks of an assistant message's `content` through `client.call`, all
   * at once, and returns one `tool_result` block per use, in order — to send back in a `user`
   * message. Never throws for what a call runs into: `content` is `toModelResult`'s JSON and
   * `is_error` is true when the call failed.
   * @example
   * ```ts
   * messages.push({ role: 'user', content: await rcp.runToolUses(message.content, ctx) });
   * ```
   */
  runToolUses(
    content: readonly AnthropicContentBlock[],
    ...rest: RcpContextArgs<Context, [options?: RcpExecuteOptions]>
  ): Promise<AnthropicToolResult[]>;
}

/**
 * Turns discovered RCP tools into Anthropic tool definitions and runs the model's `tool_use`
 * blocks through `client.call`. No Anthropic SDK at run time. Tools are non-strict: each
 * `input_schema` is the model-facing schema through {@link toAnthropicInputSchema}, every detail
 * kept (strict tools would lose the bounds and lengths, and RCP validates every call itself).
 * Resolver-bound params are in no schema and no description.
 *
 * @example
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk';
 * import { createAnthropicTools } from 'rcp-anthropic';
 *
 * const rcp = createAnthropicTools(client, await client.discover(manifestUrl));
 * const message = await new Anthropic().messages.create({ model: 'claude-sonnet-5-5', max_tokens: 1024, messages, tools: rcp.tools });
 * const results = await rcp.runToolUses(message.content, { userId: 'u-1' });
 * ```
 */
export function createAnthropicTools<Context = any>(
  client: RcpClient<Context>,
  source: RcpDiscovery | readonly RcpDiscovery[] | RcpToolSet,
  options: RcpToolSetOptions = {},
): AnthropicTools<Context> {
  const toolSet = createToolSet(source, options);
  type Rest = RcpContextArgs<Context, [options?: RcpExecuteOptions]>;
  return Object.freeze({
    get tools(): AnthropicTool[] {
      return toolSet.entries.map(({ name, tool }) => ({
        name,
        description: tool.description,
        input_schema: toAnthropicInputSchema(tool.inputSchema),
      }));
    },
    toolSet,
    async runToolUses(content: readonly AnthropicContentBlock[], ...rest: Rest): Promise<AnthropicToolResult[]> {
      const uses = content.filter((block) => block.type === 'tool_use' && typeof block.id === 'string');
      return Promise.all(
        uses.map(async (block) => {
          const name = typeof block.name === 'string' ? block.name : '';
          const result = toModelResult(await client.call(toolSet, { name, arguments: block.input }, ...rest));
          return { type: 'tool_result' as const, tool_use_id: block.id as string, content: JSON.stringify(result), is_error: !result.ok };
        }),
      );
    },
  });
}
