import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createRcpClient } from 'rcp-client';
import { createAISDKTools } from 'rcp-ai-sdk';

const client = createRcpClient({
  resolvers: { userId: (ctx: { userId: string }) => ctx.userId }, // the signed-in user: never the model's choice
  credentials: () => process.env.NOTES_TOKEN,
});
const rcp = createAISDKTools(client, await client.discover(process.env.NOTES_MANIFEST_URL!));
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const toolCall = (toolCallId: string, toolName: string, input: string) => ({
  content: [{ type: 'tool-call' as const, toolCallId, toolName, input }],
  finishReason: { unified: 'tool-calls' as const, raw: undefined },
  usage,
  warnings: [],
});
const answer = (text: string) => ({
  content: [{ type: 'text' as const, text }],
  finishReason: { unified: 'stop' as const, raw: undefined },
  usage,
  warnings: [],
});
const model = new MockLanguageModelV3({
  doGenerate: [toolCall('c1', 'list_notes', '{}'), toolCall('c2', 'get_note', '{"noteId":"n-1"}'), answer('Your groceries note says: eggs.')],
});
const { text } = await generateText({
  model,
  tools: rcp.tools,
  stopWhen: stepCountIs(8),
  prompt: 'What is on my groceries note?',
  experimental_context: { userId: 'u-1' }, // the turn's ctx
});
console.log(text);
