import { McpServer, fromJsonSchema, type CallToolResult, type ServerContext, type ToolAnnotations } from '@modelcontextprotocol/server';
import {
  createToolSet,
  toModelResult,
  toolCountWarning,
  toolEffects,
  type RcpClient,
  type RcpClientTool,
  type RcpContextArgs,
  type RcpDiscovery,
  type RcpExecuteOptions,
  type RcpHttpMethod,
  type RcpToolSet,
  type RcpToolSetOptions,
} from 'rcp-client';

/** Tools past which hosts start refusing or truncating (Cursor: 40). */
export const HOST_TOOL_LIMIT = 40;

/**
 * What the gateway serves: a client, and the discoveries (or a tool set) whose tools it lists,
 * filtered with `only`.
 *
 * @example
 * ```ts
 * const gateway: RcpMcpGatewayOptions = { client, source: await client.discover(manifestUrl), only: ['list_notes'] };
 * ```
 */
export interface RcpMcpGatewayOptions<Context = any> extends Pick<RcpToolSetOptions, 'only' | 'namespace'> {
  readonly client: RcpClient<Context>;
  readonly source: RcpDiscovery | readonly RcpDiscovery[] | RcpToolSet;
  /**
   * The server name and version MCP hosts show.
   * @default { name: 'rcp-mcp', version: '0.1.0' }
   */
  readonly serverInfo?: { name: string; version: string };
}

/**
 * MCP tool annotations from a tool's effects (rcp-client's `tool.effects`: the method's defaults,
 * the manifest's RCP 0.3 claims only adding caution): GET is read-only; DELETE is destructive;
 * reads, PUT and DELETE are idempotent; every tool reaches the open world unless its manifest
 * says otherwise. `destructiveHint: false` is sent only when the manifest claims it (MCP's
 * default for a write is destructive). Given a bare method, the method's defaults.
 *
 * @example
 * ```ts
 * toolAnnotations('DELETE'); // { openWorldHint: true, destructiveHint: true, idempotentHint: true }
 * toolAnnotations(discovery.tool('search_notes')); // from the tool's effects
 * ```
 */
export function toolAnnotations(tool: RcpHttpMethod | Pick<RcpClientTool, 'effects' | 'declaredEffects'>): ToolAnnotations {
  const effects = typeof tool === 'string' ? toolEffects({ method: tool }) : tool.effects;
  const annotations: ToolAnnotations = { openWorldHint: effects.openWorld };
  if (effects.readOnly) annotations.readOnlyHint = true;
  else if (effects.destructive) annotations.destructiveHint = true;
  else if (typeof tool !== 'string' && tool.declaredEffects?.destructive === false) annotations.destructiveHint = false;
  if (effects.idempotent && !effects.readOnly) annotations.idempotentHint = true;
  return annotations;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A gateway prepared once: its tool set, its warnings (past {@link HOST_TOOL_LIMIT} tools), and
 * `serverFor(ctx)`, which makes one MCP server for one verified context. The tools' input
 * schemas are converted once and shared by every server it makes (stateless HTTP makes one per
 * request).
 *
 * @example
 * ```ts
 * const gateway = createRcpMcpGateway({ client, source: discovery });
 * console.error(gateway.warnings);
 * serveStdio(() => gateway.serverFor({ userId: 'u-1' }));
 * ```
 */
export interface RcpMcpGateway<Context = any> {
  readonly toolSet: RcpToolSet;
  readonly warnings: readonly string[];
  serverFor(ctx: Context): McpServer;
}

/**
 * Prepares a gateway over RCP tools: each tool is listed with its model-facing schema
 * (resolver-bound params absent) and annotations from its method, and each call runs through
 * `client.call` with the server's `ctx` — never with a value from the arguments — and the MCP
 * request's abort signal, so a cancelled call (a 2025-era `notifications/cancelled`, or a 2026-era
 * client closing the request's stream) aborts its HTTP request. A result is MCP
 * content (the data as JSON text, plus `structuredContent` when it is an object); what a call
 * runs into is an `isError: true` result with `toModelResult`'s model-safe text.
 *
 * @example
 * ```ts
 * import { serveStdio } from '@modelcontextprotocol/server/stdio';
 * const gateway = createRcpMcpGateway({ client, source: await client.discover(manifestUrl) });
 * serveStdio(() => gateway.serverFor({ userId: 'u-1' }));
 * ```
 */
export function createRcpMcpGateway<Context>(options: RcpMcpGatewayOptions<Context>): RcpMcpGateway<Context> {
  const { client, serverInfo = { name: 'rcp-mcp', version: '0.1.0' } } = options;
  const setOptions: RcpToolSetOptions = {};
  if (options.only !== undefined) setOptions.only = options.only;
  if (options.namespace !== undefined) setOptions.namespace = options.namespace;
  const toolSet = createToolSet(options.source, setOptions);
  const warning = toolCountWarning(toolSet, { limit: HOST_TOOL_LIMIT, target: 'Some MCP hosts (Cursor)' });
  const tools = toolSet.entries.map(({ name, tool }) => ({
    name,
    config: {
      description: tool.description,
      inputSchema: fromJsonSchema(structuredClone(tool.inputSchema) as never),
      annotations: toolAnnotations(tool),
    },
  }));

  function serverFor(ctx: Context): McpServer {
    const server = new McpServer(serverInfo, { capabilities: { tools: {} } });
    for (const { name, config } of tools) {
      server.registerTool(name, config, async (args: unknown, mcp: ServerContext): Promise<CallToolResult> => {
        // The SDK aborts this signal when the host cancels the request: the tool's HTTP request ends with it.
        const rest = [ctx, { signal: mcp.mcpReq.signal }] as unknown as RcpContextArgs<Context, [options?: RcpExecuteOptions]>;
        const result = toModelResult(await client.call(toolSet, { name, arguments: args }, ...rest));
        if (!result.ok) {
          return { isError: true, content: [{ type: 'text', text: `${result.error.code}: ${result.error.message}` }] };
        }
        const text = JSON.stringify(result.data) ?? 'null';
        return isPlainObject(result.data)
          ? { content: [{ type: 'text', text }], structuredContent: result.data }
          : { content: [{ type: 'text', text }] };
      });
    }
    return server;
  }

  return Object.freeze({ toolSet, warnings: Object.freeze(warning === undefined ? [] : [warning]), serverFor });
}

/**
 * One MCP server over RCP tools for one verified context: `createRcpMcpGateway(options).serverFor(ctx)`.
 * Prepare the gateway once instead when you make many servers.
 *
 * @example
 * ```ts
 * const server = createRcpMcpServer({ client, source: discovery }, { userId: 'u-1' });
 * ```
 */
export function createRcpMcpServer<Context>(options: RcpMcpGatewayOptions<Context>, ctx: Context): McpServer {
  return createRcpMcpGateway(options).serverFor(ctx);
}
