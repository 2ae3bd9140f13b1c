export { createLangChainTools } from './langchain-tools';
export type { LangChainToolsOptions } from './langchain-tools';
