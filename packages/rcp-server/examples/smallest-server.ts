import { createServer } from 'node:http';
import { bearerAuth, createRcpServer } from 'rcp-server';
import { toNodeListener } from 'rcp-server/node';

const notes = new Map([['u-1', [{ id: 'n-1', title: 'Groceries' }]]]);

const server = createRcpServer({
  auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
  verify: bearerAuth([{ token: process.env.API_TOKEN ?? 'dev-token', principal: { userId: 'u-1' } }]),
  // `tool` is defineTool typed with verify's principal: `principal.userId` below is a string, and
  // `values` is typed from the params ({ userId: string; word?: string }).
  tools: (tool) => [
    tool({
      name: 'list_notes',
      description: "Lists the caller's notes, optionally filtered by a word in the title.",
      method: 'GET',
      path: '/users/{{userId}}/notes',
      params: [
        { name: 'userId', description: 'The user', bound: (principal) => principal.userId },
        { name: 'word', description: 'A word the title contains', maxLength: 40 },
      ],
      queryParams: { word: '{{word}}' },
      handler: ({ values }) => ({
        notes: (notes.get(values.userId) ?? []).filter((note) => !values.word || note.title.includes(values.word)),
      }),
    }),
  ],
});

const http = createServer(toNodeListener(server));
http.listen(Number(process.env.PORT ?? 8080), '127.0.0.1', () => {
  const address = http.address();
  const port = typeof address === 'object' && address !== null ? address.port : address;
  console.log(`RCP manifest: http://127.0.0.1:${port}${server.manifestPath}`);
});
