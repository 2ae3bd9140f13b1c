export { createOpenAIToolSearch } from './openai-tool-search';
export type { OpenAIToolSearch, OpenAIToolSearchOptions, OpenAIToolSearchTool, OpenAIToolSearchOutput } from './openai-tool-search';
