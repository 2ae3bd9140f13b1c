/**
 * Issue 25: the same out-of-stage call gives the same code and the same model text on every stack.
 *
 * One loopback notes API, one rcp-client discovery, one stage `browse` that holds only
 * `list_notes`. On each stack the model (a loopback fake of that stack's model API, driven by the
 * real SDK) calls `delete_note` — a tool of the whole set, outside the stage, with valid
 * arguments. Each row checks the code the stack surfaces, the text the model receives (read from
 * that stack's own tool-result shape, and where the SDK sends it back, from what the fake model
 * received), and that the notes API received no tool request.
 *
 * A stack with no notion of a stage is given the stage subset (`whole.select(['list_notes'],
 * { stage: 'browse' })`) as its tool set: that is what a stage is for it. LangChain is given the whole
 * set with the stage (every tool bound, each call through the stage). The stack that cannot
 * express the call (the MCP gateway) is described in its own block at the end, with exactly why,
 * and what it does instead.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, type Content } from '@google/genai';
import { Client as McpClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { generateText, stepCountIs, type ToolResultPart } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, OpenAIProvider, Runner } from '@openai/agents';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpRegistry } from 'rcp-agent-core-bridge';
import { createAISDKTools, type AISDKTurn } from 'rcp-ai-sdk';
import { createAnthropicTools } from 'rcp-anthropic';
import {
  RcpToolNotInStageError,
  createRcpClient,
  createToolSet,
  toModelResult,
  type ModelResult,
  type RcpClient,
  type RcpDiscovery,
  type RcpToolSet,
} from 'rcp-client';
import { createGeminiTools } from 'rcp-gemini';
import { createLangChainTools } from 'rcp-langchain';
import { AIMessage, type ToolMessage } from '@langchain/core/messages';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { createRcpMcpHttpHandler } from 'rcp-mcp';
import { createOpenAITools } from 'rcp-openai';
import { createOpenAIAgentsTools, type OpenAIAgentsTurn } from 'rcp-openai-agents';
import { type ModelFake, startModelFake } from 'rcp-model-fake';
import { NOTES_TOKEN, sendJson, startNotesApi, startTestServer, toolRequestLines, type TestServer } from 'rcp-test-utils';

type Ctx = { userId?: string };
const ctx: Ctx = { userId: 'u-1' };

/** What the model emits on every stack: a whole-set tool the stage left out, with valid arguments. */
const CALL = { name: 'delete_note', arguments: { noteId: 'n-1' } } as const;
const CODE = 'RCP_TOOL_NOT_IN_STAGE';
/** The one sentence every stack must give the model. */
const SENTENCE = 'Tool "delete_note" is not available in stage "browse".';

let notes: TestServer;
let fake: TestServer;
let client: RcpClient<Ctx>;
let discovery: RcpDiscovery;
let whole: RcpToolSet;
let browse: RcpToolSet;
const closers: (() => Promise<unknown>)[] = [];

beforeEach(async () => {
  let manifestUrl: string;
  ({ server: notes, manifestUrl } = await startNotesApi());
  fake = await startTestServer();
  model = await startModelFake();
  client = createRcpClient({ resolvers: { userId: (context: Ctx) => context.userId }, credentials: () => NOTES_TOKEN });
  discovery = await client.discover(manifestUrl);
  whole = createToolSet(discovery);
  browse = whole.select(['list_notes'], { stage: 'browse' });
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await Promise.all([notes.close(), fake.close(), model.close()]);
});

/** Scripts the fake model API's answers at `route`, one per request, in order. */
function script(route: string, answers: unknown[]): void {
  let index = 0;
  fake.route(route, (_request, res) => sendJson(res, 200, answers[Math.min(index++, answers.length - 1)]));
}

/** The body of the fake model API's `index`-th request (Gemini's, served by `fake`). */
const sentTo = <T>(index: number): T => fake.requests[index]!.json as T;
/** The OpenAI and Anthropic APIs' fake (rcp-model-fake) and the `index`-th request it received. */
let model: ModelFake;
const modelSent = (index: number) => model.requests[index]!;

