import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { bearerAuth, createRcpServer } from 'rcp-server';
import { rcpHono } from 'rcp-server/hono';

const server = createRcpServer({
  auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
  verify: bearerAuth([{ token: process.env.API_TOKEN ?? 'dev-token', principal: { userId: 'u-1' } }]),
  tools: (tool) => [
    tool({
      name: 'get_user',
      description: "Fetches the caller's account.",
      method: 'GET',
      path: '/users/{{userId}}',
      params: [{ name: 'userId', bound: (principal) => principal.userId }],
      handler: ({ values }) => ({ id: values.userId, plan: 'pro' }),
    }),
  ],
});

const app = new Hono();
app.use(rcpHono(server));
app.get('/health', (context) => context.json({ ok: true }));
// On Workers, Bun or Deno: `export default app` instead of serve().
serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 8080), hostname: '127.0.0.1' }, (info) => {
  console.log(`RCP manifest: http://127.0.0.1:${info.port}${server.manifestPath}`);
});
