import { jsonSchema, tool, type Tool, type ToolExecutionOptions, type ToolSet } from 'ai';
import {
  CHECK_OPERATION_TOOL,
  checkOperationOffer,
  RcpError,
  checkOperation,
  createStages,
  createToolSet,
  jsonSchemaCopy,
  toModelResult,
  validateArguments,
  type RcpClient,
  type RcpContextClient,
  type RcpDiscovery,
  type RcpToolFilter,
  type RcpToolSet,
  type RcpToolSetOptions,
  type RcpApprovalRequest,
  type RcpExecuteOptions,
  type RcpTurn,
} from 'rcp-client';
import { createApprovalFlow, isResumed, type AISDKToolApprovalFunction } from './approval';
import { AI_SDK_MEDIA_TYPES, modelResultSchema, toAISDKModelOutput } from './model-output';
import { toolProgressSchema, withProgress, type AISDKToolOutput } from './stream-progress';

/**
 * What a tool call runs with: the context the client's resolvers read, and the stage the turn
 * is in (a key of `stages`), if any.
 *
 * @example
 * ```ts
 * const turn: AISDKTurn<{ userId: string }> = { ctx: { userId: 'u-1' }, stage: 'browse' };
 * ```
 */
export type AISDKTurn<Context> = RcpTurn<Context>;

/**
 * Options of {@link createAISDKTools}.
 *
 * @example
 * ```ts
 * createAISDKTools(client, discovery, {
 *   stages: { browse: ['list_notes', 'get_note'], act: () => true },
 *   turn: (context) => context as AISDKTurn<{ userId: string }>,
 * });
 * ```
 */
export interface AISDKToolsOptions<Context> extends RcpToolSetOptions {
  /**
   * Stages by id: the tools each may use. `activeTools(stage)` lists them for `generateText`'s
   * `activeTools` / `prepareStep`, and a call in a stage to a tool outside it sends nothing.
   * @default {}
   */
  stages?: Readonly<Record<string, RcpToolFilter>>;
  /**
   * The context and stage of the turn, from `generateText`'s `experimental_context`.
   * @default `(context) => ({ ctx: context ?? ctx })`: the experimental context is the ctx
   */
  turn?: (experimentalContext: unknown) => AISDKTurn<Context>;
  /**
   * A fixed context for every call (one user per tool set), used when the turn gives none.
   * @default undefined
   */
  ctx?: Context;
  /**
   * The media types sent to the model as media (lower-case `type/subtype`); an answer of another
   * type is the text alone, which says what was received and how big. Name your provider's list
   * when every model you give these tools is that provider's (`OPENAI_MEDIA_TYPES` of rcp-openai,
   * `ANTHROPIC_MEDIA_TYPES` of rcp-anthropic, `GEMINI_MEDIA_TYPES` of rcp-gemini): a type the
   * provider does not take fails the whole request.
   * @default AI_SDK_MEDIA_TYPES (PNG, JPEG, WebP, PDF: what every one of those providers takes)
   */
  mediaTypes?: readonly string[];
}

/**
 * RCP tools as an AI SDK tool set, made by {@link createAISDKTools}.
 *
 * @example
 * ```ts
 * const rcp = createAISDKTools(client, discovery, { stages: { browse: ['list_notes'] } });
 * await generateText({ model, tools: rcp.tools, activeTools: rcp.activeTools('browse'), prompt });
 * ```
 */
