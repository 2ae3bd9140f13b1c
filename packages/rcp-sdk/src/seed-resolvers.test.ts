import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRcpClient, describeManifest } from 'rcp-sdk/client';
import { resolverSeedManifest, sendJson, startTestServer, type TestServer } from 'rcp-test-utils';

let server: TestServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
});

/** The `describeManifest()` output in shared/seeds/rcp-resolvers.txt, line breaks restored. */
const SEED_OUTPUT = [
  'RCP manifest v0.1 — auth: header "Authorization" (scheme: Bearer)',
  '1 tool(s):',
  "- get_profile (GET) — Get the current user's profile.",
  "    userId: string, required [resolved by client, hidden from model] — the user's id",
].join('\n');

describe('the resolvers seed snippet, importing from rcp-sdk/client', () => {
  it('runs as written (URL pointed at a local server) and prints the seed text', async () => {
    server = await startTestServer({ 'GET /rcp/manifest': (_request, res) => sendJson(res, 200, resolverSeedManifest) });
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);

    // --- the seed snippet, as written, with only the URL changed ---
    const client = createRcpClient({ resolvers: { userId: (ctx) => ctx.currentUserId } });
    const { manifest, tools } = await client.discover(server.url('/rcp/manifest'));
    console.log(describeManifest(manifest, tools));
    // ---

    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0]![0]).toBe(SEED_OUTPUT);
    expect(server.count).toBe(1);
  });
});
