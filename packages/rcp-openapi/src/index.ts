export { fromOpenApi } from './from-openapi';
export type { FromOpenApiOptions, FromOpenApiResult, OperationFilter } from './from-openapi';
export { formatSummary } from './import-report';
export type { ImportNote, ImportReport, ImportedOperation, LossyStep, ResolverCandidate } from './import-report';
export { RcpError, isRcpError } from 'rcp-manifest';
