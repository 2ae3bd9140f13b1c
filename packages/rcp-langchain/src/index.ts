export { createLangChainTools } from './langchain-tools';
export type { LangChainToolProgress, LangChainToolsOptions } from './langchain-tools';
export { createLangChainApprovals } from './approval';
export type {
  LangChainApprovals,
  LangChainApprovalsOptions,
  LangChainDecisionType,
  LangChainEdit,
  LangChainInterruptOnConfig,
  LangChainPendingApproval,
} from './approval';
export { createLangChainToolSelector } from './tool-selector';
export type {
  LangChainModelRequest,
  LangChainToolFinder,
  LangChainToolSelector,
  LangChainToolSelectorMiddleware,
  LangChainToolSelectorOptions,
} from './tool-selector';
