export { startModelFake } from './start-model-fake';
export type {
  ModelApi,
  ModelFake,
  ModelFakeOptions,
  ModelRawAnswer,
  ModelRequest,
  ModelScriptStep,
  ModelTurn,
  ScriptedToolCall,
  ToolResultSeen,
} from './types';
