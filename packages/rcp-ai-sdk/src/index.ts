export { createAISDKTools } from './ai-sdk-tools';
export type { AISDKTools, AISDKToolsOptions, AISDKTurn } from './ai-sdk-tools';
export type { AISDKToolApprovalFunction, AISDKToolApprovalStatus } from './approval';
export { AI_SDK_MEDIA_TYPES, modelResultSchema, toAISDKModelOutput } from './model-output';
export type { AISDKToolResultOutput } from './model-output';
export type { AISDKToolOutput, AISDKToolProgress } from './stream-progress';
