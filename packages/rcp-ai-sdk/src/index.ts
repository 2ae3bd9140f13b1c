export { createAISDKTools } from './ai-sdk-tools';
export type { AISDKTools, AISDKToolsOptions, AISDKTurn } from './ai-sdk-tools';
export type { AISDKApprovalStore, AISDKToolApprovalFunction, AISDKToolApprovalStatus } from './approval';
export { modelResultSchema, toAISDKModelOutput } from './model-output';
export type { AISDKToolResultOutput } from './model-output';
