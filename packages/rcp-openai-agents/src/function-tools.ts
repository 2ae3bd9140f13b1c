/**
 * One RCP tool as an Agents SDK function tool (`tool()` of `@openai/agents`): its `needsApproval`
 * is the client's decision, its `execute` one `client.call` in the turn's scope, and what the
 * model reads is `toModelText(toModelResult(outcome))` (a media part beside it). Internal to the
 * package: `createOpenAIAgentsTools` wires these.
 */
import { tool, type FunctionTool, type RunContext } from '@openai/agents';
import {
  CHECK_OPERATION_TOOL,
  checkOperation,
  toModelResult,
  toModelText,
  type RcpApproval,
  type RcpContextClient,
  type RcpExecuteOptions,
  type RcpInputSchema,
  type RcpToolSet,
  type RcpToolSetEntry,
} from 'rcp-client';
import { toOpenAISchema } from 'rcp-openai';
import { toAgentsToolOutput, type OpenAIAgentsToolOutput } from './tool-output';

/** The JSON Schema shapes `tool()` takes, strict and not. */
type StrictSchema = Extract<FunctionTool['parameters'], { additionalProperties: false }>;
type OpenSchema = Extract<FunctionTool['parameters'], { additionalProperties: true }>;
/**
 * One of the tools made here: JSON Schema parameters, the model result as text (and a media part). Its run context
 * is `any`: the tool reads its turn from whatever context the run has (`turnOf`), so it fits an Agent of any context.
 * With `unknown` it did not under TypeScript 7, which compares the SDK's `customDataExtractor` context invariantly:
 * `new Agent<{ userId: string }>({ tools })` was a type error there.
 */
export type AgentsTool = FunctionTool<any, FunctionTool['parameters'], OpenAIAgentsToolOutput>;
/** What `execute` is given besides the input (the call, its abort signal). */
type ToolCallDetails = Parameters<FunctionTool['invoke']>[2];

/** What the function tools of one scope (the whole set, or a stage's) need. */
export interface FunctionToolsOptions<Context> {
  readonly client: RcpContextClient<Context>;
  readonly strict: boolean;
  readonly deferLoading: boolean;
  /** The ctx and the tool set of a call, from the run's app context. */
  readonly turnOf: (runContext: unknown) => { ctx: Context; scope: RcpToolSet };
  /** The approval a person gave for this call id, if any; taken once. */
  readonly takeApproval: (callId: string | undefined) => RcpApproval | undefined;
}

/** The function tools of `entries`, in order. */
export function agentsFunctionTools<Context>(entries: readonly RcpToolSetEntry[], options: FunctionToolsOptions<Context>): AgentsTool[] {
  const { client, strict, deferLoading, turnOf, takeApproval } = options;
  return entries.map(({ name, tool: rcpTool }) => {
    const common = {
      name,
      description: rcpTool.description,
      ...(deferLoading && { deferLoading: true }),
      // The client's decision for this call, asked before the call is made (nothing is sent).
      // A call that cannot even be built, or lies outside the stage, is not paused: running it
      // answers the model with why, and sends nothing.
      needsApproval: async (runContext: RunContext, input: unknown, callId?: string): Promise<boolean> => {
        const { ctx, scope } = turnOf(runContext.context);
        if (!scope.names.includes(name)) return false;
        try {
          // The decision alone: no resolver runs, no credential is asked, no request is built.
          if ((await client.decide(rcpTool, input, ctx)).decision !== 'user-approval') return false;
          // The review the person will be shown, kept in the client's ledger under the call id:
          // the only review this call can be approved by, in this process or another.
          await client.review(rcpTool, input, ctx, callId === undefined ? {} : { key: callId });
          return true;
        } catch {
          return false;
        }
      },
      execute: async (input: unknown, runContext?: RunContext, details?: ToolCallDetails): Promise<OpenAIAgentsToolOutput> => {
        const { ctx, scope } = turnOf(runContext?.context);
        const approval = takeApproval(details?.toolCall?.callId);
        const executeOptions: RcpExecuteOptions = {};
        if (details?.signal !== undefined) executeOptions.signal = details.signal;
        if (approval !== undefined) executeOptions.approval = approval;
        const outcome = await client.call(scope, { name, arguments: input }, ctx, executeOptions);
        return toAgentsToolOutput(toModelResult(outcome), name);
      },
      errorFunction,
    };
    return functionTool(common, rcpTool.inputSchema, strict);
  });
}

/**
 * The model's check of pending operations (rcp-client's `CHECK_OPERATION_TOOL`, SPEC §20.8) as a
 * function tool: `checkOperation` in the turn's scope for the turn's ctx. Never deferred (the model
 * needs it for the handle a call answered with) and never paused for approval (it polls a call
 * that was already made).
 */
export function agentsCheckTool<Context>(options: Pick<FunctionToolsOptions<Context>, 'client' | 'strict' | 'turnOf'>): AgentsTool {
  const { client, strict, turnOf } = options;
  const common = {
    name: CHECK_OPERATION_TOOL.name,
    description: CHECK_OPERATION_TOOL.description,
    execute: async (input: unknown, runContext?: RunContext): Promise<OpenAIAgentsToolOutput> => {
      const { ctx, scope } = turnOf(runContext?.context);
      return toAgentsToolOutput(await checkOperation(client, scope, input, ctx), CHECK_OPERATION_TOOL.name);
    },
    errorFunction,
  };
  return functionTool(common, CHECK_OPERATION_TOOL.inputSchema, strict);
}

/** Only a non-RCP error (a bug) reaches a tool's error function: the model reads UNKNOWN_ERROR, never its text. */
const errorFunction = (_runContext: RunContext, error: unknown): string => toModelText(toModelResult(error));

/** What a function tool is given besides its parameters. */
interface FunctionToolCommon {
  readonly name: string;
  readonly description: string;
  readonly deferLoading?: boolean;
  readonly needsApproval?: (runContext: RunContext, input: unknown, callId?: string) => Promise<boolean>;
  readonly execute: (input: unknown, runContext?: RunContext, details?: ToolCallDetails) => Promise<OpenAIAgentsToolOutput>;
  readonly errorFunction: (runContext: RunContext, error: unknown) => string;
}

/** `tool()` with `schema` projected by rcp-openai (strict where it can be). */
function functionTool(common: FunctionToolCommon, schema: RcpInputSchema, strict: boolean): AgentsTool {
  const projected = toOpenAISchema(schema, { strict });
  if (projected.strict)
    return tool<StrictSchema, unknown, OpenAIAgentsToolOutput>({ ...common, parameters: projected.parameters as StrictSchema, strict: true });
  // Not strict: rcp-openai's schema stays closed (`additionalProperties: false`, what OpenAI is
  // sent); the SDK passes it on as it is, though its non-strict type names `true`.
  return tool<OpenSchema, unknown, OpenAIAgentsToolOutput>({ ...common, parameters: projected.parameters as OpenSchema, strict: false });
}
