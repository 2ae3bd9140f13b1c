export { createAnthropicToolSearch } from './anthropic-tool-search';
export type { AnthropicToolSearch, AnthropicToolSearchOptions, AnthropicDeferredTool } from './anthropic-tool-search';
