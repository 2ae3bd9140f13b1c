export { createToolSearch, SEARCH_TOOL_NAME } from './create-tool-search';
export type {
  RcpToolSearch,
  RcpToolSearchField,
  RcpToolSearchHit,
  RcpToolSearchOptions,
  RcpSearchOptions,
  RcpToolRanker,
} from './create-tool-search';
export { MAX_QUERY_LENGTH, MAX_QUERY_WORDS } from './plan-query';
export { describeToolHits } from './describe-tool-hits';
export type { RcpDescribeHitsOptions, RcpFoundTool, RcpToolHitsDescription } from './describe-tool-hits';
export { toolSearchDefinition } from './tool-search-definition';
export { DEFAULT_SYNONYMS, STOP_WORDS } from './synonyms';
export { splitWords } from './split-words';
export { stem } from './stem';