/** The code and the model text of a `toModelResult` object, or of its JSON text (what most stacks send). */
function outcomeOf(result: unknown): { code: unknown; text: unknown } {
  const parsed: unknown = typeof result === 'string' ? JSON.parse(result) : result;
  const error = (parsed as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return { code: error?.code, text: error?.message };
}

interface Row {
  readonly stack: string;
  /**
   * Runs the model's `delete_note` call on this stack. Returns the code the stack surfaced and
   * the text the model received, each read from the stack's own shapes.
   */
  run(): Promise<{ surfaced: { code: unknown; text: unknown }; received: { code: unknown; text: unknown } }>;
}

const rows: Row[] = [
  {
    // The bridge has stages of its own: the registry's `browse` transport is what the model talks to
    // (@jangts/agent-core is not published, so there is no model SDK: the host sends the
    // `toModelResult` JSON back as the tool result).
    stack: 'agent-core bridge (registry transport with a stage)',
    async run() {
      const { transports } = createRcpRegistry({ client, discoveries: [discovery], stages: { browse: ['list_notes'] } });
      expect(transports.browse.catalog().map((tool) => tool.name)).toEqual(['list_notes']);
      let result: ModelResult;
      try {
        const plan = transports.browse.select({ name: CALL.name, arguments: JSON.stringify(CALL.arguments) });
        result = await plan.execute(ctx).then(toModelResult, (error: unknown) => toModelResult(error, plan));
      } catch (error) {
        expect(error).toBeInstanceOf(RcpToolNotInStageError);
        result = toModelResult(error);
      }
      return { surfaced: outcomeOf(result), received: outcomeOf(JSON.stringify(result)) };
    },
  },
  {
    // AI SDK 6: the whole set as `tools`, the stage from `experimental_context` (the adapter's `stages`
    // and `turn`). Passing `activeTools` as well hides the call from the adapter: see the last block.
    stack: 'AI SDK 6 (generateText, MockLanguageModelV3, stages + turn)',
    async run() {
      const rcp = createAISDKTools(client, whole, {
        stages: { browse: ['list_notes'] },
        turn: (context) => context as AISDKTurn<Ctx>,
      });
      const model = new MockLanguageModelV3({
        doGenerate: [aiToolCall(CALL.name, CALL.arguments), aiText('I could not delete it.')],
      });
      const result = await generateText({
        model,
        tools: rcp.tools,
        prompt: 'delete my groceries note',
        stopWhen: stepCountIs(2),
        experimental_context: { ctx, stage: 'browse' },
      });
      const [toolResult] = result.steps[0]!.toolResults;
      const surfaced = outcomeOf(toolResult!.output);
      // What the model received: the tool message of the second doGenerate call.
      const toolMessage = model.doGenerateCalls[1]!.prompt.find((message) => message.role === 'tool')!;
      const output = (toolMessage.content[0] as ToolResultPart).output;
      // A tool's object result reaches the model as a `json` output (an error as `error-text`).
      return { surfaced, received: outcomeOf(output.type === 'json' || output.type === 'text' || output.type === 'error-text' ? output.value : output) };
    },
  },
  {
    stack: 'OpenAI Chat Completions (openai SDK, stage subset as the tool set)',
    async run() {
      model.script({ toolCalls: [{ id: 'call_1', ...CALL }] }, { text: 'I could not delete it.' });
      const rcp = createOpenAITools(client, browse);
      const openai = new OpenAI({ apiKey: 'sk-test', baseURL: model.baseURL, maxRetries: 0 });
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'delete my groceries note' }];
      const first = await openai.chat.completions.create({ model: 'gpt-test', messages, tools: rcp.chatTools });
      expect(modelSent(0).toolNames).toEqual(['list_notes']);
      const answers = await rcp.runToolCalls(first.choices[0]!.message.tool_calls, ctx);
      messages.push(first.choices[0]!.message, ...answers);
      await openai.chat.completions.create({ model: 'gpt-test', messages, tools: rcp.chatTools });
      const sentBack = modelSent(1).toolResults.at(-1)!;
      expect(sentBack.callId).toBe('call_1');
      return { surfaced: outcomeOf(answers[0]!.content), received: outcomeOf(sentBack.text) };
    },
  },
  {
    stack: 'OpenAI Responses (openai SDK, stage subset as the tool set)',
    async run() {
      model.script({ toolCalls: [{ id: 'call_1', ...CALL }] });
      const rcp = createOpenAITools(client, browse);
      const openai = new OpenAI({ apiKey: 'sk-test', baseURL: model.baseURL, maxRetries: 0 });
      const response = await openai.responses.create({ model: 'gpt-test', input: 'delete my groceries note', tools: rcp.responsesTools });
      expect(modelSent(0).toolNames).toEqual(['list_notes']);
      const [output] = await rcp.runFunctionCalls(response.output, ctx);
      // The function_call_output item is what goes back to the model as is.
      return { surfaced: outcomeOf(output!.output), received: outcomeOf(output!.output) };
    },
  },
  {
    // OpenAI Agents JS: the whole set as the agent's tools, the stage from the run's context (the
    // adapter's `stages` and `turn`), the real Runner on the Responses API (its default). Giving the
    // agent `rcp.stageTools('browse')` instead hides the call from RCP: the SDK itself refuses a
    // tool the agent lacks (ModelBehaviorError), as the AI SDK does with activeTools.
    stack: 'OpenAI Agents JS (@openai/agents Runner, stages + turn)',
    async run() {
      model.script({ toolCalls: [{ id: 'call_1', ...CALL }] }, { text: 'I could not delete it.' });
      const rcp = createOpenAIAgentsTools(client, whole, { stages: { browse: ['list_notes'] }, turn: (context) => context as OpenAIAgentsTurn<Ctx> });
      const agent = new Agent({ name: 'Notes', model: 'gpt-test', tools: rcp.tools });
      const runner = new Runner({
        modelProvider: new OpenAIProvider({ openAIClient: new OpenAI({ apiKey: 'sk-test', baseURL: model.baseURL, maxRetries: 0 }) }),
        tracingDisabled: true,
      });
      const result = await runner.run(agent, 'delete my groceries note', { context: { ctx, stage: 'browse' } });
      const output = result.newItems.find((item) => item.type === 'tool_call_output_item')!.output;
      return { surfaced: outcomeOf(output), received: outcomeOf(modelSent(1).toolResults[0]!.text) };
    },
  },
  {
    stack: 'Anthropic Messages (@anthropic-ai/sdk, stage subset as the tool set)',
    async run() {
      model.script({ toolCalls: [{ id: 'toolu_1', ...CALL }] }, { text: 'I could not delete it.' });
      const rcp = createAnthropicTools(client, browse);
      const anthropic = new Anthropic({ apiKey: 'sk-ant-test', baseURL: model.origin, maxRetries: 0 });
      const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'delete my groceries note' }];
      const first = await anthropic.messages.create({ model: 'claude-test', max_tokens: 100, messages, tools: rcp.tools });
      expect(modelSent(0).toolNames).toEqual(['list_notes']);
      const results = await rcp.runToolUses(first.content, ctx);
      expect(results[0]!.is_error).toBe(true);
      messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: results });
      await anthropic.messages.create({ model: 'claude-test', max_tokens: 100, messages, tools: rcp.tools });
      const sentBack = modelSent(1).toolResults[0]!;
      expect([sentBack.callId, sentBack.isError]).toEqual(['toolu_1', true]);
      return { surfaced: outcomeOf(results[0]!.content), received: outcomeOf(sentBack.text) };
    },
  },
  {
    // The real @google/genai client (the Gemini API, not Vertex AI) at the fake's origin, as rcp-gemini's own tests.
    stack: 'Gemini (@google/genai generateContent, stage subset as the tool set)',
    async run() {
      const endpoint = 'POST /v1beta/models/gemini-2.5-flash:generateContent';
      script(endpoint, [
        { candidates: [{ content: { role: 'model', parts: [{ functionCall: { id: 'c1', name: CALL.name, args: CALL.arguments } }] } }] },
        { candidates: [{ content: { role: 'model', parts: [{ text: 'I could not delete it.' }] } }] },
      ]);
      const rcp = createGeminiTools(client, browse);
      const ai = new GoogleGenAI({ apiKey: 'k', vertexai: false, httpOptions: { baseUrl: fake.origin } });
      const contents: Content[] = [{ role: 'user', parts: [{ text: 'delete my groceries note' }] }];
      const config = { tools: [{ functionDeclarations: rcp.functionDeclarations }] };
      const response = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents, config });
      expect(sentTo<{ tools: { functionDeclarations: { name: string }[] }[] }>(0).tools[0]!.functionDeclarations.map((d) => d.name)).toEqual(['list_notes']);
      const parts = await rcp.runFunctionCalls(response.functionCalls, ctx);
      contents.push(response.candidates![0]!.content!, { role: 'user', parts });
      await ai.models.generateContent({ model: 'gemini-2.5-flash', contents, config });
      // The SDK sent only these two requests, to the fake, with the key in its header.
      expect(fake.requests.map((request) => `${request.method} ${request.url}`)).toEqual([endpoint, endpoint]);
      expect(fake.requests.map((request) => request.headers['x-goog-api-key'])).toEqual(['k', 'k']);
      const sentBack = sentTo<{ contents: { parts: { functionResponse: { name: string; response: ModelResult } }[] }[] }>(1).contents.at(-1)!.parts[0]!
        .functionResponse;
      expect(sentBack.name).toBe(CALL.name);
      return { surfaced: outcomeOf(parts[0]!.functionResponse.response), received: outcomeOf(sentBack.response) };
    },
  },
  {
    // The whole set with the stage: every tool is bound, and each call goes through the stage
    // (`createLangChainTools(client, whole, { stage })`); LangGraph's ToolNode dispatches the call.
    stack: 'LangChain (ToolNode, whole set with a stage)',
    async run() {
      const tools = createLangChainTools(client, whole, { stage: browse });
      const call = new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: CALL.name, args: CALL.arguments }] });
      const { messages } = (await new ToolNode(tools).invoke({ messages: [call] }, { configurable: ctx })) as { messages: ToolMessage[] };
      expect(messages[0]!.status).toBe('error');
      return { surfaced: outcomeOf(messages[0]!.content), received: outcomeOf(messages[0]!.content) };
    },
  },
];

