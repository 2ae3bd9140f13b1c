import {
  CHECK_OPERATION_TOOL,
  checkOperationOffer,
  checkOperation,
  createToolSet,
  toModelResult,
  toModelText,
  toolCountWarning,
  type ModelResult,
  type RcpClient,
  type RcpContextArgs,
  type RcpContextClient,
  type RcpDiscovery,
  type RcpExecuteOptions,
  type RcpToolSet,
  type RcpToolSetGroup,
  type RcpToolSetOptions,
} from 'rcp-client';
import { toOpenAISchema, type OpenAIParameters } from './strict-schema';
import { openAIMediaKind } from './openai-media';

/** OpenAI's documented limit on the number of functions in one request. */
const OPENAI_TOOL_LIMIT = 128;

/**
 * A Chat Completions function tool (`tools` of `chat.completions.create`).
 *
 * @example
 * ```ts
 * const tool: OpenAIChatTool = { type: 'function', function: { name: 'get_note', description: 'Gets one note.', parameters: {}, strict: true } };
 * ```
 */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: OpenAIParameters; strict: boolean };
}

/**
 * A Responses API function tool (`tools` of `responses.create`).
 *
 * @example
 * ```ts
 * const tool: OpenAIResponsesTool = { type: 'function', name: 'get_note', description: 'Gets one note.', parameters: {}, strict: true };
 * ```
 */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: OpenAIParameters;
  strict: boolean;
}

/**
 * A Responses API namespace tool (`tools` of `responses.create`, openai 6.49's `NamespaceTool`):
 * the function tools of one RCP tool group (SPEC §20.3) under the group's name and description.
 *
 * @example
 * ```ts
 * const namespace: OpenAIResponsesNamespace = {
 *   type: 'namespace', name: 'invoices', description: 'Invoices and their payments.',
 *   tools: [{ type: 'function', name: 'list_invoices', description: 'Lists invoices.', parameters: {}, strict: true }],
 * };
 * ```
 */
export interface OpenAIResponsesNamespace {
  type: 'namespace';
  name: string;
  description: string;
  tools: OpenAIResponsesTool[];
}

/**
 * What a Chat Completions `message.tool_calls` entry carries (function and custom tool calls).
 *
 * @example
 * ```ts
 * const call: OpenAIChatToolCall = { id: 'call_1', type: 'function', function: { name: 'get_note', arguments: '{"noteId":"n-1"}' } };
 * ```
 */
export interface OpenAIChatToolCall {
  id: string;
  type: string;
  function?: { name: string; arguments: string };
}

/**
 * The `tool` message that answers one tool call.
 *
 * @example
 * ```ts
 * const message: OpenAIToolMessage = { role: 'tool', tool_call_id: 'call_1', content: '{"ok":true,"data":{}}' };
 * ```
 */
export interface OpenAIToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/**
 * A Responses API output item: `function_call` items are run, others skipped.
 *
 * @example
 * ```ts
 * const item: OpenAIResponsesItem = { type: 'function_call', call_id: 'call_1', name: 'get_note', arguments: '{}' };
 * ```
 */
export interface OpenAIResponsesItem {
  type: string;
  /** Read only from `function_call` items (a string there). */
  call_id?: unknown;
  name?: unknown;
  arguments?: unknown;
}

/**
 * A part of a `function_call_output`'s `output` array: the text, and an image or a file when the
 * call answered with media (docs/behaviour.md). The media's base64 is sent as a `data:` URL.
 *
 * @example
 * ```ts
 * const text: OpenAIFunctionCallOutputPart = { type: 'input_text', text: '{"ok":true,"data":null,"media":{"mediaType":"image/png","size":70}}' };
 * const image: OpenAIFunctionCallOutputPart = { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo...' };
 * ```
 */
export type OpenAIFunctionCallOutputPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string }
  | { type: 'input_file'; filename: string; file_data: string };

/**
 * The `function_call_output` input item that answers one Responses function call: `output` is
 * `toModelText`'s text, or — for an image or a PDF answer — that text and the media's part.
 *
 * @example
 * ```ts
 * const item: OpenAIFunctionCallOutput = { type: 'function_call_output', call_id: 'call_1', output: '{"ok":true,"data":{}}' };
 * ```
 */
export interface OpenAIFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string | OpenAIFunctionCallOutputPart[];
}

/**
 * A model result as a Responses `output`: the text alone, or the text and an `input_image`
 * (PNG, JPEG, WebP, GIF) or an `input_file` (PDF, named after the tool) carrying the media's
 * base64 as it is, in a `data:` URL (`OPENAI_MEDIA_TYPES`). Other media are the text
 * alone, which says what was received and how big.
 */
