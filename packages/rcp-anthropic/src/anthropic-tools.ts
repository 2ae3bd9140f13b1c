import {
  CHECK_OPERATION_TOOL,
  checkOperationOffer,
  checkOperation,
  createToolSet,
  toModelResult,
  toModelText,
  type ModelResult,
  type RcpClient,
  type RcpContextArgs,
  type RcpContextClient,
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
 * A block of a `tool_result`'s `content` array: the text, and an image or a document when the
 * call answered with media (docs/behaviour.md).
 *
 * @example
 * ```ts
 * const text: AnthropicToolResultBlock = { type: 'text', text: '{"ok":true,"data":null,"media":{"mediaType":"image/png","size":70}}' };
 * const image: AnthropicToolResultBlock = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo...' } };
 * ```
 */
export type AnthropicToolResultBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: AnthropicImageMediaType; data: string } }
  | { type: 'document'; source: { type: 'base64'; media_type: 'application/pdf'; data: string } }
  /** A found tool, in the answer of the search tool (`rcp-anthropic/search`). */
  | { type: 'tool_reference'; tool_name: string };

/**
 * The image types a Messages API `image` block takes (`Base64ImageSource`).
 *
 * @example
 * ```ts
 * const type: AnthropicImageMediaType = 'image/png';
 * ```
 */
export type AnthropicImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

/**
 * The `tool_result` block that answers one `tool_use` block: `content` is `toModelText`'s text,
 * or — when the call answered with an image or a PDF — a text block and that media's block.
 *
 * @example
 * ```ts
 * const result: AnthropicToolResult = { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"ok":true,"data":{}}', is_error: false };
 * ```
 */
export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: string | AnthropicToolResultBlock[];
  is_error: boolean;
}

/**
 * The media types the Messages API takes in a `tool_result` (docs/behaviour.md): JPEG, PNG, GIF and WebP
 * as an `image` block, PDF as a `document` block. A type outside the list would fail the whole
 * request, so it is never sent as media; the text says what was received and how big.
 *
 * @example
 * ```ts
 * import { ANTHROPIC_MEDIA_TYPES } from 'rcp-anthropic';
 * ANTHROPIC_MEDIA_TYPES.includes('image/bmp'); // false
 * ```
 */
export const ANTHROPIC_MEDIA_TYPES: readonly (AnthropicImageMediaType | 'application/pdf')[] = Object.freeze([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'application/pdf',
]);

/**
 * A model result as `tool_result` content: the text alone, or the text and an `image` block
 * (JPEG, PNG, GIF, WebP) or a `document` block (PDF) carrying the media's base64 as it is
 * ({@link ANTHROPIC_MEDIA_TYPES}). Other media are the text alone, which says what was received
 * and how big.
 */
function toToolResultContent(result: ModelResult): AnthropicToolResult['content'] {
  const text = toModelText(result);
  const media = result.ok ? result.media : undefined;
  if (media === undefined || !(ANTHROPIC_MEDIA_TYPES as readonly string[]).includes(media.mediaType)) return text;
  if (media.mediaType !== 'application/pdf') {
    const media_type = media.mediaType as AnthropicImageMediaType;
    return [
      { type: 'text', text },
      { type: 'image', source: { type: 'base64', media_type, data: media.data } },
    ];
  }
  return [
    { type: 'text', text },
    { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: media.data } },
  ];
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
  /**
   * For `messages.create({ tools })`: fresh copies on every read. When a tool of the set is
   * long-running (RCP 0.4 `operation`) and none is named `check_operation`, rcp-client's
   * `CHECK_OPERATION_TOOL` follows the set's tools; `runToolUses` runs it with `checkOperation`.
   */
  readonly tools: AnthropicTool[];
  /** The tools, under the names the model sees. */
  readonly toolSet: RcpToolSet;
  /**
   * Runs the `tool_use` blocks of an assistant message's `content` through `client.call`, all
   * at once, and returns one `tool_result` block per use, in order — to send back in a `user`
   * message. Never throws for what a call runs into: `content` is `toModelText`'s text (with an
   * `image` or `document` block beside it for an image or PDF answer) and `is_error` is true
   * when the call failed.
   * @example
   * ```ts
   * messages.push({ role: 'user', content: await rcp.runToolUses(message.content, ctx) });
   * ```
   */
  runToolUses(content: readonly AnthropicContentBlock[], ...rest: RcpContextArgs<Context, [options?: RcpExecuteOptions]>): Promise<AnthropicToolResult[]>;
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
  // The model's check of pending operations (SPEC §20.8), beside long-running tools only, and
  // never in place of a discovered tool of that name.
  const offersCheck = checkOperationOffer(toolSet.entries).offer;
  const offered = [...toolSet.entries, ...(offersCheck ? [{ name: CHECK_OPERATION_TOOL.name, tool: CHECK_OPERATION_TOOL }] : [])];
  // The client with the context as one typed argument (for the check): assigned once, never cast.
  const calls: RcpContextClient<Context> = client;
  type Rest = RcpContextArgs<Context, [options?: RcpExecuteOptions]>;
  /** One tool use through `client.call`, or the check through `checkOperation` (`rest[0]` is the run's ctx). */
  async function answer(name: string, input: unknown, rest: Rest): Promise<ModelResult> {
    if (offersCheck && name === CHECK_OPERATION_TOOL.name) return checkOperation(calls, toolSet, input, rest[0] as Context);
    return toModelResult(await client.call(toolSet, { name, arguments: input }, ...rest));
  }
  return Object.freeze({
    get tools(): AnthropicTool[] {
      return offered.map(({ name, tool }) => ({
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
          const result = await answer(name, block.input, rest);
          return { type: 'tool_result' as const, tool_use_id: block.id as string, content: toToolResultContent(result), is_error: !result.ok };
        }),
      );
    },
  });
}
