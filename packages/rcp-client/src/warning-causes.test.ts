/**
 * Each discovery warning carries a stable `cause` (issue 41: the gateway's refusal of a credential no served tool may
 * receive reads the client's verdict per tool from it, not from the message's wording). One manifest, one warning of
 * each cause, from real discoveries on loopback; nothing is sent to a tool's origin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient } from './create-rcp-client';
import { serveManifest } from './internal/testing';

let home: TestServer;
let foreign: TestServer;
beforeAll(async () => {
  [home, foreign] = await Promise.all([startTestServer(), startTestServer()]);
});
afterAll(() => Promise.all([home.close(), foreign.close()]));

describe('discovery warnings: a stable cause for each', () => {
  it('manifest, untrusted-origin, unbound-identity, resolved-cursor and origin-policy, each on its tool', async () => {
    const manifestUrl = serveManifest(home, {
      rcpVersion: '0.3',
      auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
      tools: [
        { name: 'foreign_read', description: 'Reads elsewhere.', method: 'GET', url: `${foreign.origin}/data` },
        {
          name: 'user_notes',
          description: 'Lists notes.',
          method: 'GET',
          url: '/users/{{userId}}/notes',
          params: [{ name: 'userId', required: true }],
          auth: { type: 'none' },
          unknownField: true,
        },
      ],
    });
    // No resolvers: an unbound identity is a warning (with resolvers, an error).
    const { warnings } = await createRcpClient({ credentials: () => 'tok', onWarning: () => {} }).discover(manifestUrl);
    expect(warnings.map(({ cause, tool }) => `${cause} ${tool ?? '(the manifest)'}`).sort()).toEqual([
      'manifest (the manifest)',
      'unbound-identity user_notes',
      'untrusted-origin foreign_read',
    ]);

    const pages = serveManifest(
      home,
      {
        rcpVersion: '0.3',
        tools: [
          {
            name: 'pages',
            description: 'Lists pages.',
            method: 'GET',
            url: '/pages',
            params: [{ name: 'cursor' }],
            queryParams: { cursor: '{{cursor}}' },
            pagination: { param: 'cursor', nextCursor: '@meta.next' },
          },
        ],
      },
      '/pages/manifest',
    );
    const paged = await createRcpClient({ resolvers: { cursor: () => '0' }, onWarning: () => {} }).discover(pages);
    expect(paged.warnings.map(({ cause, tool }) => [cause, tool])).toEqual([['resolved-cursor', 'pages']]);

    const policed = createRcpClient({ allowOrigin: (url) => url.origin !== foreign.origin, onWarning: () => {} });
    const served = serveManifest(
      home,
      { rcpVersion: '0.1', tools: [{ name: 'elsewhere', description: 'Reads.', method: 'GET', url: `${foreign.origin}/x` }] },
      '/policy/manifest',
    );
    expect((await policed.discover(served)).warnings.map(({ cause, tool }) => [cause, tool])).toEqual([['origin-policy', 'elsewhere']]);
    expect(foreign.count).toBe(0);
  });

  it('address-refused: a tool on a local address listed by a manifest from a "public" host', async () => {
    const classifyAddress = (host: string) => (host === 'localhost' ? ('public' as const) : undefined);
    const manifestUrl = serveManifest(
      home,
      { rcpVersion: '0.1', tools: [{ name: 'admin', description: 'Reads.', method: 'GET', url: `${foreign.origin}/admin` }] },
      '/public/manifest',
    ).replace('127.0.0.1', 'localhost');
    const { warnings } = await createRcpClient({ classifyAddress, onWarning: () => {} }).discover(manifestUrl);
    expect(warnings.map(({ cause, tool }) => [cause, tool])).toEqual([['address-refused', 'admin']]);
    expect(foreign.count).toBe(0);
  });
});
