import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { createRcpClient } from 'rcp-client';
import { createLangChainTools } from 'rcp-langchain';

const client = createRcpClient({
  resolvers: { userId: (ctx: { userId: string }) => ctx.userId }, // the signed-in user: never the model's choice
  credentials: () => process.env.NOTES_TOKEN,
});
const tools = createLangChainTools(client, await client.discover(process.env.NOTES_MANIFEST_URL!));
const replies: AIMessage[] = [ // what the chat model answers, turn by turn
  new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'list_notes', args: {} }] }),
  new AIMessage({ content: '', tool_calls: [{ id: 'c2', name: 'get_note', args: { noteId: 'n-1' } }] }),
  new AIMessage('Your groceries note says: eggs.'),
];
const messages: BaseMessage[] = [new HumanMessage('What is on my groceries note?')];
for (const reply of replies) { // with a real model: reply = await chatModel.bindTools(tools).invoke(messages)
  messages.push(reply);
  if (!reply.tool_calls?.length) break;
  for (const call of reply.tool_calls) {
    const rcpTool = tools.find((candidate) => candidate.name === call.name);
    messages.push(rcpTool
      ? await rcpTool.invoke({ ...call, type: 'tool_call' }, { configurable: { userId: 'u-1' } })
      : new ToolMessage({ content: `No tool named ${call.name}`, tool_call_id: call.id ?? '', status: 'error' }));
  }
}
console.log(messages.at(-1)?.content);
