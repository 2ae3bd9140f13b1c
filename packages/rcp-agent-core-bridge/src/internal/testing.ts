import { isRcpError } from 'rcp-errors';
import { serveManifest as serveRcpManifest, startTestServer, type TestServer } from 'rcp-test-utils';

/** The stable code of what `run` throws synchronously (test helper). */
export function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isRcpError(error) ? error.code : `not an RcpError: ${String(error)}`;
  }
  return undefined;
}

/** The stable code of what `run` rejects with (test helper). */
export async function asyncCodeOf(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await run();
  } catch (error) {
    return isRcpError(error) ? error.code : `not an RcpError: ${String(error)}`;
  }
  return undefined;
}

/**
 * Starts a real test server serving `manifest(origin)` at `/rcp/manifest` (test helper).
 * The manifest is built from the server's own origin so its tool URLs point back at it.
 */
export async function serveManifest(manifest: (origin: string) => unknown): Promise<TestServer & { manifestUrl: string }> {
  const server = await startTestServer();
  return Object.assign(server, { manifestUrl: serveRcpManifest(server, manifest(server.origin)) });
}
