export { createOpenAITools } from './openai-tools';
export type {
  OpenAITools,
  OpenAIToolsOptions,
  OpenAIChatTool,
  OpenAIChatToolCall,
  OpenAIToolMessage,
  OpenAIResponsesTool,
  OpenAIResponsesNamespace,
  OpenAIResponsesItem,
  OpenAIFunctionCallOutput,
  OpenAIFunctionCallOutputPart,
} from './openai-tools';
export { OPENAI_MEDIA_TYPES, openAIMediaKind } from './openai-media';
export { toOpenAISchema } from './strict-schema';
export type { OpenAIParameters, OpenAIToolSchema } from './strict-schema';
