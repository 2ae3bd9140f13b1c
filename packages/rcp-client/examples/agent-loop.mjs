// An agent loop over a small notes API, with nothing but call() and toModelResult().
// A local server plays the notes API; a scripted "model" plays the LLM.
import { createServer } from 'node:http';
import { createRcpClient, toModelResult } from 'rcp-client';

const manifest = {
  rcpVersion: '0.1',
  auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
  tools: [
    { name: 'list_notes', description: 'Lists my notes.', method: 'GET', url: '/users/{{userId}}/notes',
      params: [{ name: 'userId', required: true }] },
    { name: 'get_note', description: 'Gets one note.', method: 'GET', url: '/users/{{userId}}/notes/{{noteId}}',
      params: [{ name: 'userId', required: true }, { name: 'noteId', required: true }] },
  ],
};
const server = createServer((req, res) => {
  const body = req.url === '/rcp/manifest' ? manifest
    : req.url === '/users/u-1/notes' ? [{ id: 'n-1', title: 'Groceries' }]
    : { id: 'n-1', title: 'Groceries', text: 'eggs, milk' };
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

// The loop itself:
const client = createRcpClient({
  resolvers: { userId: (ctx) => ctx.userId }, // the verified user, never the model
  credentials: () => 'notes-token',
});
const discovery = await client.discover(`${origin}/rcp/manifest`);
const tools = discovery.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
const modelCalls = [
  { name: 'list_note', arguments: '{}' }, // a typo: the error lists the real names
  { name: 'list_notes', arguments: '{}' },
  { name: 'get_note', arguments: '{"noteId":"n-1","userId":"u-7"}' }, // a spoof: refused, nothing sent
  { name: 'get_note', arguments: '{"noteId":"n-1"}' },
];
console.log(tools.map((tool) => tool.name).join(', '), JSON.stringify(tools[1].inputSchema.required));
for (const toolCall of modelCalls) {
  const outcome = await client.call(discovery, toolCall, { userId: 'u-1' });
  console.log(toolCall.name, JSON.stringify(toModelResult(outcome)));
}
server.close();
