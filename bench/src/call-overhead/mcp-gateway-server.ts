/**
 * The RCP MCP gateway as the MCP proxy hop: rcp-mcp's stateless streamable-HTTP handler over
 * rcp-client, discovering the upstream's manifest, in its own process — the same position as the
 * hand-written MCP server (mcp-server.ts), for the same tools.
 *
 * argv[2]: the upstream origin, e.g. http://127.0.0.1:41234
 */
import http from 'node:http';
import { createRcpClient } from 'rcp-client';
import { createRcpMcpHttpHandler } from 'rcp-mcp';
import { serveAsChild } from './ipc.js';

const upstream = process.argv[2];
if (upstream === undefined || !upstream.startsWith('http://127.0.0.1:')) throw new Error('mcp-gateway: loopback upstream origin required');

// No resolvers: learnerId is an argument here, as it is for the hand-written MCP server, so both
// hops do the same work. Every request is "authenticated" (loopback bench, one caller).
const client = createRcpClient();
const handler = createRcpMcpHttpHandler({ client, source: await client.discover(`${upstream}/manifest`), authenticate: () => ({}) });
const httpServer = http.createServer((req, res) => void handler(req, res));
httpServer.keepAliveTimeout = 60_000;
httpServer.headersTimeout = 65_000;
httpServer.listen(0, '127.0.0.1', () => {
  const address = httpServer.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  serveAsChild(address.port);
});
