/**
 * `rcp-sdk/agent-core`: everything `rcp-agent-core-bridge` exports — the `@jangts/agent-core`
 * contract (`ModelToolRegistry`, `Support`), `createRcpModelTools`, `createRcpRegistry` and
 * `toModelResult`.
 * Re-exports only; every name is listed explicitly and kept equal to `rcp-agent-core-bridge`'s own
 * exports (a test checks it).
 *
 * @example
 * ```ts
 * import { ModelToolRegistry, Support, createRcpRegistry } from 'rcp-sdk/agent-core';
 *
 * const { transports } = createRcpRegistry({ client, discoveries: [discovery], stages: { browse: ['search_courses'] } });
 * const plan = transports.browse.select({ name: 'search_courses', arguments: '{"query":"algebra"}' });
 * ```
 *
 * @packageDocumentation
 */
export {
  ModelToolRegistry,
  Support,
  createRcpModelTools,
  createRcpRegistry,
  toModelResult,
  toModelText,
  RcpError,
  isRcpError,
} from 'rcp-agent-core-bridge';
export type {
  AsIntent,
  JsonSchemaObject,
  ModelTool,
  ModelToolContext,
  ModelToolRegistryClass,
  ModelToolSelection,
  RegisteredModelTool,
  SchemaAdapter,
  SealedModelToolRegistry,
  ToolCondition,
  ModelToolCall,
  ModelToolListing,
  ModelTransport,
  ModelTransportOptions,
  RcpCallPlan,
  RcpModelTool,
  RcpModelToolsOptions,
  RcpNamespace,
  RcpToolInput,
  RcpRegistry,
  RcpRegistryOptions,
  RcpStage,
  ModelErrorCode,
  ModelError,
  ModelMedia,
  ModelPage,
  ModelResult,
  RcpErrorCode,
  RcpErrorOptions,
  RcpErrorOf,
} from 'rcp-agent-core-bridge';
