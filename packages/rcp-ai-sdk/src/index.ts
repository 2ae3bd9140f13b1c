export { createAISDKTools } from './ai-sdk-tools';
export type { AISDKTools, AISDKToolsOptions, AISDKTurn } from './ai-sdk-tools';
