import { once } from 'node:events';
import { createServer } from 'node:http';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { createRcpClient } from 'rcp-client';
import { clientCredentials } from 'rcp-oauth';
import { startLocalAuthorizationServer } from 'rcp-oauth/testing';
import { bearerToken, createRcpServer } from 'rcp-server';
import { toNodeListener } from 'rcp-server/node';

// The API listens first: its origin is the audience of its tokens.
const http = createServer().listen(0, '127.0.0.1');
await once(http, 'listening');
const address = http.address();
const api = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;

// A development authorization server that knows the agent (client credentials) and the API.
const auth = await startLocalAuthorizationServer({
  resource: api,
  clients: [{ clientId: 'notes-agent', clientSecret: 'dev-secret', scope: 'notes:read' }],
});

// The API's side: verify checks the JWT (signature, issuer, audience, type) and gives the principal.
const keys = createRemoteJWKSet(new URL(auth.jwksUri));
const server = createRcpServer({
  auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
  verify: async (request) => {
    const token = bearerToken(request);
    if (token === undefined) return undefined; // a 401
    try {
      const { payload } = await jwtVerify(token, keys, { issuer: auth.issuer, audience: api, typ: 'at+jwt' });
      return { client: String(payload.client_id), scopes: String(payload.scope ?? '').split(' ') };
    } catch {
      return undefined;
    }
  },
  tools: (tool) => [
    tool({
      name: 'list_notes',
      description: 'Lists the notes.',
      method: 'GET',
      path: '/notes',
      handler: ({ principal }) =>
        principal.scopes.includes('notes:read') ? { notes: [{ id: 'n-1' }], client: principal.client } : new Response(null, { status: 403 }),
    }),
  ],
});
http.on('request', toNodeListener(server));

// The agent's side: rcp-oauth asks the authorization server, rcp-client sends the token.
const client = createRcpClient(
  clientCredentials({ tokenEndpoint: auth.tokenEndpoint, clientId: 'notes-agent', clientSecret: 'dev-secret', scope: 'notes:read', resource: api }),
);
const outcome = await client.call(await client.discover(`${api}/rcp/manifest`), { name: 'list_notes', arguments: {} });
console.log(JSON.stringify(outcome.ok ? outcome.result.data : outcome.error.message));
console.log((await fetch(`${api}/notes`)).status); // no token: 401, the handler never runs

await auth.close();
http.closeAllConnections();
http.close();
