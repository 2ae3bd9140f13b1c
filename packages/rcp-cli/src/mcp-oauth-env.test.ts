import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_SECRETS, startAuthorizationServer, startToolApi, type AuthorizationServer, type ToolApi } from 'rcp-test-utils/oauth';
import { startRcpMcp } from './fixtures/run-rcp';

/**
 * Issue 22, item 6: the gateway takes OAuth 2 client-credentials settings from the environment
 * (`--oauth-env PREFIX`, never argv): the built command line in this process, a real MCP client
 * on its stdio streams and a real authorization server (oidc-provider) on loopback.
 */

let as: AuthorizationServer;
let api: ToolApi;
beforeAll(async () => {
  as = await startAuthorizationServer();
  api = await startToolApi(as);
});
afterAll(async () => {
  await api?.server.close();
  await as?.close();
});

describe('rcp-mcp --oauth-env', () => {
  it('serves the tools with tokens fetched, cached and sent by rcp-oauth', async () => {
    const env = {
      GW_OAUTH_TOKEN_ENDPOINT: as.tokenEndpoint,
      GW_OAUTH_CLIENT_ID: 'basic-client',
      GW_OAUTH_CLIENT_SECRET: CLIENT_SECRETS.basic,
    };
    const gateway = await startRcpMcp([api.manifestUrl, '--oauth-env', 'GW_OAUTH'], { env });
    const client = gateway.client;
    try {
      const before = as.tokenRequests.length;
      for (let call = 0; call < 2; call++) {
        const result = (await client.callTool({ name: 'list_notes', arguments: {} })) as { isError?: boolean; structuredContent?: unknown };
        expect(result.isError).not.toBe(true);
        expect(result.structuredContent).toMatchObject({ client: 'basic-client' });
      }
      expect(as.tokenRequests.length - before).toBe(1); // one token for both calls
      expect(api.tokens.slice(-2)).toEqual([api.tokens.at(-1), api.tokens.at(-1)]);
    } finally {
      await gateway.stop();
    }
  });
});
