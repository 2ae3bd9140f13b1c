import { fileURLToPath } from 'node:url';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPAWN_TIMEOUT } from 'rcp-test-utils';
import { CLIENT_SECRETS, startAuthorizationServer, startToolApi, type AuthorizationServer, type ToolApi } from 'rcp-test-utils/oauth';

/**
 * Issue 22, item 6: the gateway takes OAuth 2 client-credentials settings from the environment
 * (`--oauth-env PREFIX`, never argv): a host starts the built bin over stdio, with a real MCP
 * client and a real authorization server (oidc-provider) on loopback.
 */
const bin = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

let as: AuthorizationServer;
let api: ToolApi;
beforeAll(async () => {
  as = await startAuthorizationServer();
  api = await startToolApi(as);
}, SPAWN_TIMEOUT);
afterAll(async () => {
  await api?.server.close();
  await as?.close();
});

describe('rcp-mcp --oauth-env', { timeout: SPAWN_TIMEOUT }, () => {
  it('serves the tools with tokens fetched, cached and sent by rcp-oauth', async () => {
    const client = new ClientV1({ name: 'host', version: '1.0.0' });
    const env = {
      ...(process.env as Record<string, string>),
      GW_OAUTH_TOKEN_ENDPOINT: as.tokenEndpoint,
      GW_OAUTH_CLIENT_ID: 'basic-client',
      GW_OAUTH_CLIENT_SECRET: CLIENT_SECRETS.basic,
    };
    await client.connect(new StdioTransportV1({ command: process.execPath, args: [bin, api.manifestUrl, '--oauth-env', 'GW_OAUTH'], env, stderr: 'pipe' }));
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
      await client.close();
    }
  });
});
