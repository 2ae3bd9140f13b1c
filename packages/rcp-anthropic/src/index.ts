export { ANTHROPIC_MEDIA_TYPES, createAnthropicTools } from './anthropic-tools';
export type {
  AnthropicTools,
  AnthropicTool,
  AnthropicContentBlock,
  AnthropicToolResult,
  AnthropicToolResultBlock,
  AnthropicImageMediaType,
} from './anthropic-tools';
export { toAnthropicInputSchema } from './input-schema';
export type { AnthropicInputSchema } from './input-schema';
