import { startLocalAuthorizationServer } from 'rcp-oauth/testing';

const auth = await startLocalAuthorizationServer({
  resource: 'http://127.0.0.1:8080', // the API: every token's aud
  clients: [{ clientId: 'notes-agent', clientSecret: 'dev-secret', scope: 'notes:read notes:write' }],
  accessTokenSeconds: 600, // the default
});
console.log(auth.issuer === new URL(auth.tokenEndpoint).origin, auth.jwksUri === `${auth.issuer}/jwks`); // true true
await auth.close();
