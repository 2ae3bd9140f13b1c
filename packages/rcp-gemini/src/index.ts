export { GEMINI_MEDIA_TYPES, createGeminiTools } from './gemini-tools';
export type {
  GeminiTools,
  GeminiToolsOptions,
  GeminiFunctionDeclaration,
  GeminiFunctionCall,
  GeminiFunctionResponsePart,
  GeminiFunctionResponseMediaPart,
} from './gemini-tools';
export { toGeminiParameters, GEMINI_SCHEMA_KEYS } from './gemini-schema';
export type { GeminiSchema } from './gemini-schema';
