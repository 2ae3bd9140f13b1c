// The snippet from the resolvers seed (shared/seeds/rcp-resolvers.txt), run as written against
// the built package, imported by its name. Only the manifest URL points at a local server.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { resolverSeedManifest, sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient, describeManifest } from 'rcp-client';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ 'GET /rcp/manifest': (_request, res) => sendJson(res, 200, resolverSeedManifest) });
});
afterAll(async () => {
  await server.close();
});

it('runs the describeManifest() snippet from the resolvers seed as written', async () => {
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    const client = createRcpClient({ resolvers: { userId: (ctx) => ctx.currentUserId } });
    const { manifest, tools } = await client.discover(server.url('/rcp/manifest'));
    console.log(describeManifest(manifest, tools));

    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0]?.[0]).toBe(
      'RCP manifest v0.1 — auth: header "Authorization" (scheme: Bearer)\n' +
        '1 tool(s):\n' +
        "- get_profile (GET) — Get the current user's profile.\n" +
        "    userId: string, required [resolved by client, hidden from model] — the user's id",
    );
  } finally {
    log.mockRestore();
  }
});
