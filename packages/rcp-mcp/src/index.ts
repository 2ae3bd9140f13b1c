export { createRcpMcpGateway, createRcpMcpServer, warningsNotice, HOST_TOOL_LIMIT } from './mcp-server';
export { toolAnnotations } from './tool-annotations';
export type { RcpMcpGateway, RcpMcpGatewayOptions } from './mcp-server';
export { createRcpMcpHttpHandler } from './http-gateway';
export type { RcpMcpHttpOptions } from './http-gateway';
export { serveRcpMcpStdio } from './stdio-gateway';
export type { RcpMcpStdioStreams } from './stdio-gateway';
