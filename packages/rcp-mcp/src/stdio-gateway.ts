import type { Readable, Writable } from 'node:stream';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createRcpMcpGateway, type RcpMcpGatewayOptions } from './mcp-server';

/**
 * Where {@link serveRcpMcpStdio} reads and writes MCP messages: each defaults to the process's own.
 *
 * @example
 * ```ts
 * const streams: RcpMcpStdioStreams = { stdin: socket, stdout: socket };
 * ```
 */
export interface RcpMcpStdioStreams {
  /** The host's messages (default `process.stdin`). */
  readonly stdin?: NodeJS.ReadableStream;
  /** The gateway's messages (default `process.stdout`): nothing else may be written there. */
  readonly stdout?: NodeJS.WritableStream;
}

/**
 * Serves RCP tools over stdio with one fixed context for the whole process — hosts start one
 * stdio server per user. Returns the SDK's handle (`close()`). `streams` serve another pair of
 * streams than the process's own (a socket, or a command line embedded in another program).
 *
 * @example
 * ```ts
 * import { serveRcpMcpStdio } from 'rcp-mcp';
 * serveRcpMcpStdio({ client, source: await client.discover(manifestUrl) }, { userId: 'u-1' });
 * ```
 */
export function serveRcpMcpStdio<Context>(options: RcpMcpGatewayOptions<Context>, ctx: Context, streams: RcpMcpStdioStreams = {}): { close(): Promise<void> } {
  const gateway = createRcpMcpGateway(options);
  const custom = streams.stdin !== undefined || streams.stdout !== undefined;
  const transport = custom ? new StdioServerTransport(streams.stdin as Readable | undefined, streams.stdout as Writable | undefined) : undefined;
  return serveStdio(() => gateway.serverFor(ctx), transport === undefined ? {} : { transport });
}
