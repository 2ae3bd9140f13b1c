export { createAISDKToolSearch } from './tool-search';
export type { AISDKToolSearch, AISDKToolSearchOptions } from './tool-search';