export interface AISDKTools {
  /**
   * For `generateText` / `streamText`'s `tools`. A tool's output is `toModelResult`'s object; a
   * streamed tool's preliminary outputs (`streamText`) are its progress, {@link AISDKToolProgress}.
   * When a tool is long-running (RCP 0.4 `operation`) and none is named `check_operation`,
   * rcp-client's `CHECK_OPERATION_TOOL` is here too, run with `checkOperation` in the turn's stage.
   */
  readonly tools: ToolSet & Record<string, Tool<Record<string, unknown>, AISDKToolOutput>>;
  /**
   * The names of a stage's tools, for `activeTools` (or `prepareStep`'s), with `check_operation`
   * when the stage holds a long-running tool; an unknown stage is `RCP_INVALID_OPTIONS`.
   * @example
   * ```ts
   * prepareStep: () => ({ activeTools: rcp.activeTools('act') });
   * ```
   */
  activeTools(stage: string): string[];
  /** The tools, under the names the model sees. */
  readonly toolSet: RcpToolSet;
  /**
   * The review a paused call waits on (a `tool-approval-request`'s `toolCall.toolCallId`): the
   * request it will send — method, URL, headers, body, resolver values included, the credential
   * `[redacted]` — and the client's reason. Show it to the person; `undefined` when the call
   * is not waiting.
   * @example
   * ```ts
   * for (const part of result.content) {
   *   if (part.type === 'tool-approval-request') console.log(await rcp.review(part.toolCall.toolCallId));
   * }
   * ```
   */
  review(toolCallId: string): Promise<RcpApprovalRequest | undefined>;
  /**
   * The same decision in AI SDK 7's shape, per tool, for `generateText({ toolApproval })` once
   * `ai` 7 can be used (it needs Node 22): `'user-approval'`, `{ type: 'denied', reason }`,
   * `{ type: 'approved' }` or `'not-applicable'`, the review kept as with `needsApproval`.
   * @example
   * ```ts
   * await generateText({ model, tools: rcp.tools, toolApproval: { ...rcp.toolApproval }, runtimeContext: { userId: 'u-1' }, prompt });
   * ```
   */
  readonly toolApproval: Readonly<Record<string, AISDKToolApprovalFunction>>;
}

/**
 * Turns discovered RCP tools into a Vercel AI SDK tool set: `tool({ description, inputSchema,
 * execute })` per tool, where `inputSchema` is `jsonSchema(schema, { validate })` with RCP's
 * own argument validation (so the AI SDK refuses bad input itself), and `execute` runs
 * `client.call` with the turn's context and the AI SDK's `abortSignal`. What a call runs into
 * (an HTTP error, a missing user, a tool outside the stage) is returned as `toModelResult`'s
 * object for the model to read, never thrown. Resolver-bound params are in no schema and no
 * description. With an `approval` policy on the client, each tool's `needsApproval` is the
 * client's decision: a `user-approval` call pauses (a `tool-approval-request`, nothing sent),
 * `review(toolCallId)` is the exact request to show, and the call the AI SDK runs after the
 * person's yes is sent only as that request, once (SPEC §19). A tool whose answer is a stream
 * (RCP 0.4 `stream`, SPEC §20.6: `tool.stream`) reports its progress as the AI SDK's
 * preliminary tool results (`{ progress: { events, bytes } }`) while the stream is read, then its
 * collected result; every other tool's `execute` returns its result once.
 *
 * @example
 * ```ts
 * import { generateText, stepCountIs } from 'ai';
 * import { createAISDKTools } from 'rcp-ai-sdk';
 *
 * const rcp = createAISDKTools(client, await client.discover(manifestUrl));
 * const { text } = await generateText({ model, tools: rcp.tools, stopWhen: stepCountIs(5), prompt, experimental_context: { userId: 'u-1' } });
 * ```
 */