function toFunctionOutput(result: ModelResult, toolName: string): OpenAIFunctionCallOutput['output'] {
  const text = toModelText(result);
  const media = result.ok ? result.media : undefined;
  const kind = media === undefined ? undefined : openAIMediaKind(media.mediaType);
  if (media === undefined || kind === undefined) return text;
  const url = `data:${media.mediaType};base64,${media.data}`;
  if (kind === 'image')
    return [
      { type: 'input_text', text },
      { type: 'input_image', image_url: url },
    ];
  const subtype = media.mediaType.slice(media.mediaType.indexOf('/') + 1);
  return [
    { type: 'input_text', text },
    { type: 'input_file', filename: `${toolName || 'result'}.${subtype}`, file_data: url },
  ];
}

/**
 * Options of {@link createOpenAITools}: the tool set's (`only`, `namespace`) and `strict`.
 *
 * @example
 * ```ts
 * createOpenAITools(client, discovery, { strict: false, only: ['get_note'] });
 * ```
 */
export interface OpenAIToolsOptions extends RcpToolSetOptions {
  /**
   * Send tools in strict mode (structured outputs), each schema projected onto strict mode's
   * rules and documented keywords by {@link toOpenAISchema}. A tool whose schema cannot be strict
   * (an `object` param without `properties`, an `array` without `items`) is sent whole with
   * `strict: false`. `strict` is always sent explicitly.
   * @default true
   */
  strict?: boolean;
}

/**
 * RCP tools for the OpenAI API, made by {@link createOpenAITools}.
 *
 * @example
 * ```ts
 * const rcp = createOpenAITools(client, discovery);
 * const completion = await openai.chat.completions.create({ model, messages, tools: rcp.chatTools });
 * messages.push(completion.choices[0]!.message, ...(await rcp.runToolCalls(completion.choices[0]!.message.tool_calls, ctx)));
 * ```
 */
export interface OpenAITools<Context = any> {
  /**
   * For `chat.completions.create({ tools })`. When a tool of the set is long-running (RCP 0.4
   * `operation`) and none is named `check_operation`, rcp-client's `CHECK_OPERATION_TOOL` follows
   * the set's tools here and in the Responses lists; `runToolCalls` / `runFunctionCalls` run it
   * with `checkOperation`.
   */
  readonly chatTools: OpenAIChatTool[];
  /** For `responses.create({ tools })`. */
  readonly responsesTools: OpenAIResponsesTool[];
  /**
   * For `responses.create({ tools })`, with the set's tool groups (RCP 0.4, `toolSet.groups`) as
   * Responses namespaces: each group's function tools in one `namespace` tool (its name, and its
   * description, or `Tools of the "<name>" group.` when the manifest gives none), the tools in no
   * group as plain function tools, in the set's order of first appearance. The function names are
   * the set's, so `runFunctionCalls` runs a namespaced call by its `name` as any other. Without
   * groups it holds what `responsesTools` holds.
   * @example
   * ```ts
   * const response = await openai.responses.create({ model, input, tools: rcp.responsesNamespacedTools });
   * ```
   */
  readonly responsesNamespacedTools: (OpenAIResponsesTool | OpenAIResponsesNamespace)[];
  /** The tools, under the names the model sees. */
  readonly toolSet: RcpToolSet;
  /** The tool set's discovery warnings (`toolSet.warnings`), then, past OpenAI's 128-function limit, what to do about it. */
  readonly warnings: readonly string[];
  /**
   * Runs a Chat Completions message's `tool_calls` (arguments arrive as JSON strings) through
   * `client.call`, all at once, and returns one `tool` message per call, in order. Never
   * throws for what a call runs into: the content is `toModelText`'s text (a tool message takes
   * text only, so a media answer is the text that says what was received and how big).
   * @example
   * ```ts
   * messages.push(message, ...(await rcp.runToolCalls(message.tool_calls, ctx)));
   * ```
   */
  runToolCalls(
    toolCalls: readonly OpenAIChatToolCall[] | null | undefined,
    ...rest: RcpContextArgs<Context, [options?: RcpExecuteOptions]>
  ): Promise<OpenAIToolMessage[]>;
  /**
   * Runs the `function_call` items of a Responses API `output` and returns one
   * `function_call_output` item per call, in order (other items are skipped). `output` is
   * `toModelText`'s text, with an `input_image` or `input_file` part beside it for an image or
   * PDF answer.
   * @example
   * ```ts
   * input.push(...response.output, ...(await rcp.runFunctionCalls(response.output, ctx)));
   * ```
   */
  runFunctionCalls(
    output: readonly OpenAIResponsesItem[],
    ...rest: RcpContextArgs<Context, [options?: RcpExecuteOptions]>
  ): Promise<OpenAIFunctionCallOutput[]>;
}

/**
 * Turns discovered RCP tools into OpenAI function tools — for Chat Completions and for the
 * Responses API — and runs the model's tool calls through `client.call`. No OpenAI SDK is
 * needed at run time: the shapes are plain objects the `openai` package accepts.
 * Resolver-bound params are in no schema and no description.
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { createOpenAITools } from 'rcp-openai';
 *
 * const rcp = createOpenAITools(client, await client.discover(manifestUrl));
 * const completion = await new OpenAI().chat.completions.create({ model: 'gpt-5.6-terra', messages, tools: rcp.chatTools });
 * const toolMessages = await rcp.runToolCalls(completion.choices[0]!.message.tool_calls, { userId: 'u-1' });
 * ```
 */