describe('an out-of-stage call: one code, one sentence for the model, nothing sent', () => {
  it.each(rows)('$stack', async ({ run }) => {
    const { surfaced, received } = await run();
    expect(surfaced).toEqual({ code: CODE, text: SENTENCE });
    expect(received).toEqual({ code: CODE, text: SENTENCE });
    expect(toolRequestLines(notes)).toEqual([]);
  });

  it("the sentence is the core's own (RcpToolNotInStageError), not a copy", () => {
    expect(new RcpToolNotInStageError('delete_note', 'browse')).toMatchObject({ code: CODE, message: SENTENCE });
  });
});

/*
 * Stacks where a model's call to a tool outside the stage never reaches RCP. Each test pins what
 * that stack does instead (nothing is sent on any of them), so a change shows up here.
 */
describe('stacks that cannot express an out-of-stage call through RCP (why, and what they do)', () => {
  it('MCP gateway: the MCP SDK answers tools/call for an unlisted name itself (JSON-RPC -32602)', async () => {
    // The gateway registers the stage's tools on an McpServer; McpServer's own tools/call handler
    // looks the name up in what was registered and throws ProtocolError(InvalidParams,
    // `Tool delete_note not found`) before any gateway code runs. A host normally refuses to call an
    // unlisted tool before that. Routing the name through `client.call` would mean replacing the
    // SDK's tools/call handler (or listing disabled tools, which the SDK answers `Tool ... disabled`).
    const handler = createRcpMcpHttpHandler({ client, source: browse, authenticate: () => ctx });
    const gateway: Server = createServer((request, response) => void handler(request, response));
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => gateway.close(resolve)));
    const mcp = new McpClient({ name: 'host', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}/mcp`)));
    closers.unshift(() => mcp.close());
    expect((await mcp.listTools()).tools.map((tool) => tool.name)).toEqual(['list_notes']);
    const outcome = await mcp.callTool({ name: CALL.name, arguments: CALL.arguments }).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    expect(outcome).toMatchObject({ error: { code: -32602, message: expect.stringContaining('Tool delete_note not found') } });
    expect(toolRequestLines(notes)).toEqual([]);
  });

  it('AI SDK with activeTools: the SDK refuses a call outside activeTools before execute (NoSuchToolError)', async () => {
    // `activeTools: rcp.activeTools('browse')` limits what generateText parses a call against, so
    // the AI SDK answers delete_note with its own NoSuchToolError prose and the adapter's execute
    // (where the stage is checked through client.call) never runs. The adapter cannot intercept
    // that; the row above uses the stage from experimental_context alone.
    const rcp = createAISDKTools(client, whole, { stages: { browse: ['list_notes'] }, turn: (context) => context as AISDKTurn<Ctx> });
    const model = new MockLanguageModelV3({ doGenerate: [aiToolCall(CALL.name, CALL.arguments), aiText('ok')] });
    await generateText({
      model,
      tools: rcp.tools,
      activeTools: rcp.activeTools('browse'),
      prompt: 'delete my groceries note',
      stopWhen: stepCountIs(2),
      experimental_context: { ctx, stage: 'browse' },
    });
    const toolMessage = model.doGenerateCalls[1]!.prompt.find((message) => message.role === 'tool')!;
    const output = (toolMessage.content[0] as ToolResultPart).output;
    expect(output).toMatchObject({ type: 'error-text', value: expect.stringContaining("unavailable tool 'delete_note'") });
    expect(toolRequestLines(notes)).toEqual([]);
  });
});

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
function aiToolCall(toolName: string, input: unknown) {
  return {
    content: [{ type: 'tool-call' as const, toolCallId: 'c1', toolName, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls' as const, raw: undefined },
    usage,
    warnings: [],
  };
}
function aiText(text: string) {
  return { content: [{ type: 'text' as const, text }], finishReason: { unified: 'stop' as const, raw: undefined }, usage, warnings: [] };
}