export function createAISDKTools<Context = any>(
  client: RcpClient<Context>,
  source: RcpDiscovery | readonly RcpDiscovery[] | RcpToolSet,
  options: AISDKToolsOptions<Context> = {},
): AISDKTools {
  const { stages = {}, turn, ctx: fixedCtx, mediaTypes, ...setOptions } = options;
  const media = { mediaTypes: mediaTypesOf(mediaTypes) };
  const toolSet = createToolSet(source, setOptions);
  const stageSets = createStages(toolSet, stages);
  const turnOf = turn ?? ((context: unknown): AISDKTurn<Context> => ({ ctx: (context ?? fixedCtx) as Context }));
  // The client with the context as one typed argument: assigned once, never cast.
  const calls: RcpContextClient<Context> = client;
  const approvals = createApprovalFlow(calls, (context) => {
    const { ctx, stage } = turnOf(context);
    return { ctx: ctx ?? (fixedCtx as Context), scope: stageSets.scope(stage) };
  });
  const toolApproval: Record<string, AISDKToolApprovalFunction> = {};

  // The application reads the whole result (execute's return); the model reads its text and
  // a media part in the provider's native shape. The AI SDK gives it the final output only
  // (a progress value would be its counts as text).
  const toModelOutput = ({ output }: { output: AISDKToolOutput }) =>
    'progress' in output ? { type: 'json' as const, value: { ...output.progress } } : toAISDKModelOutput(output, media);
  const tools: Record<string, Tool<Record<string, unknown>, AISDKToolOutput>> = {};
  for (const { name, tool: rcpTool } of toolSet.entries) {
    // The tool's declared stream (RCP 0.4, `tool.stream`): in discoveries and tool sets alike.
    const streams = rcpTool.stream !== undefined;
    const resultSchema = modelResultSchema(rcpTool);
    // A UI message saved while a stream is read holds a preliminary output: the schema accepts it.
    const outputSchema = resultSchema !== undefined && streams ? { anyOf: [resultSchema, toolProgressSchema] } : resultSchema;
    const run = async (input: Record<string, unknown>, callOptions: ToolExecutionOptions, onProgress?: RcpExecuteOptions['onProgress']) => {
      const { abortSignal, experimental_context, toolCallId, messages } = callOptions;
      const { ctx, scope } = approvals.callOf(experimental_context);
      const options: RcpExecuteOptions = {};
      if (abortSignal !== undefined) options.signal = abortSignal;
      if (onProgress !== undefined) options.onProgress = onProgress;
      // After a person's yes, the call resumes the review kept under its id: sent only as the
      // request they were shown, once; refused, nothing sent, when none is kept.
      if (isResumed(messages, toolCallId)) options.approvalKey = toolCallId;
      const outcome = await calls.call(scope, { name, arguments: { ...input } }, ctx, options);
      return toModelResult(outcome);
    };
    tools[name] = tool<Record<string, unknown>, AISDKToolOutput>({
      description: rcpTool.description,
      inputSchema: jsonSchema<Record<string, unknown>>(jsonSchemaCopy(rcpTool.inputSchema), {
        validate: (value) => {
          try {
            // A plain object: the AI SDK validates an approved call's input again and compares
            // the two (its deep equality also compares prototypes).
            return { success: true, value: { ...validateArguments(rcpTool, value) } };
          } catch (error) {
            return { success: false, error: error as Error };
          }
        },
      }),
      ...(outputSchema !== undefined && { outputSchema: jsonSchema<AISDKToolOutput>(outputSchema) }),
      needsApproval: approvals.needsApproval(name, rcpTool),
      toModelOutput,
      // A streamed tool is a generator (each yield a preliminary result, the last the final one);
      // any other returns its result once, as a generator would add a preliminary copy of it.
      execute: streams
        ? (input, callOptions) => withProgress((onProgress) => run(input, callOptions, onProgress))
        : (input, callOptions) => run(input, callOptions),
    });
    toolApproval[name] = approvals.toolApprovalOf(name, rcpTool);
  }

  // The model's check of pending operations (SPEC §20.8), beside long-running tools only, and
  // never in place of a discovered tool of that name. It polls a call already made: no approval.
  const offersCheck = checkOperationOffer(toolSet.entries).offer;
  if (offersCheck) {
    tools[CHECK_OPERATION_TOOL.name] = tool<Record<string, unknown>, AISDKToolOutput>({
      description: CHECK_OPERATION_TOOL.description,
      inputSchema: jsonSchema<Record<string, unknown>>(jsonSchemaCopy(CHECK_OPERATION_TOOL.inputSchema)),
      toModelOutput,
      execute: (input, { experimental_context }) => {
        const { ctx, scope } = approvals.callOf(experimental_context);
        return checkOperation(calls, scope, input, ctx);
      },
    });
    toolApproval[CHECK_OPERATION_TOOL.name] = async () => 'not-applicable';
  }
  /** A stage's tools, with the check when the stage holds a long-running tool. */
  const stageNames = (stage: string): string[] => {
    const { names, entries } = stageSets.get(stage);
    return offersCheck && checkOperationOffer(entries).offer ? [...names, CHECK_OPERATION_TOOL.name] : [...names];
  };

  return Object.freeze({
    tools: Object.freeze(tools) as AISDKTools['tools'],
    activeTools: stageNames,
    toolSet,
    review: approvals.review,
    toolApproval: Object.freeze(toolApproval),
  });
}

/** The `mediaTypes` option, checked (`RCP_INVALID_OPTIONS`) and lower-cased, as model results' media types are. */
function mediaTypesOf(given: unknown): readonly string[] {
  if (given === undefined) return AI_SDK_MEDIA_TYPES;
  if (!Array.isArray(given) || !given.every((type) => typeof type === 'string' && type.includes('/'))) {
    throw new RcpError('RCP_INVALID_OPTIONS', 'Option "mediaTypes" must be a list of media types ("image/png")');
  }
  return Object.freeze(given.map((type: string) => type.toLowerCase()));
}
