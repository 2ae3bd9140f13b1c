export { createOpenAIAgentsTools } from './openai-agents-tools';
export type {
  OpenAIAgentsApprovalRequest,
  OpenAIAgentsTools,
  OpenAIAgentsToolsOptions,
  OpenAIAgentsTurn,
} from './openai-agents-tools';
export { toAgentsToolOutput } from './tool-output';
export type { OpenAIAgentsToolOutput } from './tool-output';
