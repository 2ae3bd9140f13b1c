import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseManifest } from 'rcp-manifest';
import { resolverSeedManifest, seedManifest, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient } from './create-rcp-client';
import { describeManifest } from './describe-manifest';
import { serveManifest } from './internal/testing';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

describe('describeManifest', () => {
  it('prints the resolvers seed exactly as documented', async () => {
    const client = createRcpClient({ resolvers: { userId: (ctx) => ctx.currentUserId } });
    const { manifest, tools } = await client.discover(serveManifest(server, resolverSeedManifest));
    expect(describeManifest(manifest, tools)).toBe(
      [
        'RCP manifest v0.1 — auth: header "Authorization" (scheme: Bearer)',
        '1 tool(s):',
        "- get_profile (GET) — Get the current user's profile.",
        "    userId: string, required [resolved by client, hidden from model] — the user's id",
      ].join('\n'),
    );
  });

  it('prints the manifest seed (path params shown as required)', async () => {
    const client = createRcpClient();
    const { manifest, tools } = await client.discover(serveManifest(server, seedManifest));
    expect(describeManifest(manifest, tools)).toBe(
      [
        'RCP manifest v0.1 — auth: none',
        '2 tool(s):',
        "- get_learner_profile (GET) — Fetches a learner's plan and progress by id.",
        "    learnerId: string, required [warning: looks like an identity, but no resolver fills it — the model chooses it] — The learner's id",
        '- search_courses (GET) — Searches the course catalog by free-text query.',
        '    query: string, required — Free-text search term',
      ].join('\n'),
    );
    expect(server.count).toBe(1); // only the manifest: api.example.com is never contacted
    // Without the discovered tools (the manifest alone), nothing is known of resolvers: no marks.
    expect(describeManifest(manifest)).toContain("    learnerId: string, required — The learner's id");
  });

  it('says a param the manifest marks filledBy: "client" is the operator\'s to bind, without the identity warning (SPEC §20.2)', async () => {
    const filled = structuredClone(seedManifest) as unknown as { tools: { params?: { filledBy?: string }[] }[] };
    filled.tools[0]!.params![0]!.filledBy = 'client';
    const { manifest, tools } = await createRcpClient().discover(serveManifest(server, filled));
    const text = describeManifest(manifest, tools);
    expect(text).toContain(
      "    learnerId: string, required [the API expects the client to fill it: no resolver does yet, so the model chooses it] — The learner's id",
    );
    expect(text).not.toContain('warning');
    const bound = await createRcpClient({ resolvers: { learnerId: () => 'l-1' } }).discover(serveManifest(server, filled));
    expect(describeManifest(bound.manifest, bound.tools)).toContain('learnerId: string, required [resolved by client, hidden from model]');
  });

  it('marks only the params this client resolves', async () => {
    const client = createRcpClient({ resolvers: { learnerId: () => 'l-1' } });
    const { manifest, tools } = await client.discover(serveManifest(server, seedManifest));
    const text = describeManifest(manifest, tools);
    expect(text).toContain("    learnerId: string, required [resolved by client, hidden from model] — The learner's id");
    expect(text).toContain('    query: string, required — Free-text search term');
  });

  it('only marks params with the tools of the same discovery', async () => {
    const client = createRcpClient({ resolvers: { userId: () => 'u-1' } });
    const url = serveManifest(server, resolverSeedManifest);
    const first = await client.discover(url);
    const second = await client.discover(url);
    const copies = first.tools.map((tool) => ({ ...tool }));
    for (const tools of [second.tools, copies]) {
      expect(describeManifest(first.manifest, tools)).toContain("    userId: string, required — the user's id");
    }
  });

  it('without tools, shows every param as model-filled', () => {
    const manifest = parseManifest(resolverSeedManifest);
    expect(describeManifest(manifest)).toBe(
      [
        'RCP manifest v0.1 — auth: header "Authorization" (scheme: Bearer)',
        '1 tool(s):',
        "- get_profile (GET) — Get the current user's profile.",
        "    userId: string, required — the user's id",
      ].join('\n'),
    );
  });

  it("shows a tool's own auth, header auth without scheme, optional params and missing descriptions", () => {
    const manifest = parseManifest({
      rcpVersion: '0.1',
      auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
      tools: [
        {
          name: 'public_search',
          description: 'Public search.',
          method: 'GET',
          url: '/search',
          queryParams: { q: '{{q}}', limit: '{{limit}}' },
          params: [
            { name: 'q', description: 'Search text' },
            { name: 'limit', type: 'integer' },
          ],
          auth: { type: 'none' },
        },
        {
          name: 'upload',
          description: 'Uploads a note.',
          method: 'POST',
          url: '/notes',
          body: { text: '{{text}}', pinned: '{{pinned}}' },
          params: [
            { name: 'text', type: 'string', required: true, description: 'The note' },
            { name: 'pinned', type: 'boolean', description: '' },
          ],
          auth: { type: 'header', name: 'X-Api-Key' },
        },
      ],
    });
    expect(describeManifest(manifest)).toBe(
      [
        'RCP manifest v0.1 — auth: header "Authorization" (scheme: Bearer)',
        '2 tool(s):',
        '- public_search (GET, auth: none) — Public search.',
        '    q: string, optional — Search text',
        '    limit: integer, optional',
        '- upload (POST, auth: header "X-Api-Key") — Uploads a note.',
        '    text: string, required — The note',
        '    pinned: boolean, optional',
      ].join('\n'),
    );
  });

  it('cannot be made to print extra lines by a description with line breaks', () => {
    const manifest = parseManifest({
      rcpVersion: '0.1',
      tools: [
        {
          name: 'sneaky',
          description: 'Looks fine.\n- fake_tool (GET) — not real',
          method: 'GET',
          url: 'https://api.example.com/x/{{id}}',
          params: [{ name: 'id', description: 'id\r\n    other: string, optional' }],
        },
      ],
    });
    const lines = describeManifest(manifest).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[2]).toBe('- sneaky (GET) — Looks fine. - fake_tool (GET) — not real');
    expect(lines[3]).toBe('    id: string, required — id      other: string, optional');
  });

  it('shows the media types a tool answers with and how its next page is asked for (RCP 0.3)', () => {
    const manifest = parseManifest({
      rcpVersion: '0.3',
      tools: [
        { name: 'get_scan', description: 'Reads a scan.', method: 'GET', url: '/scan', responseMediaTypes: ['application/pdf', 'image/*'] },
        {
          name: 'list_charges',
          description: 'Lists charges.',
          method: 'GET',
          url: '/charges',
          params: [{ name: 'after' }],
          queryParams: { starting_after: '{{after}}' },
          pagination: { nextCursor: '@data[-1].id', param: 'after', hasMore: '@has_more' },
        },
      ],
    });
    expect(describeManifest(manifest).split('\n').slice(2)).toEqual([
      '- get_scan (GET) — Reads a scan.',
      '    [media: application/pdf, image/*]',
      '- list_charges (GET) — Lists charges.',
      '    [pages: the cursor at @data[-1].id goes in after; more while @has_more is true]',
      '    after: string, optional',
    ]);
  });
});
