import { RcpError } from 'rcp-errors';
import { createToolSet } from 'rcp-client';
import type { RcpClient, RcpClientTool, RcpContextArgs, RcpDiscovery, RcpExecuteOptions, RcpExecuteResult, RcpNamespace } from 'rcp-client';
import type { ModelTool } from './model-tool';
import { toRcpModelTool } from './internal/rcp-model-tool';

/**
 * The arguments of an RCP tool after validation: the model-fillable params only.
 *
 * @example
 * ```ts
 * const input: RcpToolInput = { query: 'algebra' };
 * ```
 */
export type RcpToolInput = Readonly<Record<string, unknown>>;

/**
 * What an RCP model tool's synchronous `resolve` returns: a frozen plan for ONE call.
 * Nothing has been sent yet; `execute` performs the HTTP request through the client (which
 * fills resolver-bound params and the credential, and re-checks everything, before sending).
 *
 * @example
 * ```ts
 * const plan = transport.select({ name: 'search_courses', arguments: '{"query":"algebra"}' });
 * console.log(plan.toolId, plan.stageId, plan.input); // search_courses browse { query: 'algebra' }
 * const outcome = await plan.execute({ currentUserId: 'u-1' }).then(toModelResult, toModelResult);
 * ```
 */
export interface RcpCallPlan<Context = any> {
  /** The model tool id (the tool name, namespaced when names clash). */
  readonly toolId: string;
  /** The stage the selection was resolved in. */
  readonly stageId: string;
  /** The validated arguments (a deep-frozen copy). */
  readonly input: RcpToolInput;
  /** The discovered tool the call goes to. */
  readonly tool: RcpClientTool;
  /**
   * Runs `client.execute(tool, input, ctx, { signal })`. Each call sends the request again.
   * `ctx` is required when the client's resolvers read a typed context.
   * @example
   * ```ts
   * const { status, data } = await plan.execute(ctx, { signal: AbortSignal.timeout(10_000) });
   * ```
   */
  execute(...rest: RcpContextArgs<Context, [options?: RcpExecuteOptions]>): Promise<RcpExecuteResult>;
}

/**
 * An RCP tool as an agent-core model tool: its `resolve` returns an {@link RcpCallPlan}.
 *
 * @example
 * ```ts
 * const [search]: readonly RcpModelTool[] = createRcpModelTools(client, discovery);
 * search.inputSchema.jsonSchema; // the model-facing schema, resolver-bound params absent
 * ```
 */
export type RcpModelTool<Context = any> = ModelTool<RcpToolInput, RcpCallPlan<Context>>;

/**
 * Options of {@link createRcpModelTools}.
 *
 * @example
 * ```ts
 * createRcpModelTools(client, [learn, shop], { namespace: (discovery) => new URL(discovery.manifestUrl).hostname.split('.')[0]! });
 * ```
 */
export interface RcpModelToolsOptions {
  /**
   * Namespace for tools whose name appears in more than one discovery. Every tool sharing
   * such a name gets the id `<namespace>__<name>`; tools with a unique name keep their name.
   * @default the manifest URL's host, `[^A-Za-z0-9-]` runs as `_` (`learn.example.com` → `learn_example_com`), shortened to keep ids within 64 characters
   */
  namespace?: RcpNamespace;
}

/**
 * Turns discovered RCP tools into plain agent-core model tool definitions, one per tool,
 * accepted by the bundled {@link ModelToolRegistry} and, by shape, by the real
 * `@jangts/agent-core` registry.
 *
 * - `id`: the tool name. When tools from several discoveries share a name, ALL of them are
 *   namespaced `<namespace>__<name>` (see {@link RcpModelToolsOptions.namespace}) instead
 *   of one shadowing the other; ids stay within `^[A-Za-z0-9_-]{1,64}$`.
 * - `inputSchema.jsonSchema`: the tool's model-facing schema (resolver-bound params absent);
 *   `inputSchema.parse`: `rcp-client`'s `validateArguments` (no extra keys, so a spoofed
 *   resolver-bound param is refused synchronously with `RCP_INVALID_ARGUMENTS`).
 * - `resolve(input, { stageId })`: synchronous; returns a frozen {@link RcpCallPlan}.
 *
 * @throws RcpError `RCP_INVALID_OPTIONS` (bad discoveries or namespace), `RCP_INVALID_TOOL` (colliding ids).
 * @example
 * ```ts
 * import { createRcpClient } from 'rcp-client';
 * import { ModelToolRegistry, createRcpModelTools } from 'rcp-agent-core-bridge';
 *
 * const client = createRcpClient({ resolvers: { learnerId: (ctx) => ctx.currentUserId } });
 * const discovery = await client.discover('https://learn.example.com/rcp/manifest');
 * const registry = new ModelToolRegistry(createRcpModelTools(client, discovery)).seal();
 * const plan = registry.resolve({ toolId: 'search_courses', input: { query: 'algebra' } }, { stageId: 'browse' });
 * const { data } = await plan.execute({ currentUserId: 'u-1' });
 * ```
 */
export function createRcpModelTools<Context = any>(
  client: RcpClient<Context>,
  discoveries: RcpDiscovery | readonly RcpDiscovery[],
  options: RcpModelToolsOptions = {},
): readonly RcpModelTool<Context>[] {
  if (typeof client !== 'object' || client === null || typeof client.execute !== 'function') {
    throw new RcpError('RCP_INVALID_OPTIONS', 'createRcpModelTools needs an RCP client (from createRcpClient).');
  }
  const { namespace } = options ?? {};
  const toolSet = createToolSet(discoveries, namespace === undefined ? {} : { namespace });
  return Object.freeze(toolSet.entries.map((entry) => toRcpModelTool(client, entry)));
}
