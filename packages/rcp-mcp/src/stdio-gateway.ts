import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createRcpMcpGateway, type RcpMcpGatewayOptions } from './mcp-server';

/**
 * Serves RCP tools over stdio with one fixed context for the whole process — hosts start one
 * stdio server per user. Returns the SDK's handle (`close()`).
 *
 * @example
 * ```ts
 * import { serveRcpMcpStdio } from 'rcp-mcp';
 * serveRcpMcpStdio({ client, source: await client.discover(manifestUrl) }, { userId: 'u-1' });
 * ```
 */
export function serveRcpMcpStdio<Context>(options: RcpMcpGatewayOptions<Context>, ctx: Context): { close(): Promise<void> } {
  const gateway = createRcpMcpGateway(options);
  return serveStdio(() => gateway.serverFor(ctx));
}
