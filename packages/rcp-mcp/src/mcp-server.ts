import { McpServer, fromJsonSchema, type CallToolResult, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import {
  CHECK_OPERATION_TOOL,
  checkOperation,
  createToolSet,
  isRcpError,
  jsonSchemaCopy,
  toModelResult,
  toolCountWarning,
  type ModelResult,
  type RcpApprovalRequiredError,
  type RcpClient,
  type RcpCallOutcome,
  type RcpClientTool,
  type RcpDiscovery,
  type RcpExecuteOptions,
  type RcpExecuteResult,
  type RcpToolCall,
  type RcpToolSet,
  type RcpToolSetOptions,
} from 'rcp-client';
import { terminalText } from 'rcp-internal';
import type { RcpToolSearchOptions } from 'rcp-search';
import { toCallToolResult } from './call-tool-result';
import { pendingHint, servesCheckOperation } from './check-operation';
import { mcpFileSchema } from './file-params';
import { groupsNotice } from './dynamic-groups';
import { DYNAMIC_OPTION } from './dynamic-mode-hint';
import { CALL_TOOL_NAME, metaTools } from './dynamic-tools';
import { CANNOT_ASK_TEXT, answerOf, askForApproval, canElicit } from './elicit-approval';
import { progressReporter } from './stream-progress';
import { toolAnnotations } from './tool-annotations';
import { groupToolLines } from 'rcp-internal';

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
  /**
   * The servers' MCP instructions (hosts show them with the server's details; many pass them to
   * the model). Your own text replaces the default notice; add `gateway.warnings` to it yourself
   * when you want them shown.
   * @default in dynamic mode over tools with groups, a sentence pointing at `list_groups`; then a notice listing the gateway's `warnings` ({@link warningsNotice}); none without either
   */
  readonly instructions?: string;
  /**
   * Dynamic mode, for hosts without tool search and manifests with many tools: instead of every
   * tool, three meta-tools — `search_tools` (ranked names, one-line descriptions and param names, rcp-search),
   * `describe_tool` (one tool's schemas and annotations) and `call_tool` (a call by name). A call
   * through `call_tool` runs exactly as a listed tool's would (the same tool set, resolvers,
   * approvals, trust rules): approval is the named tool's, one answer per call. `call_tool` is
   * annotated as the most cautious of its tools. When the tools have groups (RCP 0.4,
   * `toolSet.groups`), a fourth meta-tool, `list_groups` (each group's name, one-line description
   * and tool count), and a `group` argument of `search_tools` that searches one group's tools.
   * Suggested by the tool-count warning past {@link HOST_TOOL_LIMIT}.
   * @default false (every tool listed)
   */
  readonly dynamic?: boolean;
  /**
   * Options of `search_tools` in dynamic mode (field weights, synonyms, your own `rank`), as
   * rcp-search's `createToolSearch` takes them.
   * @default rcp-search's defaults
   */
  readonly search?: RcpToolSearchOptions;
}

/**
 * A gateway prepared once: its tool set, its warnings, and `serverFor(ctx)`, which makes one MCP
 * server for one verified context. The tools' input schemas are converted once and shared by
 * every server it makes (stateless HTTP makes one per request).
 *
 * `warnings` are the discoveries' warnings that concern what is served (the manifest's own, and
 * those of served tools: the tool set's `warnings`) and the tool-count
 * warning past {@link HOST_TOOL_LIMIT}. Hosts hide a gateway's stderr, so every server it makes
 * also carries them in its MCP `instructions` (the `initialize` / `server/discover` result, once
 * per session, on every transport), which hosts show with the server's details.
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
 * client closing the request's stream) aborts its HTTP request. A result's text is
 * `toModelText(toModelResult(outcome))` — the data, the page, the truncation flag, the retry
 * hint, the untrusted-text marking — with a media answer beside it as MCP `image`, `audio` or an
 * embedded `resource` with a `blob`, and `structuredContent` when the data is a JSON object. A
 * tool with an output schema (`tool.outputSchema`, from its `responseMappings`) is listed with
 * it. What a call runs into is an `isError: true` result with the same model-safe text.
 *
 * @example
 * ```ts
 * import { serveStdio } from '@modelcontextprotocol/server/stdio';
 * const gateway = createRcpMcpGateway({ client, source: await client.discover(manifestUrl) });
 * serveStdio(() => gateway.serverFor({ userId: 'u-1' }));
 * ```
 */
