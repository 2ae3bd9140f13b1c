export { ModelToolRegistry } from './model-tool-registry';
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
} from './model-tool';
export { Support } from './support';
export type { ModelToolCall, ModelToolListing, ModelTransport, ModelTransportOptions } from './model-transport';
export { createRcpModelTools } from './rcp-model-tools';
export type { RcpCallPlan, RcpModelTool, RcpModelToolsOptions, RcpToolInput } from './rcp-model-tools';
export type { RcpNamespace } from 'rcp-client';
export { createRcpRegistry } from './create-rcp-registry';
export type { RcpRegistry, RcpRegistryOptions, RcpStage } from './create-rcp-registry';
export { toModelResult, toModelText } from 'rcp-client';
export type { ModelErrorCode, ModelError, ModelMedia, ModelPage, ModelResult } from 'rcp-client';
export { RcpError, isRcpError } from 'rcp-errors';
export type { RcpErrorCode, RcpErrorOptions, RcpErrorOf } from 'rcp-errors';
