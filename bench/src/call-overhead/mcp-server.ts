/**
 * The MCP proxy hop: a streamable-HTTP MCP server (stateless mode, as in the SDK's own
 * `simpleStatelessStreamableHttp` example: a fresh McpServer + transport per request) in its own
 * process, whose tools call the same upstream over keep-alive `fetch`.
 *
 * argv[2]: the upstream origin, e.g. http://127.0.0.1:41234
 */
import http from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createLearningMcpServer } from './mcp-tools.js';
import { serveAsChild } from './ipc.js';

const upstream = process.argv[2];
if (upstream === undefined || !upstream.startsWith('http://127.0.0.1:')) throw new Error('mcp-server: loopback upstream origin required');

function methodNotAllowed(res: http.ServerResponse): void {
  res.writeHead(405, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null }));
}

const httpServer = http.createServer((req, res) => {
  if (req.url !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  if (req.method !== 'POST') {
    methodNotAllowed(res);
    return;
  }
  const server = createLearningMcpServer(upstream);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  server
    .connect(transport)
    .then(() => transport.handleRequest(req, res))
    .catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: String(error) }, id: null }));
      }
    });
});
httpServer.keepAliveTimeout = 60_000;
httpServer.headersTimeout = 65_000;

httpServer.listen(0, '127.0.0.1', () => {
  const address = httpServer.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  serveAsChild(address.port);
});
