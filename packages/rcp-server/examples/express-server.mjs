import express from 'express';
import { bearerAuth, createRcpServer } from 'rcp-server';
import { rcpExpress } from 'rcp-server/express';

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

const app = express();
app.use(rcpExpress(server)); // before express.json(): it reads the body itself
app.get('/health', (_request, response) => response.json({ ok: true })); // your other routes, as usual
const http = app.listen(Number(process.env.PORT ?? 8080), '127.0.0.1', () => {
  console.log(`RCP manifest: http://127.0.0.1:${http.address().port}${server.manifestPath}`);
});