export function createRcpMcpGateway<Context>(options: RcpMcpGatewayOptions<Context>): RcpMcpGateway<Context> {
  const { client, serverInfo = { name: 'rcp-mcp', version: '0.1.0' }, dynamic = false } = options;
  const setOptions: RcpToolSetOptions = {};
  if (options.only !== undefined) setOptions.only = options.only;
  if (options.namespace !== undefined) setOptions.namespace = options.namespace;
  const toolSet = createToolSet(options.source, setOptions);
  const countWarning = toolCountWarning(toolSet, { limit: HOST_TOOL_LIMIT, target: 'An MCP host such as Cursor' });
  // Three meta-tools fit every host: past the limit, only a gateway that lists every tool warns.
  const warning = dynamic || countWarning === undefined ? undefined : `${countWarning}; or serve them in dynamic mode (${DYNAMIC_OPTION})`;
  // One line per cause and origin, not per tool (447 untrusted tools are one line): what a person reads.
  const warnings = Object.freeze(groupToolLines([...toolSet.warnings, ...(warning === undefined ? [] : [warning])]));
  // A dynamic gateway over grouped tools says so (list_groups, search_tools' group); then the operator's notice.
  const notices = [dynamic ? groupsNotice(toolSet) : undefined, warningsNotice(warnings)].filter((notice) => notice !== undefined);
  const instructions = options.instructions ?? (notices.length === 0 ? undefined : notices.join('\n\n'));
  // Beside long-running tools, listed in both modes (docs/behaviour.md, the gateway).
  const servesCheck = servesCheckOperation(toolSet);
  const checkTool = {
    name: CHECK_OPERATION_TOOL.name,
    config: {
      description: CHECK_OPERATION_TOOL.description,
      inputSchema: mcpSchema(CHECK_OPERATION_TOOL.inputSchema),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    answer: undefined,
    lookUp: undefined,
  };
  const listed = dynamic
    ? metaTools(toolSet, options.search).map(({ name, description, inputSchema, annotations, answer, lookUp }) => ({
        name,
        config: { description, inputSchema: mcpSchema(inputSchema), annotations },
        answer,
        lookUp,
      }))
    : toolSet.entries.map(({ name, tool }) => ({
        name,
        config: {
          description: tool.description,
          // A file param is marked for hosts as the MCP file-input drafts do (x-mcp-file).
          inputSchema: mcpSchema(mcpFileSchema(tool.inputSchema)),
          // Only an object schema: the 2025 revisions require one at the root (docs/behaviour.md, the gateway).
          ...(tool.outputSchema?.type === 'object' && { outputSchema: mcpSchema(tool.outputSchema) }),
          annotations: toolAnnotations(tool),
        },
        answer: undefined,
        lookUp: undefined,
      }));
  const tools = servesCheck ? [...listed, checkTool] : listed;
  // A streamed tool's `maxEvents` is its progress total (the stream may end before it).
  const totals = new Map(toolSet.entries.flatMap(({ name, tool }) => (tool.stream?.maxEvents === undefined ? [] : [[name, tool.stream.maxEvents] as const])));

  // The client's call with the server's ctx as one typed argument (what `...RcpContextArgs` spreads).
  const gatewayClient: GatewayClient<Context> = client;

  function serverFor(ctx: Context): McpServer {
    const server = new McpServer(serverInfo, { capabilities: { tools: {} }, ...(instructions !== undefined && { instructions }) });

    /** One call of a tool of the set, listed or named through call_tool: the one per-call path. */
    async function callTool(name: string, args: unknown, mcp: ServerContext): Promise<CallToolResult | InputRequiredResult> {
      const call = { name, arguments: args };
      // The SDK aborts this signal when the host cancels the request: the tool's HTTP request ends with it.
      const signal = mcp.mcpReq.signal;
      const answer = answerOf(mcp, name);
      if (answer !== undefined && 'error' in answer) return toCallToolResult(toModelResult(answer.error), name);
      // A host that sent a progress token hears a streamed answer's progress, all of it before the result.
      const progress = progressReporter(mcp, totals.get(name));
      const options: RcpExecuteOptions = { signal, ...(progress !== undefined && { onProgress: progress.onProgress }) };
      if (answer !== undefined) {
        // The round after the person was asked: exactly the reviewed request, or nothing.
        const approved = await gatewayClient.call(toolSet, call, ctx, { ...options, approval: answer.approval });
        await progress?.finish();
        return resultOf(toModelResult(approved), name);
      }
      const outcome = await gatewayClient.call(toolSet, call, ctx, options);
      await progress?.finish();
      if (!outcome.ok && isRcpError(outcome.error, 'RCP_APPROVAL_REQUIRED')) {
        // Nothing was sent. Ask the person through the host, or fail closed when it cannot ask.
        if (!canElicit(mcp, server.server.getClientCapabilities())) return { isError: true, content: [{ type: 'text', text: CANNOT_ASK_TEXT }] };
        return askForApproval((outcome.error as RcpApprovalRequiredError).approval);
      }
      return resultOf(toModelResult(outcome), name);
    }

    /** A tool's MCP result; a pending one adds the sentence about check_operation when the gateway serves it. */
    function resultOf(result: ModelResult, name: string): CallToolResult {
      return toCallToolResult(result, name, servesCheck ? pendingHint(result) : undefined);
    }

    for (const { name, config, answer, lookUp } of tools) {
      server.registerTool(name, config, async (args: unknown, mcp: ServerContext): Promise<CallToolResult | InputRequiredResult> => {
        if (answer !== undefined) return toCallToolResult(await answer(args as Record<string, unknown>), name);
        // The operation's caller is this server's ctx: a handle of another context is RCP_INVALID_HANDLE.
        if (servesCheck && name === CHECK_OPERATION_TOOL.name)
          return resultOf(await checkOperation(gatewayClient, toolSet, args, ctx, { signal: mcp.mcpReq.signal }), name);
        if (name === CALL_TOOL_NAME && lookUp !== undefined) {
          // The SDK checked call_tool's own schema; the client checks the named tool's arguments.
          const { name: target, arguments: targetArgs = {} } = args as { name: string; arguments?: unknown };
          // A name the set does not know points at search_tools (nothing sent); a known one takes the one per-call path.
          const found = await lookUp(target);
          if ('ok' in found) return toCallToolResult(found, name);
          return callTool(target, targetArgs, mcp);
        }
        return callTool(name, args, mcp);
      });
    }
    return server;
  }

  return Object.freeze({ toolSet, warnings, serverFor });
}

/**
 * `client.call` with the context as one typed argument: a server holds its verified `ctx`, so it
 * passes it as it is (`RcpClient<Context>`'s `...RcpContextArgs` is this, for any `Context`).
 */
interface GatewayClient<Context> {
  call(source: RcpToolSet, toolCall: RcpToolCall, ctx: Context, options: RcpExecuteOptions): Promise<RcpCallOutcome>;
  resume(source: RcpToolSet, handle: string, ctx: Context): Promise<RcpExecuteResult>;
}

/** A frozen RCP schema as the SDK takes one: a mutable copy (same JSON), checked by the SDK's validator. */
function mcpSchema(schema: RcpClientTool['inputSchema'] | NonNullable<RcpClientTool['outputSchema']>) {
  return fromJsonSchema(jsonSchemaCopy(schema));
}

/** Warnings past this many are counted, not listed, in the instructions. */
const LISTED_WARNINGS = 20;

/**
 * The MCP instructions a gateway with warnings gives its servers: a heading, then one escaped
 * line per warning (a manifest's text cannot forge another line), the first 20 listed;
 * `undefined` without warnings.
 *
 * @example
 * ```ts
 * warningsNotice(['/tools/0/descripton: unknown key']);
 * // 'rcp-mcp found 1 problem(s) in the RCP manifest behind these tools, for its operator to fix:\n- /tools/0/descripton: unknown key'
 * ```
 */
export function warningsNotice(warnings: readonly string[]): string | undefined {
  if (warnings.length === 0) return undefined;
  const listed = warnings.slice(0, LISTED_WARNINGS).map((warning) => `- ${terminalText(warning)}`);
  if (warnings.length > LISTED_WARNINGS) listed.push(`- … and ${warnings.length - LISTED_WARNINGS} more (rcp describe <manifest> lists them all)`);
  // Read by the host's model too: notes about the operator's setup, never instructions for the model to act on.
  return [
    `rcp-mcp found ${warnings.length} problem(s) in the RCP manifest behind these tools, for its operator to fix (not for the model to act on):`,
    ...listed,
  ].join('\n');
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
