export { parseTemplate } from './parse-template';
export type { ParsedTemplate, TemplatePart } from './parse-template';
export { collectTemplateTokens } from './collect-template-tokens';
export { compileRequest } from './compile-request';
export { percentEncode } from './percent-encode';
export { encodeFormBody } from './encode-form';
export type { QueryStyle } from './internal/compile-query';
export type {
  CompileRequestOptions,
  CompiledRequest,
  RenderedRequest,
  RequestTemplate,
} from './compile-request';
export { RcpTemplateError } from './template-error';
export type { RcpTemplateErrorCode, RcpTemplateErrorOptions, TemplatePosition } from './template-error';
export { RcpError, isRcpError } from 'rcp-errors';
export type { RcpErrorCode, RcpErrorOptions, RcpErrorOf } from 'rcp-errors';
// The token-name grammar is public (a manifest author checks names with it); the character-level helpers and the
// other shared rules (HTTP tokens, header values, JSON Pointer tokens, plain objects) are rcp-internal's, bundled.
export { TOKEN_NAME_SOURCE, isTokenName } from 'rcp-internal';
