import OpenAI from 'openai';
import { createRcpClient } from 'rcp-client';
import { createOpenAITools } from 'rcp-openai';

const client = createRcpClient({
  resolvers: { userId: (ctx: { userId: string }) => ctx.userId },
  credentials: () => process.env.NOTES_TOKEN,
});
const rcp = createOpenAITools(client, await client.discover(process.env.NOTES_MANIFEST_URL!));
const openai = new OpenAI();
let response = await openai.responses.create({ model: 'gpt-5.6-terra', input: 'What is on my groceries note?', tools: rcp.responsesTools });
for (let step = 0; step < 8; step++) {
  const outputs = await rcp.runFunctionCalls(response.output, { userId: 'u-1' });
  if (outputs.length === 0) break;
  response = await openai.responses.create({
    model: 'gpt-5.6-terra',
    previous_response_id: response.id,
    input: outputs,
    tools: rcp.responsesTools,
  });
}
console.log(response.output_text);
