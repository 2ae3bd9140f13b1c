export { rcpToolSearchTool } from './tool-search';
export type { OpenAIAgentsToolSearchOptions } from './tool-search';
