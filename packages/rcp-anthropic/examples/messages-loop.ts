import Anthropic from '@anthropic-ai/sdk';
import { createRcpClient } from 'rcp-client';
import { createAnthropicTools } from 'rcp-anthropic';

const client = createRcpClient({
  resolvers: { userId: (ctx: { userId: string }) => ctx.userId }, // the signed-in user: never the model's choice
  credentials: () => process.env.NOTES_TOKEN,
});
const rcp = createAnthropicTools(client, await client.discover(process.env.NOTES_MANIFEST_URL!));
const anthropic = new Anthropic(); // ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL
const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'What is on my groceries note?' }];
for (let step = 0; step < 8; step++) {
  const message = await anthropic.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 1024, messages, tools: rcp.tools });
  messages.push({ role: 'assistant', content: message.content });
  if (message.stop_reason !== 'tool_use') {
    console.log(message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''));
    break;
  }
  messages.push({ role: 'user', content: await rcp.runToolUses(message.content, { userId: 'u-1' }) });
}
