import OpenAI from 'openai';
import { createRcpClient } from 'rcp-client';
import { createOpenAITools } from 'rcp-openai';

const client = createRcpClient({
  resolvers: { userId: (ctx: { userId: string }) => ctx.userId }, // the signed-in user: never the model's choice
  credentials: () => process.env.NOTES_TOKEN,
});
const rcp = createOpenAITools(client, await client.discover(process.env.NOTES_MANIFEST_URL!));
const openai = new OpenAI(); // OPENAI_API_KEY, OPENAI_BASE_URL
const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is on my groceries note?' }];
for (let step = 0; step < 8; step++) {
  const completion = await openai.chat.completions.create({ model: 'gpt-5.6-terra', messages, tools: rcp.chatTools });
  const { message } = completion.choices[0]!;
  messages.push(message);
  if (!message.tool_calls?.length) break;
  messages.push(...(await rcp.runToolCalls(message.tool_calls, { userId: 'u-1' })));
}
console.log(messages.at(-1)?.content);
