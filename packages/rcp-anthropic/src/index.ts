export { createAnthropicTools } from './anthropic-tools';
export type { AnthropicTools, AnthropicTool, AnthropicContentBlock, AnthropicToolResult } from './anthropic-tools';
