import { describe, expect, it } from 'vitest';
import { createNetworkBoundary } from './network-boundary';

const boundaryFor = (manifestUrl: string) => createNetworkBoundary(new URL(manifestUrl), { allowPrivateNetwork: false, classifyAddress: undefined });

describe('the network boundary at connect time: what a host name resolved to', () => {
  // The transport's lookup hands each resolved address to `addressRefusal` (transport.node.ts):
  // the same classifier as the literal host, so a name resolving to 0.0.0.0 is no way around it.
  it.each(['0.0.0.0', '0.1.2.3', '::', '::ffff:0.0.0.0', '::ffff:0:0', '127.0.0.1', '::1'])(
    'a DNS answer of %s is loopback: refused for a private or public manifest',
    (address) => {
      for (const manifestUrl of ['http://10.0.0.5/rcp', 'https://api.example.com/rcp']) {
        expect(boundaryFor(manifestUrl).addressRefusal('rebind.example', address)).toMatch(/^rebind\.example \(connecting to .+\) is a loopback address/);
      }
      expect(boundaryFor('http://127.0.0.1:8080/rcp').addressRefusal('rebind.example', address)).toBeUndefined();
    },
  );

  it('a private answer is still private: allowed for a private manifest, refused for a public one', () => {
    expect(boundaryFor('http://10.0.0.5/rcp').addressRefusal('db.example', '10.0.0.6')).toBeUndefined();
    expect(boundaryFor('https://api.example.com/rcp').addressRefusal('db.example', '10.0.0.6')).toContain('is a private-network address');
  });
});
