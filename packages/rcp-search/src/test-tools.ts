import { createRcpClient, type RcpClientOptions, type RcpDiscovery } from 'rcp-client';
import type { RcpManifest } from 'rcp-manifest';
import { serveManifest, type TestServer } from 'rcp-test-utils';

/** Serves `manifest` on the test server and discovers it with a real client. */
export async function discoverManifest(
  server: TestServer,
  manifest: RcpManifest,
  path = '/rcp/manifest',
  options: RcpClientOptions = {},
): Promise<RcpDiscovery> {
  const url = serveManifest(server, manifest, path);
  return createRcpClient(options).discover(url);
}

/** A GET tool at the test server's origin (relative URL). */
export function tool(name: string, description: string, params: RcpManifest['tools'][number]['params'] = []): RcpManifest['tools'][number] {
  return { name, description, method: 'GET', url: `/api/${name}`, params };
}
