import {
  createToolSet,
  toModelResult,
  toolCountWarning,
  type RcpClient,
  type RcpContextArgs,
  type RcpDiscovery,
  type RcpExecuteOptions,
  type RcpToolSet,
  type RcpToolSetOptions,
} from 'rcp-client';
import { toOpenAISchema, type OpenAIParameters } from './strict-schema';

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
 * The `function_call_output` input item that answers one Responses function call.
 *
 * @example
 * ```ts
 * const item: OpenAIFunctionCallOutput = { type: 'function_call_output', call_id: 'call_1', output: '{"ok":true,"data":{}}' };
 * ```
 */
export interface OpenAIFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string;
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
  /** For `chat.completions.create({ tools })`. */
  readonly chatTools: OpenAIChatTool[];
  /** For `responses.create({ tools })`. */
  readonly responsesTools: OpenAIResponsesTool[];
  /** The tools, under the names the model sees. */
  readonly toolSet: RcpToolSet;
  /** Past OpenAI's 128-function limit, what to do about it. */
  readonly warnings: readonly string[];
  /**
   * Runs a Chat Completions message's `tool_calls` (arguments arrive as JSON strings) through
   * `client.call`, all at once, and returns one `tool` message per call, in order. Never
   * throws for what a call runs into: the content is `toModelResult`'s JSON.
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
   * `function_call_output` item per call, in order (other items are skipped).
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
  const converted = toolSet.entries.map(({ name, tool }) => ({
    name,
    description: tool.description,
    ...toOpenAISchema(tool.inputSchema, { strict }),
  }));
  const warning = toolCountWarning(toolSet, { limit: OPENAI_TOOL_LIMIT, target: 'OpenAI' });

  type Rest = RcpContextArgs<Context, [options?: RcpExecuteOptions]>;
  /** One call through `client.call`, as the JSON text of what the model may read. */
  async function answer(name: string, args: unknown, rest: Rest): Promise<string> {
    const outcome = await client.call(toolSet, { name, arguments: args }, ...rest);
    return JSON.stringify(toModelResult(outcome));
  }

  return Object.freeze({
    get chatTools(): OpenAIChatTool[] {
      return converted.map(({ name, description, parameters, strict: isStrict }) => ({
        type: 'function' as const,
        function: { name, description, parameters: structuredClone(parameters), strict: isStrict },
      }));
    },
    get responsesTools(): OpenAIResponsesTool[] {
      return converted.map(({ name, description, parameters, strict: isStrict }) => ({
        type: 'function' as const,
        name,
        description,
        parameters: structuredClone(parameters),
        strict: isStrict,
      }));
    },
    toolSet,
    warnings: Object.freeze(warning === undefined ? [] : [warning]),
    async runToolCalls(toolCalls: readonly OpenAIChatToolCall[] | null | undefined, ...rest: Rest) {
      return Promise.all(
        (toolCalls ?? []).map(async (toolCall) => {
          // A custom (non-function) tool call names no RCP tool: it gets the unknown-tool answer.
          const fn = toolCall.type === 'function' ? toolCall.function : undefined;
          return {
            role: 'tool' as const,
            tool_call_id: toolCall.id,
            content: await answer(fn?.name ?? '', fn?.arguments, rest),
          };
        }),
      );
    },
    async runFunctionCalls(output: readonly OpenAIResponsesItem[], ...rest: Rest) {
      const calls = output.filter((item) => item.type === 'function_call' && typeof item.call_id === 'string');
      return Promise.all(
        calls.map(async (item) => ({
          type: 'function_call_output' as const,
          call_id: item.call_id as string,
          output: await answer(typeof item.name === 'string' ? item.name : '', item.arguments, rest),
        })),
      );
    },
  });
}