export function createOpenAITools<Context = any>(
  client: RcpClient<Context>,
  source: RcpDiscovery | readonly RcpDiscovery[] | RcpToolSet,
  options: OpenAIToolsOptions = {},
): OpenAITools<Context> {
  const { strict = true, ...setOptions } = options;
  const toolSet = createToolSet(source, setOptions);
  // The model's check of pending operations (SPEC §20.8), beside long-running tools only, and
  // never in place of a discovered tool of that name (rcp-client's one rule).
  const { offer: offersCheck, warning: checkWarning } = checkOperationOffer(toolSet.entries);
  const converted = [...toolSet.entries, ...(offersCheck ? [{ name: CHECK_OPERATION_TOOL.name, tool: CHECK_OPERATION_TOOL }] : [])].map(({ name, tool }) => ({
    name,
    description: tool.description,
    ...toOpenAISchema(tool.inputSchema, { strict }),
  }));
  const warning = toolCountWarning(toolSet, { limit: OPENAI_TOOL_LIMIT, target: 'OpenAI' });
  // The client with the context as one typed argument (for the check): assigned once, never cast.
  const calls: RcpContextClient<Context> = client;
  /** One converted tool as a Responses function tool (a fresh copy of its schema each time). */
  const responsesTool = ({ name, description, parameters, strict: isStrict }: (typeof converted)[number]): OpenAIResponsesTool => ({
    type: 'function',
    name,
    description,
    parameters: structuredClone(parameters),
    strict: isStrict,
  });

  type Rest = RcpContextArgs<Context, [options?: RcpExecuteOptions]>;
  /** One call through `client.call`, as what the model may read. */
  async function answer(name: string, args: unknown, rest: Rest): Promise<ModelResult> {
    // `rest[0]` is the run's ctx (undefined only where Context allows it).
    if (offersCheck && name === CHECK_OPERATION_TOOL.name) return checkOperation(calls, toolSet, args, rest[0] as Context);
    return toModelResult(await client.call(toolSet, { name, arguments: args }, ...rest));
  }

  return Object.freeze({
    get chatTools(): OpenAIChatTool[] {
      return converted.map(({ name, description, parameters, strict: isStrict }) => ({
        type: 'function' as const,
        function: { name, description, parameters: structuredClone(parameters), strict: isStrict },
      }));
    },
    get responsesTools(): OpenAIResponsesTool[] {
      return converted.map(responsesTool);
    },
    get responsesNamespacedTools(): (OpenAIResponsesTool | OpenAIResponsesNamespace)[] {
      const groupOf = new Map<string, RcpToolSetGroup>();
      for (const group of toolSet.groups) for (const name of group.names) groupOf.set(name, group);
      const out: (OpenAIResponsesTool | OpenAIResponsesNamespace)[] = [];
      const namespaces = new Map<RcpToolSetGroup, OpenAIResponsesNamespace>();
      for (const tool of converted) {
        const group = groupOf.get(tool.name);
        if (group === undefined) {
          out.push(responsesTool(tool));
          continue;
        }
        let namespace = namespaces.get(group);
        if (namespace === undefined) {
          const description = group.description.trim() === '' ? `Tools of the "${group.name}" group.` : group.description;
          namespace = { type: 'namespace', name: group.name, description, tools: [] };
          namespaces.set(group, namespace);
          out.push(namespace);
        }
        namespace.tools.push(responsesTool(tool));
      }
      return out;
    },
    toolSet,
    warnings: Object.freeze([...toolSet.warnings, ...[warning, checkWarning].filter((line) => line !== undefined)]),
    async runToolCalls(toolCalls: readonly OpenAIChatToolCall[] | null | undefined, ...rest: Rest) {
      return Promise.all(
        (toolCalls ?? []).map(async (toolCall) => {
          // A custom (non-function) tool call names no RCP tool: it gets the unknown-tool answer.
          const fn = toolCall.type === 'function' ? toolCall.function : undefined;
          return {
            role: 'tool' as const,
            tool_call_id: toolCall.id,
            // Tool messages take text only (SDK 6.49: `string | ChatCompletionContentPartText[]`):
            // a media answer is the text that says what was received and how big.
            content: toModelText(await answer(fn?.name ?? '', fn?.arguments, rest)),
          };
        }),
      );
    },
    async runFunctionCalls(output: readonly OpenAIResponsesItem[], ...rest: Rest) {
      const calls = output.filter((item) => item.type === 'function_call' && typeof item.call_id === 'string');
      return Promise.all(
        calls.map(async (item) => {
          const name = typeof item.name === 'string' ? item.name : '';
          return {
            type: 'function_call_output' as const,
            call_id: item.call_id as string,
            output: toFunctionOutput(await answer(name, item.arguments, rest), name),
          };
        }),
      );
    },
  });
}
